/**
 * `stringtable.bin` read as text: a header line, then `index<TAB>`string`` per string. Checked
 * against a plain model (each string decoded alone) over random tables of several runs with the
 * cases the run-wise decoding must notice (a NUL inside a string, a DBCS lead byte at a string's end),
 * and through a real archive's readText.
 */
import { describe, expect, it } from 'vitest';
import { openClassicArchiveBytes } from '../../../runtime/classic/classic-archive.js';
import { decodeStringTable, parseStringTable, stringTableText } from '../../../runtime/classic/stringtable-bin.js';
import { decodeText, encodeText } from '../../../runtime/classic/text-encoding.js';
import { seededRandom } from '../../support/random.js';
import { writeClassicArchive } from '../../support/write-classic-archive.js';

/** The table's bytes: `uint32 N`, N+1 offsets counted from byte 4, the strings, each with `pad` NULs. */
function tableBytes(strings: readonly Uint8Array[], pad = 1): Uint8Array {
  const head = 4 * (strings.length + 1);
  const size = strings.reduce((n, s) => n + s.length + pad, 0);
  const bytes = new Uint8Array(4 + head + size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, strings.length, true);
  let at = head;
  strings.forEach((s, i) => {
    view.setUint32(4 + 4 * i, at, true);
    bytes.set(s, 4 + at);
    at += s.length + pad;
  });
  view.setUint32(4 + 4 * strings.length, at, true);
  return bytes;
}

/** What the text must be: each string decoded by itself. */
function model(strings: readonly Uint8Array[], encoding: string): string {
  const lines = [`#stringtable.bin: ${strings.length} strings (index, text)`];
  strings.forEach((s, i) => {
    let end = s.length;
    while (end > 0 && s[end - 1] === 0) end--;
    lines.push(`${i}\t\`${decodeText(s.subarray(0, end), encoding).replaceAll('`', '``')}\``);
  });
  return lines.join('\n');
}

describe('stringTableText', () => {
  it('matches strings decoded one by one over random tables of several runs (NULs inside, lead bytes at the end, backticks, line breaks)', () => {
    const rng = seededRandom(616);
    const words = ['[name]', '[explain]', '`quoted`', 'a``b', '无色HP之剑', '격투가의 건틀릿', '鬥神之手甲', 'line1\r\nline2', '', ' '];
    for (const encoding of ['cp936', 'cp949', 'cp950', 'utf-8']) {
      for (let round = 0; round < 4; round++) {
        const count = round === 0 ? 0 : Math.floor(rng() * 9000) + 1;
        const strings = Array.from({ length: count }, () => {
          const r = rng();
          if (r < 0.002) return Uint8Array.of(0x41, 0, 0x42); // a NUL inside
          if (r < 0.004) return Uint8Array.of(0x41, 0x81); // a lead byte at the end
          if (r < 0.01) return Uint8Array.from({ length: Math.floor(rng() * 12) }, () => Math.floor(rng() * 256));
          return encodeText(words[Math.floor(rng() * words.length)] as string, encoding);
        });
        const table = decodeStringTable(parseStringTable(tableBytes(strings, round % 2 === 0 ? 1 : 3), 'test.pvf'), encoding);
        expect(stringTableText(table)).toBe(model(strings, encoding));
      }
    }
  });

  it('is what an archive reads for stringtable.bin: readable lines, not a script', () => {
    const archive = openClassicArchiveBytes(
      writeClassicArchive({ scripts: [['item/a.stk', '#PVF_File\n[name]\n`无色HP之剑`\n[explain]\n`a``b`\n']], encoding: 'cp936' }),
      'cn.pvf',
    );
    const text = archive.readText('stringtable.bin');
    expect(text.isScript).toBe(false);
    const lines = text.text.split('\n');
    expect(lines[0]).toMatch(/^#stringtable\.bin: \d+ strings \(index, text\)$/);
    expect(lines.some((l) => /^\d+\t`无色HP之剑`$/.test(l))).toBe(true);
    // The script's `a``b` is the string a`b, written back with its backtick doubled.
    expect(lines.some((l) => /^\d+\t`a``b`$/.test(l))).toBe(true);
    lines.slice(1).forEach((l, i) => expect(l.startsWith(`${i}\t\``)).toBe(true));
    expect(lines.some((l) => /^\d+\t`\[name\]`$/.test(l))).toBe(true);
    expect(text.text).not.toContain('\u0000');
  });
});
