/**
 * The byte and pair tables of the double-byte detection candidates (runtime/classic/dbcs-validity-data.ts,
 * written by scripts/dbcs-validity.ts from iconv-lite) and the count read off them (dbcs-scan.ts):
 * the tracked file is what the generator makes from the installed iconv-lite, and on random samples
 * the count equals the strings iconv-lite's decode gives a U+FFFD.
 */
import iconv from 'iconv-lite';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { dbcsValidity, failingStrings } from '../../../runtime/classic/dbcs-scan.js';
import { DBCS_CANDIDATES, dbcsValiditySource } from '../../../scripts/dbcs-validity.js';
import { seededRandom } from '../../support/random.js';

const DATA_FILE = new URL('../../../runtime/classic/dbcs-validity-data.ts', import.meta.url);

/** Strings of a NUL-joined decode holding U+FFFD (what detection counted before the tables). */
function failingByDecode(joined: Uint8Array, encoding: string): number {
  return iconv
    .decode(Buffer.from(joined), encoding, { stripBOM: false })
    .split('\u0000')
    .filter((s) => s.includes('\uFFFD')).length;
}

/** Random strings biased to the bytes that matter: lead and trail ranges, 0x80, 0xFF, ASCII, a lead last. */
function randomSample(random: () => number, count: number): Uint8Array {
  const bytes: number[] = [];
  const pick = (): number => {
    const r = random();
    if (r < 0.15) return 0x20 + Math.floor(random() * 0x5f);
    if (r < 0.2) return [0x80, 0xff, 0xa0, 0xfe, 0x40, 0x7f, 0x5c][Math.floor(random() * 7)] as number;
    return 0x81 + Math.floor(random() * 0x7e);
  };
  for (let s = 0; s < count; s++) {
    const length = 1 + Math.floor(random() * 12);
    for (let k = 0; k < length; k++) bytes.push(pick());
    bytes.push(0);
  }
  return Uint8Array.from(bytes);
}

describe('double-byte validity tables', () => {
  it('the tracked data file is what scripts/dbcs-validity.ts makes from the installed iconv-lite', async () => {
    const tracked = await readFile(DATA_FILE, 'utf8').catch(() => '(missing)');
    expect(tracked, 'runtime/classic/dbcs-validity-data.ts is stale: run npm run codec-tables').toBe(dbcsValiditySource());
  });

  it('has tables for the three double-byte candidates only', () => {
    for (const encoding of DBCS_CANDIDATES) expect(dbcsValidity(encoding), encoding).not.toBeNull();
    for (const encoding of ['utf-8', 'shift_jis', 'gbk', 'gb18030', 'big5', 'constructor', 'toString']) expect(dbcsValidity(encoding), encoding).toBeNull();
  });

  it('counts the strings iconv-lite fails on, on random samples, over any whole-string range', () => {
    const random = seededRandom(0xdbc5);
    for (const encoding of DBCS_CANDIDATES) {
      const tables = dbcsValidity(encoding);
      if (tables === null) throw new Error(`no tables for ${encoding}`);
      let failing = 0;
      let passing = 0;
      for (let round = 0; round < 60; round++) {
        const joined = randomSample(random, 200);
        const expected = failingByDecode(joined, encoding);
        expect(failingStrings(joined, 0, joined.length, tables), `${encoding} round ${round}`).toBe(expected);
        failing += expected;
        passing += 200 - expected;
        // Split after a NUL: the two parts' counts add up.
        const cut = joined.indexOf(0, Math.floor(random() * joined.length)) + 1;
        expect(failingStrings(joined, 0, cut, tables) + failingStrings(joined, cut, joined.length, tables)).toBe(expected);
      }
      // The samples exercise both outcomes.
      expect(failing, encoding).toBeGreaterThan(500);
      expect(passing, encoding).toBeGreaterThan(500);
    }
  });

  it('agrees with iconv-lite on every single byte and every pair, each as a string of its own', () => {
    for (const encoding of DBCS_CANDIDATES) {
      const tables = dbcsValidity(encoding);
      if (tables === null) throw new Error(`no tables for ${encoding}`);
      const joined: number[] = [];
      for (let a = 0x80; a <= 0xff; a++) {
        joined.push(a, 0);
        for (let b = 1; b <= 0xff; b++) joined.push(a, b, 0);
      }
      const bytes = Uint8Array.from(joined);
      expect(failingStrings(bytes, 0, bytes.length, tables), encoding).toBe(failingByDecode(bytes, encoding));
    }
  });
});
