/**
 * The name table and its two string pools (pvf-nkpi-format §7): an 8-byte prefix (kept, never
 * interpreted), then sTrA and sTrW, each framed as `u32 encSize ^ mask`, `u32 rawLen ^ encSize`, then
 * encSize bytes decrypted with the pool seed (M = ALT) and zlib-inflated to exactly rawLen bytes.
 *
 * Parsing checks everything that needs no inflating (frames, the pools' bounds, deflate's ratio, the
 * zlib header byte) and leaves the inflating to `inflate()`: a million-file archive has 25 MB of names,
 * and inflating them would cost an open several times its file-table read. Offsets are checked against
 * the stated sizes (`offsetInPools`), which `inflate()` then holds the pools to exactly.
 *
 * Magic offsets (§7.3): even `v` = sTrA byte `v>>1` up to the next NUL (non-fatal UTF-8); odd `v` = sTrW
 * code unit `v>>1` up to the next 0x0000 unit (UTF-16LE). A negative offset is "" (a deliberate "no
 * string"); a non-negative one past the end of its pool is out of range, and callers turn that into an
 * error naming the file and token.
 */
import { LCG_ALT, type NkpiKeySet } from './keystream.js';
import { bytesText, nkpiError } from './nkpi-error.js';
import { inflateLimited, refusedUnread } from './zlib-limits.js';

/** Bytes before the two pool frames (unknown meaning; copied by writers). */
export const NAME_TABLE_PREFIX_BYTES = 8;

/** Largest inflated pool accepted by default (110US's sTrW is about 401 MB). */
export const DEFAULT_MAX_POOL_BYTES = 1024 * 1024 * 1024;

interface PoolLimits {
  /** Largest rawLen accepted for one pool, and for both pools together (zip-bomb guard). */
  maxPoolBytes: number;
  /** Why that limit, for the message (e.g. "32 × the 1 MiB archive"); default: the absolute limit. */
  reason?: string;
}

/** Name pools hold names, which are a small part of an archive: 32× its size is far above any real one. */
const MAX_POOL_ARCHIVE_RATIO = 32;
/** Below this, the archive-size bound does not apply (tiny test archives). */
const MIN_POOL_BOUND = 16 * 1024 * 1024;

/**
 * The pool limit for an archive of `archiveBytes`: the absolute limit, and at most 32× the archive's
 * size. Deflate's 1032:1 ceiling alone lets a 1 MB archive of zero-filled pools claim 2 GB.
 */
export function poolLimitsFor(archiveBytes: number, absolute = DEFAULT_MAX_POOL_BYTES): PoolLimits {
  const bySize = Math.max(MIN_POOL_BOUND, MAX_POOL_ARCHIVE_RATIO * archiveBytes);
  return bySize < absolute ? { maxPoolBytes: bySize, reason: `for a ${bytesText(archiveBytes)} archive: ${MAX_POOL_ARCHIVE_RATIO} × its size, at least ${bytesText(MIN_POOL_BOUND)}` } : { maxPoolBytes: absolute };
}

const EMPTY = Buffer.alloc(0);
const ZERO_UNIT = Buffer.from([0, 0]);

/** Inflated bytes of sTrA and sTrW (as stated before inflating; exact after). */
export interface PoolSizes {
  a: number;
  w: number;
}

/** Whether a magic offset names a string: negative ("") or inside its pool. */
export function offsetInPools(offset: number, sizes: PoolSizes): boolean {
  if (offset < 0) return true;
  return (offset & 1) === 0 ? offset >>> 1 < sizes.a : (offset >>> 1) * 2 + 2 <= sizes.w;
}

/** Where an offset points, for messages ("sTrA byte 17 of 34"). */
export function describeOffset(offset: number, sizes: PoolSizes): string {
  if (offset < 0) return `offset ${offset} (negative: the empty string)`;
  return (offset & 1) === 0
    ? `offset ${offset}: sTrA byte ${offset >>> 1}, past the end of the ${sizes.a}-byte sTrA pool`
    : `offset ${offset}: sTrW code unit ${offset >>> 1}, past the end of the ${sizes.w >>> 1}-unit sTrW pool`;
}

export class StringPools {
  constructor(
    /** sTrA, inflated. */
    readonly a: Buffer,
    /** sTrW, inflated. */
    readonly w: Buffer,
  ) {}

  /** The string at a magic offset; "" for a negative offset; null when past the end of its pool. */
  stringAt(offset: number): string | null {
    if (offset < 0) return '';
    if ((offset & 1) === 0) {
      const start = offset >>> 1;
      if (start >= this.a.length) return null;
      let end = this.a.indexOf(0, start);
      if (end < 0) end = this.a.length;
      return this.asciiOrUtf8(start, end);
    }
    const start = (offset >>> 1) * 2;
    if (start + 2 > this.w.length) return null;
    let end = start;
    for (;;) {
      end = this.w.indexOf(ZERO_UNIT, end);
      if (end < 0) {
        end = this.w.length - (this.w.length & 1);
        break;
      }
      if (((end - start) & 1) === 0) break;
      end++;
    }
    return this.w.toString('utf16le', start, end);
  }

  /** Where an offset points, for messages ("sTrA byte 17 of 34"). */
  describe(offset: number): string {
    return describeOffset(offset, { a: this.a.length, w: this.w.length });
  }

  private asciiOrUtf8(start: number, end: number): string {
    for (let i = start; i < end; i++) if ((this.a[i] as number) >= 0x80) return this.a.toString('utf8', start, end);
    return this.a.toString('latin1', start, end);
  }
}

interface NameTable {
  prefix: Uint8Array;
  /** What the pools state they inflate to (within the limits; `inflate()` holds them to it). */
  sizes: PoolSizes;
  /** Bytes after the sTrW frame inside NameTableSize (0 in every known archive). */
  trailing: number;
  /** Decrypts and inflates both pools: INVALID_ARCHIVE when one does not inflate to its stated size. */
  inflate(): StringPools;
}

/**
 * Parses the name table (`bytes` = NameTableSize stored bytes, read at its offset; kept, unchanged,
 * until `inflate()`). Throws INVALID_ARCHIVE for all that can be seen without inflating.
 */
export function parseNameTable(bytes: Uint8Array, keys: NkpiKeySet, label: string, limits: PoolLimits): NameTable {
  if (bytes.length < NAME_TABLE_PREFIX_BYTES + 16) {
    throw nkpiError(label, `the name table is ${bytes.length} bytes, too short for its ${NAME_TABLE_PREFIX_BYTES}-byte prefix and the two 8-byte pool headers`, { nameTableSize: bytes.length });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = NAME_TABLE_PREFIX_BYTES;
  interface PoolFrame {
    name: 'sTrA' | 'sTrW';
    seed: number;
    encSize: number;
    rawLen: number;
    start: number;
  }
  // Both headers first: what the two pools claim together is checked before either is inflated.
  const frame = (name: 'sTrA' | 'sTrW', seed: number, mask: number): PoolFrame => {
    if (at + 8 > bytes.length) throw nkpiError(label, `the name table ends before the ${name} pool header (at name-table byte ${at} of ${bytes.length})`, { pool: name });
    const encSize = (view.getUint32(at, true) ^ mask) >>> 0;
    const rawLen = (view.getUint32(at + 4, true) ^ encSize) >>> 0;
    at += 8;
    if (encSize > bytes.length - at) {
      throw nkpiError(label, `the ${name} pool header declares ${encSize} compressed bytes, but only ${bytes.length - at} bytes of the name table remain (a corrupt header or other keys: mask ${hexMask(mask)})`, { pool: name, encSize });
    }
    const start = at;
    at += encSize;
    return { name, seed, encSize, rawLen, start };
  };
  const frames = [frame('sTrA', keys.strA, keys.maskA), frame('sTrW', keys.strW, keys.maskW)];
  let claimed = 0;
  for (const { name, rawLen } of frames) {
    claimed += rawLen;
    if (claimed > limits.maxPoolBytes) {
      const what = claimed === rawLen ? `${rawLen} inflated bytes (${bytesText(rawLen)}),` : `${rawLen} inflated bytes, ${bytesText(claimed)} with the other pool,`;
      const limit = limits.reason ? `${bytesText(limits.maxPoolBytes)} limit (${limits.reason})` : `${bytesText(limits.maxPoolBytes)} limit`;
      throw nkpiError(label, `the ${name} pool declares ${what} over the ${limit}; it is refused unread (zip-bomb guard)`, { pool: name, rawLen, limit: limits.maxPoolBytes });
    }
  }
  const fail = ({ name, encSize, rawLen }: PoolFrame, problem: string) => nkpiError(label, `the ${name} pool ${problem} (key ${keys.name})`, { pool: name, rawLen, encSize });
  const empty = ({ encSize, rawLen }: PoolFrame) => encSize === 0 && rawLen === 0;
  for (const f of frames) {
    const refused = empty(f) ? null : refusedUnread(bytes.subarray(f.start, f.start + f.encSize), f.seed, LCG_ALT, f.rawLen);
    if (refused !== null) throw fail(f, refused);
  }
  const inflate = (f: PoolFrame): Buffer => {
    if (empty(f)) return EMPTY;
    const encrypted = Buffer.from(bytes.subarray(f.start, f.start + f.encSize));
    return inflateLimited(encrypted, f.seed, LCG_ALT, f.rawLen, (problem) => fail(f, problem));
  };
  const [a, w] = frames as [PoolFrame, PoolFrame];
  return {
    prefix: Uint8Array.from(bytes.subarray(0, NAME_TABLE_PREFIX_BYTES)),
    sizes: { a: a.rawLen, w: w.rawLen },
    trailing: bytes.length - at,
    inflate: () => new StringPools(inflate(a), inflate(w)),
  };
}

function hexMask(mask: number): string {
  return `0x${(mask >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}
