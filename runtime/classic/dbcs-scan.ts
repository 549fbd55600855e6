/**
 * How many strings of a NUL-joined sample a double-byte code page (cp950, cp936, cp949) fails to
 * decode, read off the tables of dbcs-validity-data.ts at one lookup per byte: the count iconv-lite's
 * decode gives (strings holding U+FFFD), without decoding. Encoding detection runs it for its three
 * double-byte candidates, so an open builds no iconv-lite codec and makes no strings for the
 * candidates it rejects. scripts/dbcs-validity.ts checks what the tables assume (ASCII below 0x80,
 * characters of one or two bytes); test/runtime/classic/dbcs-validity.test.ts compares the count with
 * iconv-lite's on random samples.
 */
import { DBCS_VALIDITY } from './dbcs-validity-data.js';

export interface DbcsValidity {
  /** Bit b − 0x80: byte b decodes alone. */
  single: Uint8Array;
  /** Bit (L − 0x80) · 256 + t: the pair L t decodes. */
  pairs: Uint8Array;
}

/** The tables of a double-byte candidate, or null for any other encoding. */
export function dbcsValidity(encoding: string): DbcsValidity | null {
  const data = Object.hasOwn(DBCS_VALIDITY, encoding) ? DBCS_VALIDITY[encoding] : undefined;
  if (data === undefined) return null;
  return { single: new Uint8Array(Buffer.from(data.single, 'base64')), pairs: new Uint8Array(Buffer.from(data.pairs, 'base64')) };
}

/**
 * Strings of bytes [from, to) that fail, each string ended by a NUL (`to` just after one). A string
 * fails at its first byte ≥ 0x80 that is neither a character alone nor the start of a valid pair,
 * which is where iconv-lite's decode would write U+FFFD (a lead byte before the NUL included).
 */
export function failingStrings(bytes: Uint8Array, from: number, to: number, tables: DbcsValidity): number {
  const { single, pairs } = tables;
  let failed = 0;
  let i = from;
  while (i < to) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const s = b - 0x80;
    if ((((single[s >> 3] as number) >> (s & 7)) & 1) === 1) {
      i++;
      continue;
    }
    const p = (s << 8) | (i + 1 < to ? (bytes[i + 1] as number) : 0);
    if ((((pairs[p >> 3] as number) >> (p & 7)) & 1) === 1) {
      i += 2;
      continue;
    }
    failed++;
    i++;
    while (i < to && bytes[i] !== 0) i++;
    i++;
  }
  return failed;
}
