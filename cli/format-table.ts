/** Display width: CJK and other wide characters take two terminal columns. */
function width(text: string): number {
  let w = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    w += cp >= 0x1100 && (cp <= 0x115f || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || cp >= 0x1f300) ? 2 : 1;
  }
  return w;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  if (width(flat) <= max) return flat;
  let out = '';
  for (const ch of flat) {
    if (width(out + ch) > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

export function formatTable(headers: string[], rows: string[][], maxColumn = 40): string {
  const cells = [headers, ...rows].map((row) => row.map((c) => clip(c, maxColumn)));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => width(row[i] ?? ''))));
  return cells
    .map((row) => row.map((c, i) => c + ' '.repeat((widths[i] ?? 0) - width(c))).join('  ').trimEnd())
    .join('\n');
}
