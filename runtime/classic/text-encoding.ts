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
import { dbcsValidity, failingStrings, type DbcsValidity } from './dbcs-scan.js';

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

/**
 * Encodings that read every byte below 0x80 as ASCII and never make one part of a longer sequence:
 * text of such bytes alone is the same string in all of them.
 */
const ASCII_COMPATIBLE: ReadonlySet<string> = new Set(['cp936', 'cp949', 'cp950', 'utf-8']);

/** Strings up to this long are made from their bytes in JavaScript; longer ones through a Buffer. */
const SHORT_ASCII = 32;

/** The string of bytes that are all below 0x80, or null when one is not. */
function asciiText(bytes: Uint8Array): string | null {
  const n = bytes.length;
  for (let i = 0; i < n; i++) if ((bytes[i] as number) >= 0x80) return null;
  if (n <= SHORT_ASCII) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  return toBuffer(bytes).toString('latin1');
}

/**
 * Decodes bytes leniently (invalid sequences become U+FFFD). ASCII bytes in an ASCII-compatible
 * encoding skip the codec: most strings of a string table are tag names, paths and numbers, and a
 * codec call costs several times their decoding.
 */
export function decodeText(bytes: Uint8Array, encoding: string): string {
  if (ASCII_COMPATIBLE.has(encoding)) {
    const ascii = asciiText(bytes);
    if (ascii !== null) return ascii;
  }
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
 * into the decodes of the strings; so does a lenient UTF-8 decode (a NUL is never a continuation
 * byte). Strings holding a NUL themselves are decoded on their own. `chunks` cut the joined bytes after
 * NULs, so a decode can stop between strings.
 */
interface JoinedSample {
  bytes: Buffer;
  /** Non-ASCII strings sampled (joined and apart). */
  sampled: number;
  /** Strings left out of `bytes` (they contain a NUL). */
  apart: Uint8Array[];
  /** Ends of the chunks of `bytes` (each just after a NUL), ascending, the last = bytes.length. */
  chunks: number[];
  /** Strings in `bytes` and apart, one by one (utf-8 needs them when the sample holds an encoded U+FFFD). */
  strings: () => Uint8Array[];
}

/** Bytes a candidate decodes before the losers are cut off (the whole sample is 512 KiB at most). */
const CHUNK_BYTES = 32 * 1024;

function chunkEnds(bytes: Buffer, chunkBytes: number): number[] {
  const ends: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    const nul = bytes.indexOf(0, Math.min(at + chunkBytes, bytes.length) - 1);
    at = nul < 0 ? bytes.length : nul + 1;
    ends.push(at);
  }
  return ends;
}

/** Whether a byte string is pure ASCII (every candidate decodes it the same). */
function isAsciiRange(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((bytes[i] as number) >= 0x80) return false;
  return true;
}

function hasNul(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * Where the sample strings are: string i is bytes [starts[i], starts[i + 1]) (count + 1 ascending
 * offsets), without its trailing NULs when `nulPadded` (stringtable.bin pads strings with NULs).
 * Offsets, not accessor functions: the sample loop's optimised code then outlives each table.
 */
export interface SampleSource {
  readonly count: number;
  readonly bytes: Uint8Array;
  readonly starts: ArrayLike<number>;
  readonly nulPadded: boolean;
}

/** End of sample string i (its trailing NULs left out when padded). */
function sampleEnd(source: SampleSource, i: number): number {
  const { bytes, starts } = source;
  const start = starts[i] as number;
  let end = starts[i + 1] as number;
  if (source.nulPadded) while (end > start && bytes[end - 1] === 0) end--;
  return end;
}

/** The first byte ≥ 0x80 in [from, to), or -1: four bytes per step (most strings of a table are ASCII). */
function nextHighByte(bytes: Uint8Array, words: DataView, from: number, to: number): number {
  let p = from;
  for (; p + 4 <= to; p += 4) if ((words.getInt32(p, true) & 0x80808080) !== 0) break;
  for (; p < to; p++) if ((bytes[p] as number) >= 0x80) return p;
  return -1;
}

/**
 * The first non-ASCII strings of `source` (at most SAMPLE_STRINGS, stopping once SAMPLE_BYTES are
 * taken), joined. It jumps from one byte ≥ 0x80 to the next and on to the string holding it, so the
 * ASCII strings between cost a compare each; no view or array per string.
 */
function joinSample(source: SampleSource, chunkBytes: number): JoinedSample {
  const { bytes, starts } = source;
  const words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const limit = source.count > 0 ? sampleEnd(source, source.count - 1) : 0;
  const picked: number[] = [];
  const apart: Uint8Array[] = [];
  let total = 0;
  let joinedLength = 0;
  let i = 0;
  while (i < source.count) {
    if (picked.length + apart.length >= SAMPLE_STRINGS || total >= SAMPLE_BYTES) break;
    const high = nextHighByte(bytes, words, starts[i] as number, limit);
    if (high < 0) break;
    // The string holding it (padding is NULs, so a byte ≥ 0x80 before the next start is in the string).
    while (i < source.count && (starts[i + 1] as number) <= high) i++;
    if (i >= source.count) break;
    const start = starts[i] as number;
    const end = sampleEnd(source, i);
    i++;
    total += end - start;
    if (hasNul(bytes, start, end)) apart.push(bytes.subarray(start, end));
    else {
      picked.push(i - 1);
      joinedLength += end - start + 1;
    }
  }
  const joined = Buffer.alloc(joinedLength);
  let at = 0;
  for (const i of picked) {
    const start = starts[i] as number;
    const end = sampleEnd(source, i);
    for (let k = start; k < end; k++) joined[at++] = bytes[k] as number;
    at++; // the NUL (Buffer.alloc zero-fills)
  }
  return {
    bytes: joined,
    sampled: picked.length + apart.length,
    apart,
    chunks: chunkEnds(joined, chunkBytes),
    strings: () => [...picked.map((i) => bytes.subarray(starts[i] as number, sampleEnd(source, i))), ...apart],
  };
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

/** A candidate's decode of the sample so far: chunk by chunk, so that a clear loser can stop early. */
class CandidateRun {
  failed = 0;
  private next = 0;
  private readonly texts: string[] = [];
  private readonly exact: boolean;
  /** A double-byte candidate's tables: its chunks are counted, not decoded (dbcs-scan.ts). */
  private readonly tables: DbcsValidity | null;

  constructor(
    private readonly encoding: string,
    private readonly joined: JoinedSample,
  ) {
    this.tables = dbcsValidity(encoding);
    // A double-byte candidate or utf-8 decodes the joined bytes; utf-8 counts a validly encoded
    // U+FFFD (EF BF BD) as no failure, so a sample holding one is checked string by string.
    this.exact = DOUBLE_BYTE_CANDIDATES.has(encoding) || (encoding === 'utf-8' && joined.bytes.indexOf(UTF8_REPLACEMENT) < 0);
    if (!this.exact) {
      for (const s of joined.strings()) if (!decodesStrictly(s, encoding)) this.failed++;
      this.next = joined.chunks.length + 1;
    }
  }

  get done(): boolean {
    return this.next > this.joined.chunks.length;
  }

  /** Decodes the next chunk (after the last, the strings holding NULs). */
  step(): void {
    const { chunks, bytes, apart } = this.joined;
    if (this.next < chunks.length) {
      const from = this.next === 0 ? 0 : (chunks[this.next - 1] as number);
      const to = chunks[this.next] as number;
      if (this.tables !== null) this.failed += failingStrings(bytes, from, to, this.tables);
      else {
        const part = bytes.subarray(from, to);
        const text = this.encoding === 'utf-8' ? utf8Lenient.decode(part) : iconv.decode(part, this.encoding, { stripBOM: false });
        this.failed += failedSegments(text);
        this.texts.push(text);
      }
    } else if (this.next === chunks.length) {
      for (const s of apart) if (!decodesStrictly(s, this.encoding)) this.failed++;
    }
    this.next++;
  }

  finish(): number {
    while (!this.done) this.step();
    return this.failed;
  }

  /** The whole decoding (for the tie-breaker; the run must be done). */
  text(): string {
    if (!this.exact) return this.joined.strings().map((s) => decodeText(s, this.encoding)).join('\u0000');
    // The joined strings end at NULs, which reset a double-byte decode: one decode equals the chunks'.
    const joined = this.tables !== null ? iconv.decode(this.joined.bytes, this.encoding, { stripBOM: false }) : this.texts.join('');
    return joined + this.joined.apart.map((s) => decodeText(s, this.encoding)).join('');
  }
}

const UTF8_REPLACEMENT = Buffer.from([0xef, 0xbf, 0xbd]);

export interface EncodingDetection {
  /** The chosen encoding. */
  encoding: string;
  /** `given` (the caller's), `detected` (from the sample) or `default` (nothing to decide on). */
  source: 'given' | 'detected' | 'default';
  /** Non-ASCII strings sampled. */
  sampled: number;
  /**
   * Strings of the sample each candidate (and a given encoding) fails to decode. For a detected
   * encoding, candidates that fell behind the leader stopped decoding there: their counts are finished
   * on first access (the verdict and the chosen encoding's count never need them).
   */
  readonly failures: Record<string, number>;
}

/** Non-ASCII strings of a string list (the sample), by position. */
function listSource(strings: Iterable<Uint8Array>): SampleSource {
  const list: Uint8Array[] = [];
  let bytes = 0;
  let nonAscii = 0;
  for (const s of strings) {
    if (nonAscii >= SAMPLE_STRINGS || bytes >= SAMPLE_BYTES) break;
    if (isAsciiRange(s, 0, s.length)) continue;
    list.push(s);
    nonAscii++;
    bytes += s.length;
  }
  const flat = Buffer.concat(list);
  const starts = new Int32Array(list.length + 1);
  for (let i = 0; i < list.length; i++) starts[i + 1] = (starts[i] as number) + (list[i] as Uint8Array).length;
  return { count: list.length, bytes: flat, starts, nulPadded: false };
}

/**
 * Chooses the text encoding from sample strings (raw bytes of `stringtable.bin` entries, in order).
 * With `given`, that encoding is used and the counts only inform (a wrong override shows as failures).
 * `chunkBytes` (tests) sets how far a candidate decodes between checks.
 */
export function detectEncoding(strings: Iterable<Uint8Array>, given?: string, chunkBytes = CHUNK_BYTES): EncodingDetection {
  return detectEncodingIn(listSource(strings), given, chunkBytes).detection;
}

/** The detection and the chosen encoding's failure count (known without finishing the losers). */
export interface EncodingVerdict {
  detection: EncodingDetection;
  chosenFailures: number;
}

/** detectEncoding over a string table's bytes and offsets (the open: no view per string). */
export function detectEncodingIn(source: SampleSource, given?: string, chunkBytes = CHUNK_BYTES): EncodingVerdict {
  const joined = joinSample(source, chunkBytes);
  const candidates: string[] = [...ENCODING_CANDIDATES];
  if (given !== undefined && !candidates.includes(given)) candidates.push(given);
  const runs = new Map(candidates.map((encoding) => [encoding, new CandidateRun(encoding, joined)]));
  const counts = (): Record<string, number> => {
    const failures: Record<string, number> = {};
    for (const [encoding, run] of runs) failures[encoding] = run.finish();
    return failures;
  };
  if (given !== undefined) {
    const failures = counts();
    return { detection: { encoding: given, source: 'given', sampled: joined.sampled, failures }, chosenFailures: failures[given] as number };
  }
  if (joined.sampled === 0) return { detection: { encoding: DEFAULT_ENCODING, source: 'default', sampled: 0, failures: counts() }, chosenFailures: 0 };

  // The leader after one chunk decodes everything; the others decode only while they are no worse
  // than its final count. One that falls behind cannot win or tie, so its count is not needed now.
  const ordered = ENCODING_CANDIDATES.map((encoding) => runs.get(encoding) as CandidateRun);
  for (const run of ordered) run.step();
  let leader = ordered[0] as CandidateRun;
  for (const run of ordered) if (run.failed < leader.failed) leader = run;
  const bound = leader.finish();
  for (const run of ordered) while (!run.done && run.failed <= bound) run.step();
  const complete = ENCODING_CANDIDATES.filter((encoding) => (runs.get(encoding) as CandidateRun).done);
  const final = (encoding: string): number => (runs.get(encoding) as CandidateRun).failed;
  const fewest = Math.min(...complete.map(final));
  const tied = complete.filter((encoding) => final(encoding) === fewest);
  let best: string = tied[0] as string;
  if (tied.length > 1) {
    // Tie-breaker: the decoding whose characters are common in its language (common-characters.ts).
    let bestShare = -1;
    for (const encoding of tied) {
      const share = commonShare((runs.get(encoding) as CandidateRun).text(), COMMON_CHARACTERS[encoding] as ReadonlySet<string>);
      if (share > bestShare + 0.05) {
        best = encoding;
        bestShare = share;
      }
    }
  }
  let failures: Record<string, number> | undefined;
  const detection: EncodingDetection = {
    encoding: best,
    source: 'detected',
    sampled: joined.sampled,
    get failures() {
      return (failures ??= counts());
    },
  };
  return { detection, chosenFailures: final(best) };
}
