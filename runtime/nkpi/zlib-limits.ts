/**
 * Bounded inflate of one encrypted zlib unit (a pool or a body chunk): decrypt, then inflate with
 * zlib's `maxOutputLength` just above the stated size, so a stream that claims little and expands to
 * gigabytes stops at the stated size + 1 byte instead of growing memory. The stated size itself is
 * checked by the caller against its limit before anything is read.
 */
import { inflateSync } from 'node:zlib';
import type { PvfdocError } from '../errors.js';
import { firstKeyWord, xorKeystream } from './keystream.js';

/**
 * Deflate cannot expand more than about 1032:1 (a 258-byte match per 2-bit code at best); a stated size
 * beyond this many times the compressed size (plus slack for tiny streams) cannot be honest.
 */
const MAX_DEFLATE_RATIO = 1032;

/** Largest output buffer allocated in one piece before inflating (bigger streams grow in pieces). */
const MAX_SINGLE_OUTPUT = 256 * 1024 * 1024;

/** Whether `rawLen` is possible for `compressed` bytes of a zlib stream. */
function plausibleInflatedSize(rawLen: number, compressed: number): boolean {
  return rawLen <= compressed * MAX_DEFLATE_RATIO + 1024;
}

/**
 * Why a unit is refused before it is decrypted or inflated, or null: a stated size deflate cannot
 * reach, or a first byte that does not decrypt to a zlib header. Needs only the first key word, so an
 * open can check a unit it inflates later (the name pools).
 */
export function refusedUnread(stored: Uint8Array, seed: number, m: number, rawLen: number): string | null {
  if (!plausibleInflatedSize(rawLen, stored.length)) {
    return `states ${rawLen} inflated bytes for ${stored.length} compressed bytes, more than deflate can expand (about ${MAX_DEFLATE_RATIO}:1); it is refused unread`;
  }
  // Bytes 0 and 1 are XORed with the low bytes of the first key word, whatever the unit's length.
  const key = firstKeyWord(seed, m);
  const head = Buffer.from(stored.subarray(0, 2).map((b, i) => b ^ ((key >>> (8 * i)) & 0xff)));
  if (head.length < 2 || head[0] !== 0x78) {
    return `does not decrypt to a zlib stream (first bytes ${head.toString('hex') || 'none'}, expected 78 ..): it is damaged or encrypted with other keys`;
  }
  return null;
}

/**
 * Decrypts `encrypted` in place (seed, m) and inflates it to exactly `rawLen` bytes; otherwise throws
 * `fail(problem)` where problem reads after "the <unit> ".
 */
export function inflateLimited(encrypted: Buffer, seed: number, m: number, rawLen: number, fail: (problem: string) => PvfdocError): Buffer {
  const refused = refusedUnread(encrypted, seed, m, rawLen);
  if (refused !== null) throw fail(refused);
  xorKeystream(encrypted, seed, m);
  let out: Buffer;
  try {
    // One output buffer of the stated size (+1 to see a longer stream) instead of 16 KiB pieces joined.
    out = inflateSync(encrypted, { maxOutputLength: Math.max(1, rawLen + 1), chunkSize: Math.max(64, Math.min(rawLen + 1, MAX_SINGLE_OUTPUT)) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw fail(`inflates to more than its stated ${rawLen} bytes (stopped there: a damaged or zip-bomb stream)`);
    }
    throw fail(`does not inflate: ${(error as Error).message} (the stream is damaged or encrypted with other keys)`);
  }
  if (out.length !== rawLen) throw fail(`inflates to ${out.length} bytes, not its stated ${rawLen}`);
  return out;
}
