/**
 * The 48-byte nkpi header (pvf-nkpi-format §4) and the detection order of §3.1: standard keys (M = MAIN
 * then ALT, guard on then off; declared size ≤ file size), then alternate keys (guard on then off;
 * declared size = file size). Paged110 headers are only reachable after the page guards are unlocked
 * (§14); `probeNkpiHeader` tries them when asked to.
 */
import { hex32 } from '../script/archive-error.js';
import { ALTERNATE_KEYS, firstKeyWord, LCG_ALT, LCG_MAIN, PAGED110_KEYS, STANDARD_KEYS, xorKeystream, type NkpiKeySet } from './keystream.js';

export const NKPI_HEADER_BYTES = 48;
/** `nkpi` as a little-endian u32. */
export const NKPI_SIGNATURE = 0x69706b6e;
/** XORed onto the 4 stored bytes 24..27 (the FileCount field) by guarded archives. */
export const GUARD_BYTE = 0x55;

/** Which key set and guard an archive uses (pvfine variant ids; `-guard` = the 0x55 guard on FileCount). */
export type NkpiVariant = 'standard' | 'standard-guard' | 'alternate' | 'alternate-guard' | 'paged110';

/** The client version each variant reveals (§3.2). */
export function clientVersionOf(variant: NkpiVariant): '90US' | '90CN' | '110US' {
  if (variant.startsWith('standard')) return '90US';
  if (variant.startsWith('alternate')) return '90CN';
  return '110US';
}

export interface NkpiHeader {
  /** Bytes 4..23, opaque ("Guid"); zero in pvfine's archives, non-zero in retail CN ones. */
  guid: Uint8Array;
  fileCount: number;
  /** Bytes 28..31, meaning unknown ("Padding"). */
  padding: number;
  bodySize: number;
  groupCount: number;
  hashTableSize: number;
  nameTableSize: number;
  /** 48 + 24·FileCount + HashTableSize + NameTableSize + 8·GroupCount + BodySize. */
  declaredSize: number;
}

export interface HeaderProbe {
  variant: NkpiVariant;
  keys: NkpiKeySet;
  guard: boolean;
  /** LCG increment the header decrypted with (standard archives may use ALT). */
  headerM: number;
  header: NkpiHeader;
}

type HeaderProbeResult =
  | { ok: HeaderProbe }
  /** The signature decrypted with these keys, but the sizes do not fit: a corrupt header. */
  | { ok: null; keys: NkpiKeySet; problem: string }
  /** No known key turns the first word into `nkpi`. */
  | { ok: null; keys: null; problem: string };

/** Decrypts a header copy: guard removed (when `guard`), then XORed with the header keystream. */
export function decryptHeader(stored: Uint8Array, seed: number, m: number, guard: boolean): Uint8Array {
  const plain = Uint8Array.from(stored.subarray(0, NKPI_HEADER_BYTES));
  if (guard) for (let i = 24; i < 28; i++) plain[i] = (plain[i] as number) ^ GUARD_BYTE;
  return xorKeystream(plain, seed, m);
}

/** The fields of a decrypted header. */
export function parseHeaderFields(plain: Uint8Array): NkpiHeader {
  const view = new DataView(plain.buffer, plain.byteOffset, plain.byteLength);
  const fileCount = view.getInt32(24, true);
  const padding = view.getInt32(28, true);
  const bodySize = view.getInt32(32, true);
  const groupCount = view.getInt32(36, true);
  const hashTableSize = view.getInt32(40, true);
  const nameTableSize = view.getInt32(44, true);
  return {
    guid: plain.slice(4, 24),
    fileCount,
    padding,
    bodySize,
    groupCount,
    hashTableSize,
    nameTableSize,
    declaredSize: NKPI_HEADER_BYTES + 24 * fileCount + hashTableSize + nameTableSize + 8 * groupCount + bodySize,
  };
}

function signatureOf(plain: Uint8Array): number {
  return ((plain[0] as number) | ((plain[1] as number) << 8) | ((plain[2] as number) << 16) | ((plain[3] as number) << 24)) >>> 0;
}

const FIELDS = ['fileCount', 'padding', 'bodySize', 'groupCount', 'hashTableSize', 'nameTableSize'] as const;

/** Why a decrypted header does not fit the file, or null when it does. */
function sizeProblem(h: NkpiHeader, fileSize: number, exact: boolean, positive: boolean): string | null {
  for (const field of FIELDS) {
    const value = h[field];
    if (value < 0 || (positive && value === 0 && field !== 'padding')) return `header field ${field} is ${value}${positive ? ', not positive' : ', negative'}`;
  }
  const sum = `48 + 24·${h.fileCount} files + ${h.hashTableSize} (HASH) + ${h.nameTableSize} (names) + 8·${h.groupCount} groups + ${h.bodySize} (body) = ${h.declaredSize} bytes`;
  if (exact ? h.declaredSize !== fileSize : h.declaredSize > fileSize) return `the header declares ${sum}, but the file has ${fileSize} bytes`;
  if (h.groupCount === 0 && (h.fileCount !== 0 || h.bodySize !== 0)) return `the header declares ${h.fileCount} files and a ${h.bodySize}-byte body in 0 chunk groups`;
  return null;
}

interface Attempt {
  keys: NkpiKeySet;
  variant: NkpiVariant;
  m: number;
  guard: boolean;
  exact: boolean;
  positive: boolean;
}

const STANDARD_ATTEMPTS: Attempt[] = [
  { keys: STANDARD_KEYS, variant: 'standard-guard', m: LCG_MAIN, guard: true, exact: false, positive: false },
  { keys: STANDARD_KEYS, variant: 'standard', m: LCG_MAIN, guard: false, exact: false, positive: false },
  { keys: STANDARD_KEYS, variant: 'standard-guard', m: LCG_ALT, guard: true, exact: false, positive: false },
  { keys: STANDARD_KEYS, variant: 'standard', m: LCG_ALT, guard: false, exact: false, positive: false },
];
const ALTERNATE_ATTEMPTS: Attempt[] = [
  { keys: ALTERNATE_KEYS, variant: 'alternate-guard', m: LCG_MAIN, guard: true, exact: true, positive: false },
  { keys: ALTERNATE_KEYS, variant: 'alternate', m: LCG_MAIN, guard: false, exact: true, positive: false },
];
const PAGED_ATTEMPTS: Attempt[] = [{ keys: PAGED110_KEYS, variant: 'paged110', m: LCG_MAIN, guard: false, exact: true, positive: true }];

/**
 * Finds the key set and guard of a header (`start` = at least the first 48 bytes, `fileSize` the whole
 * file). `paged` tries only the Paged110 keys (a logical archive whose page guards were unlocked).
 */
export function probeNkpiHeader(start: Uint8Array, fileSize: number, options: { paged?: boolean } = {}): HeaderProbeResult {
  if (start.length < NKPI_HEADER_BYTES || fileSize < NKPI_HEADER_BYTES) {
    return { ok: null, keys: null, problem: `the file is ${fileSize} bytes long, shorter than the ${NKPI_HEADER_BYTES}-byte nkpi header` };
  }
  const attempts = options.paged ? PAGED_ATTEMPTS : [...STANDARD_ATTEMPTS, ...ALTERNATE_ATTEMPTS];
  const word = signatureOf(start);
  let firstProblem: { keys: NkpiKeySet; problem: string } | null = null;
  for (const attempt of attempts) {
    if (((word ^ firstKeyWord(attempt.keys.header, attempt.m)) >>> 0) !== NKPI_SIGNATURE) continue;
    const plain = decryptHeader(start, attempt.keys.header, attempt.m, attempt.guard);
    const header = parseHeaderFields(plain);
    const problem = sizeProblem(header, fileSize, attempt.exact, attempt.positive);
    if (problem === null) return { ok: { variant: attempt.variant, keys: attempt.keys, guard: attempt.guard, headerM: attempt.m, header } };
    // Report the unguarded reading: a wrong guard guess only garbles FileCount further.
    if (!attempt.guard || firstProblem === null) firstProblem = { keys: attempt.keys, problem };
  }
  if (firstProblem) return { ok: null, keys: firstProblem.keys, problem: `corrupt header: it decrypts to the nkpi signature with the ${firstProblem.keys.name} keys, but ${firstProblem.problem}` };
  const names = options.paged ? 'the Paged110 key (iNfO)' : 'the standard (HeaD) or alternate (hEAd) keys';
  return { ok: null, keys: null, problem: `not an nkpi archive: its first 4 bytes (${hex32(word)}) do not decrypt to the nkpi signature with ${names}` };
}
