/**
 * The `.str` index against what it replaced (parseStrTable over the decoded file) on hostile bytes,
 * and the premise it rests on: in cp936, cp949 and cp950 a first byte followed by `\n`, `\r`, `>`, `/`,
 * space or tab decodes to U+FFFD and that character, so those bytes split the file as its text splits.
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { parseStrTable } from '../../../runtime/classic/string-links.js';
import { openStrTable } from '../../../runtime/classic/str-table.js';
import { decodeTextFile, encodeText } from '../../../runtime/classic/text-encoding.js';
import { seededRandom } from '../../support/random.js';

const SEPARATORS = [0x0a, 0x0d, 0x3e, 0x2f, 0x20, 0x09];
const ENCODINGS = ['cp936', 'cp949', 'cp950', 'utf-8', 'cp1252'];
const WORDS: Record<string, string[]> = {
  cp936: ['攻击力', '强化', '装备名称'],
  cp949: ['공격력', '강화', '무기'],
  cp950: ['攻擊力', '強化', '裝備'],
  'utf-8': ['攻击力', '공격력', 'é'],
  cp1252: ['café', 'naïve', '€'],
};

describe('the premise: separators are never a second byte', () => {
  it.each(['cp936', 'cp949', 'cp950'])('%s: every first byte before a separator gives U+FFFD and the separator', (encoding) => {
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (const sep of SEPARATORS) {
        const text = iconv.decode(Buffer.from([lead, sep, 0x41]), encoding);
        expect(text.endsWith(`${String.fromCharCode(sep)}A`), `${encoding} ${lead.toString(16)} ${sep.toString(16)}`).toBe(true);
      }
    }
  });
});

function randomLine(rng: () => number, encoding: string, keys: string[]): number[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
  const encode = (s: string) => [...encodeText(s, encoding === 'cp1252' ? 'cp1252' : encoding)];
  const r = rng();
  const bytes: number[] = [];
  const piece = (): number[] => {
    const k = rng();
    if (k < 0.3) return encode(pick(WORDS[encoding] as string[]));
    if (k < 0.5) return [0x81 + Math.floor(rng() * 0x7e)];
    if (k < 0.65) return [pick(SEPARATORS.filter((s) => s !== 0x0a))];
    if (k < 0.8) return Array.from({ length: 1 + Math.floor(rng() * 4) }, () => Math.floor(rng() * 256)).filter((b) => b !== 0x0a);
    return encode(`v${Math.floor(rng() * 100)}`);
  };
  if (r < 0.1) bytes.push(0x2f, 0x2f);
  else if (r < 0.15) bytes.push(0x3e);
  const key = rng() < 0.5 && keys.length > 0 && rng() < 0.3 ? pick(keys) : rng() < 0.7 ? `name_${Math.floor(rng() * 50)}` : `${pick(WORDS[encoding] as string[])}${Math.floor(rng() * 5)}`;
  if (rng() < 0.2) bytes.push(0x20, 0x09);
  bytes.push(...encode(key));
  keys.push(key);
  if (rng() < 0.2) bytes.push(0x09);
  if (rng() < 0.1) bytes.push(0x81 + Math.floor(rng() * 0x7e));
  if (rng() < 0.9) bytes.push(0x3e);
  for (let p = Math.floor(rng() * 5); p > 0; p--) bytes.push(...piece());
  if (rng() < 0.15) bytes.push(0x81 + Math.floor(rng() * 0x7e));
  if (rng() < 0.4) bytes.push(0x0d);
  return bytes;
}

describe('the .str index', () => {
  it('gives parseStrTable’s keys and texts on 1 500 random hostile files in five encodings', () => {
    const rng = seededRandom(20261201);
    let indexed = 0;
    for (let round = 0; round < 1500; round++) {
      const encoding = ENCODINGS[round % ENCODINGS.length] as string;
      const keys: string[] = [];
      const bytes: number[] = [];
      const bom = rng();
      if (bom < 0.05) bytes.push(0xef, 0xbb, 0xbf);
      else if (bom < 0.07) bytes.push(0xff, 0xfe);
      const lines = Math.floor(rng() * 40);
      for (let l = 0; l < lines; l++) {
        bytes.push(...randomLine(rng, encoding, keys));
        if (l < lines - 1 || rng() < 0.5) bytes.push(0x0a);
      }
      const file = Uint8Array.from(bytes);
      const expected = parseStrTable(decodeTextFile(file, encoding).text);
      const table = openStrTable(file, encoding);
      if (encoding !== 'cp1252' && bom >= 0.07) indexed++;
      expect([...table.keys()]).toEqual([...expected.keys()]);
      for (const [key, text] of expected) expect(table.get(key), `${encoding} ${JSON.stringify(key)}`).toBe(text);
      for (const probe of [...keys, 'name_999', '', ' ', '攻击力9']) expect(table.get(probe)).toBe(expected.get(probe));
    }
    expect(indexed).toBeGreaterThan(1000);
  });

  it('reads a real-looking table: first line of a key wins, comments and lines without a key skipped, CRLF', () => {
    const file = encodeText('// comment>no\r\nname_1>长剑\r\nname_2>巨剑>重\r\n>orphan\r\n  name_1  >短剑\r\nname_3>\r\nnokey\r\n', 'cp936');
    const table = openStrTable(file, 'cp936');
    expect(table.get('name_1')).toBe('长剑');
    expect(table.get('name_2')).toBe('巨剑>重');
    expect(table.get('name_3')).toBe('');
    expect(table.get('// comment')).toBeUndefined();
    expect([...table.keys()]).toEqual(['name_1', 'name_2', 'name_3']);
  });
});
