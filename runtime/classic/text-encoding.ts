/**
 * Text encodings of a classic archive (pvf-classic-format §6.2, §6.3). Strings of `stringtable.bin`,
 * `.str` tables and other text files use one code page; names are always CP949 (names.ts).
 *
 * Detection (§6.3 recommendation): decode a sample of the non-ASCII strings of `stringtable.bin` with
 * each candidate (cp950, cp936, cp949, utf-8) and count the strings that fail to decode strictly; the
 * fewest failures wins. GBK accepts almost any byte pair (so Korean and Big5 text often decode "cleanly"
 * as cp936), so a tie is broken by the share of common characters of each candidate's language in its
 * decoding (common-characters.ts; a wrong decoding is a scatter of rare characters), a candidate needing
 * a clear margin (5 points) over an earlier one; remaining ties go to the earlier candidate (cp950
 * first). No non-ASCII string at all gives cp950, the pvfUtility default. A given encoding always wins.
 */
import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { PvfdocError } from '../errors.js';
import { COMMON_CHARACTERS, commonShare } from './common-characters.js';

const ENCODING_CANDIDATES = ['cp950', 'cp936', 'cp949', 'utf-8'] as const;

/** Candidates that read every byte below 0x80 as ASCII (so a NUL-joined sample decodes string by string). */
const DOUBLE_BYTE_CANDIDATES: ReadonlySet<string> = new Set(['cp950', 'cp936', 'cp949']);

/** pvfUtility's default ("TW", code page 950; iconv-lite `cp950`, not `big5`). */
const DEFAULT_ENCODING = 'cp950';

/** Strings sampled for detection, at most. */
const SAMPLE_STRINGS = 20_000;
/** Bytes sampled for detection, at most. */
const SAMPLE_BYTES = 512 * 1024;

/**
 * The canonical name of an encoding the user gave (`UTF8` → `utf-8`, `CP950` → `cp950`); INVALID_ARGUMENT
 * when iconv-lite does not know it.
 */
export function normalizeEncodingName(name: string): string {
  const lower = name.trim().toLowerCase();
  if (lower === 'utf8' || lower === 'utf-8') return 'utf-8';
  if (lower === '' || !iconv.encodingExists(lower)) {
    throw new PvfdocError('INVALID_ARGUMENT', `unknown text encoding ${JSON.stringify(name)}`, {
      hint: `Use one of ${ENCODING_CANDIDATES.join(', ')} (or another encoding iconv-lite knows, e.g. gbk, big5, shift_jis).`,
      data: { encoding: name },
    });
  }
  return lower;
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const utf8Lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Decodes bytes leniently (invalid sequences become U+FFFD). */
export function decodeText(bytes: Uint8Array, encoding: string): string {
  if (encoding === 'utf-8') return utf8Lenient.decode(bytes);
  return iconv.decode(toBuffer(bytes), encoding, { stripBOM: false });
}

/**
 * Decodes a whole text file: a UTF-8 or UTF-16 byte-order mark decides over `encoding` (and is
 * dropped); otherwise `encoding`, leniently.
 */
export function decodeTextFile(bytes: Uint8Array, encoding: string): { text: string; bom: string | null } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: utf8Lenient.decode(bytes.subarray(3)), bom: 'utf-8' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: iconv.decode(toBuffer(bytes.subarray(2)), 'utf-16le'), bom: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: iconv.decode(toBuffer(bytes.subarray(2)), 'utf-16be'), bom: 'utf-16be' };
  return { text: decodeText(bytes, encoding), bom: null };
}

/** Encodes text with an encoding (used by tools and tests that write archives). */
export function encodeText(text: string, encoding: string): Uint8Array {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  return iconv.encode(text, encoding);
}

/** Whether bytes decode without error in an encoding (one string at a time: any iconv-lite encoding). */
function decodesStrictly(bytes: Uint8Array, encoding: string): boolean {
  if (encoding === 'utf-8') return isUtf8(bytes);
  return !iconv.decode(toBuffer(bytes), encoding).includes('\uFFFD');
}

/**
 * The sample strings joined for one decode per candidate, each followed by a NUL. The double-byte
 * candidates read bytes below 0x80 as ASCII whatever precedes them (a lead byte before a NUL decodes
 * as U+FFFD, as it does at the end of a string), so a decode of the whole sample splits at the NULs
 * into the decodes of the strings. Strings holding a NUL themselves are decoded on their own.
 */
interface JoinedSample {
  bytes: Buffer;
  /** Strings in `bytes`. */
  count: number;
  /** Strings left out of `bytes` (they contain a NUL). */
  apart: Uint8Array[];
}

function joinSample(sample: readonly Uint8Array[]): JoinedSample {
  const joined: Uint8Array[] = [];
  const apart: Uint8Array[] = [];
  const nul = new Uint8Array(1);
  for (const s of sample) {
    if (s.includes(0)) apart.push(s);
    else joined.push(s, nul);
  }
  return { bytes: Buffer.concat(joined), count: joined.length / 2, apart };
}

/** Segments (strings) of a NUL-joined decode holding a U+FFFD. */
function failedSegments(text: string): number {
  let failed = 0;
  let bad = text.indexOf('\uFFFD');
  while (bad >= 0) {
    failed++;
    const end = text.indexOf('\u0000', bad);
    if (end < 0) break;
    bad = text.indexOf('\uFFFD', end);
  }
  return failed;
}

/** Per candidate: strings of the sample that fail to decode, and the decoding (for the tie-breaker, made on demand). */
interface CandidateResult {
  failed: number;
  text: () => string;
}

function tryCandidate(sample: readonly Uint8Array[], joined: JoinedSample, encoding: string): CandidateResult {
  if (encoding === 'utf-8') {
    let failed = 0;
    for (const s of sample) if (!isUtf8(s)) failed++;
    return { failed, text: () => utf8Lenient.decode(joined.bytes) + joined.apart.map((s) => utf8Lenient.decode(s)).join('') };
  }
  if (!DOUBLE_BYTE_CANDIDATES.has(encoding)) {
    let failed = 0;
    for (const s of sample) if (!decodesStrictly(s, encoding)) failed++;
    return { failed, text: () => sample.map((s) => decodeText(s, encoding)).join('') };
  }
  const decoded = iconv.decode(joined.bytes, encoding, { stripBOM: false });
  let failed = failedSegments(decoded);
  for (const s of joined.apart) if (!decodesStrictly(s, encoding)) failed++;
  return { failed, text: () => decoded + joined.apart.map((s) => decodeText(s, encoding)).join('') };
}

export interface EncodingDetection {
  /** The chosen encoding. */
  encoding: string;
  /** `given` (the caller's), `detected` (from the sample) or `default` (nothing to decide on). */
  source: 'given' | 'detected' | 'default';
  /** Non-ASCII strings sampled. */
  sampled: number;
  /** Strings of the sample each candidate (and a given encoding) fails to decode. */
  failures: Record<string, number>;
}

/** Whether a byte string is pure ASCII (every candidate decodes it the same). */
function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] as number) >= 0x80) return false;
  return true;
}

/**
 * Chooses the text encoding from sample strings (raw bytes of `stringtable.bin` entries, in order).
 * With `given`, that encoding is used and the counts only inform (a wrong override shows as failures).
 */
export function detectEncoding(strings: Iterable<Uint8Array>, given?: string): EncodingDetection {
  const sample: Uint8Array[] = [];
  let bytes = 0;
  for (const s of strings) {
    if (sample.length >= SAMPLE_STRINGS || bytes >= SAMPLE_BYTES) break;
    if (isAscii(s)) continue;
    sample.push(s);
    bytes += s.length;
  }
  const candidates: string[] = [...ENCODING_CANDIDATES];
  if (given !== undefined && !candidates.includes(given)) candidates.push(given);
  const joined = joinSample(sample);
  const results = new Map<string, CandidateResult>();
  const failures: Record<string, number> = {};
  for (const encoding of candidates) {
    const result = tryCandidate(sample, joined, encoding);
    results.set(encoding, result);
    failures[encoding] = result.failed;
  }
  if (given !== undefined) return { encoding: given, source: 'given', sampled: sample.length, failures };
  if (sample.length === 0) return { encoding: DEFAULT_ENCODING, source: 'default', sampled: 0, failures };
  const fewest = Math.min(...ENCODING_CANDIDATES.map((encoding) => failures[encoding] as number));
  const tied = ENCODING_CANDIDATES.filter((encoding) => failures[encoding] === fewest);
  let best: string = tied[0] as string;
  if (tied.length > 1) {
    // Tie-breaker: the decoding whose characters are common in its language (common-characters.ts).
    let bestShare = -1;
    for (const encoding of tied) {
      const share = commonShare((results.get(encoding) as CandidateResult).text(), COMMON_CHARACTERS[encoding] as ReadonlySet<string>);
      if (share > bestShare + 0.05) {
        best = encoding;
        bestShare = share;
      }
    }
  }
  return { encoding: best, source: 'detected', sampled: sample.length, failures };
}
