/**
 * GRPI and the body (pvf-nkpi-format §8): GroupCount × {i32 cum, i32 orig}, decrypted as one block with
 * the GRPI seed; chunk i is body bytes [cum(i-1), cum(i)), decrypted with the body seed restarted per
 * chunk and inflated to exactly orig(i) bytes. Chunks are inflated only when a file in them is read,
 * through a least-recently-used cache bounded in bytes, so a million-file archive is never inflated
 * whole.
 */
import { LCG_MAIN, xorKeystream, type NkpiKeySet } from './keystream.js';
import { bytesText, nkpiError } from './nkpi-error.js';

/** pvfine's bound on one chunk's inflated size (§8). */
const GRPI_MAX_ORIGINAL = 2 ** 30;

export interface GroupIndex {
  count: number;
  /** Cumulative compressed end of each chunk in the body. */
  cum: Int32Array;
  /** Inflated size of each chunk. */
  orig: Int32Array;
}

/** Decrypts and checks GRPI (pvfine's validity test): cum strictly increasing, 0 < orig ≤ 2^30, last cum = BodySize. */
export function parseGroupIndex(stored: Uint8Array, groupCount: number, bodySize: number, keys: NkpiKeySet, label: string): GroupIndex {
  const plain = xorKeystream(Uint8Array.from(stored), keys.grpi, LCG_MAIN);
  const view = new DataView(plain.buffer, plain.byteOffset, plain.byteLength);
  const cum = new Int32Array(groupCount);
  const orig = new Int32Array(groupCount);
  const bad = (problem: string, data: Record<string, unknown>) =>
    nkpiError(label, `the chunk index (GRPI, ${groupCount} entries) does not decrypt to a valid index with the ${keys.name} keys: ${problem}; the archive is damaged or its sections use other keys`, { section: 'GRPI', ...data });
  let previous = 0;
  for (let i = 0; i < groupCount; i++) {
    const c = view.getInt32(8 * i, true);
    const o = view.getInt32(8 * i + 4, true);
    if (c <= previous) throw bad(`entry ${i} ends the chunk at body byte ${c}, not after ${previous}`, { group: i });
    if (o <= 0 || o > GRPI_MAX_ORIGINAL) throw bad(`entry ${i} states an inflated size of ${o} bytes (must be 1..2^30)`, { group: i });
    cum[i] = c;
    orig[i] = o;
    previous = c;
  }
  if (groupCount > 0 && previous !== bodySize) throw bad(`the last chunk ends at body byte ${previous}, but the header says the body has ${bodySize} bytes`, { bodySize });
  return { count: groupCount, cum, orig };
}

export function describeChunkLimit(orig: number, limit: number): string {
  return `states an inflated size of ${orig} bytes (${bytesText(orig)}), over the ${bytesText(limit)} limit for one chunk; it is refused unread (zip-bomb guard)`;
}
