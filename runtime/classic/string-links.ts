/**
 * String links `<id::key`text`>` (pvf-classic-format §3.2, §3.3): `n_string.lst` maps a table number to a
 * `.str` file; the `.str` file maps keys to texts.
 */

export const N_STRING_PATH = 'n_string.lst';

export interface NStringList {
  /** Table number (the pair's int value) → `.str` path, lower-cased. */
  byValue: Map<number, string>;
  /** Paths in pair order (pvfUtility keys on this ordinal). */
  byOrdinal: string[];
}

/**
 * The `(type 2 id)(type 7 path)` pairs of a decompiled `n_string.lst` token stream. Other tokens are
 * skipped; the first pair of a number wins.
 */
export function parseNStringList(pairs: Iterable<{ id: number; path: string }>): NStringList {
  const byValue = new Map<number, string>();
  const byOrdinal: string[] = [];
  for (const { id, path } of pairs) {
    const lower = path.replaceAll('\\', '/').replace(/^\/+/, '').toLowerCase();
    if (!byValue.has(id)) byValue.set(id, lower);
    byOrdinal.push(lower);
  }
  return { byValue, byOrdinal };
}

/** The `.str` path of a table number: keyed on the value, falling back to the ordinal (§3.2). */
export function strPathOf(list: NStringList, id: number): string | null {
  return list.byValue.get(id) ?? list.byOrdinal[id] ?? null;
}

/**
 * A `.str` table (§3.3): `key>value` lines split at the first `>`; `//` comment lines, lines without
 * `>` and lines starting with `>` are skipped; CRLF or LF. Keys are trimmed of spaces and tabs (as
 * pvf-parser-ts does); values are kept as written (a literal `\n` stays two characters). The first line
 * of a key wins.
 */
export function parseStrTable(text: string): Map<string, string> {
  const table = new Map<string, string>();
  for (const rawLine of text.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line.startsWith('//')) continue;
    const gt = line.indexOf('>');
    if (gt <= 0) continue;
    const key = line.slice(0, gt).replace(/^[ \t]+|[ \t]+$/g, '');
    if (key === '' || table.has(key)) continue;
    table.set(key, line.slice(gt + 1));
  }
  return table;
}
