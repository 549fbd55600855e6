/**
 * A `.str` table (pvf-classic-format §3.3) looked up by key without decoding the file: an index over
 * its bytes (where each line's key and value are), built in one pass, and a value decoded when asked
 * for. The table of a large `.str` file (equipment names: tens of thousands of lines) made the first
 * read that needed it decode the whole file and fill a map of every line; that map then lived in the
 * young generation and lengthened the scavenges after it.
 *
 * Why the bytes can be split before decoding: in cp936, cp949 and cp950 no two-byte sequence has
 * 0x0A, 0x0D, 0x3E (`>`), 0x2F (`/`), 0x20 or 0x09 as its second byte, and iconv-lite, on an invalid
 * second byte, writes U+FFFD for the first and reads the second again from scratch; in UTF-8 (WHATWG,
 * lenient) an ASCII byte is always itself and ends any incomplete sequence. So each of those bytes
 * always decodes to that one character, a sequence always starts after it, and a piece between them
 * decodes to exactly the characters between them in the decoded file (a dangling first byte at the
 * end of a piece gives the one U+FFFD it gives before the separator). `test/runtime/classic/str-table.test.ts`
 * holds this to parseStrTable on the decoded text, on hostile bytes.
 *
 * Other encodings and UTF-16 files (byte-order mark) keep the whole decode and parseStrTable.
 */
import { IntColumn } from '../script/int-column.js';
import { parseStrTable } from './string-links.js';
import { decodeText, decodeTextFile } from './text-encoding.js';

export interface StrTable {
  /** The text of `key` (the first line of that key), or undefined. */
  get(key: string): string | undefined;
  /** Every key, once, in the order of their first lines. */
  keys(): Iterable<string>;
}

/** Encodings whose bytes split at `\n`, `\r`, `>`, `/`, space and tab as their text does (see above). */
const SPLIT_SAFE: ReadonlySet<string> = new Set(['cp936', 'cp949', 'cp950', 'utf-8']);

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The `.str` table in `bytes` (a whole file) read with `encoding`. */
export function openStrTable(bytes: Uint8Array, encoding: string): StrTable {
  const utf8Bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const utf16Bom = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16Bom || (!utf8Bom && !SPLIT_SAFE.has(encoding))) {
    const table = parseStrTable(decodeTextFile(bytes, encoding).text);
    return { get: (key) => table.get(key), keys: () => table.keys() };
  }
  return new IndexedStrTable(utf8Bom ? bytes.subarray(3) : bytes, utf8Bom ? 'utf-8' : encoding);
}

function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x09;
}

class IndexedStrTable implements StrTable {
  /** Per line with a key: where the key (trimmed) and the value are in `bytes`. */
  private readonly keyStart: Int32Array;
  private readonly keyEnd: Int32Array;
  private readonly valueStart: Int32Array;
  private readonly valueEnd: Int32Array;
  /** Keys that are not plain ASCII, decoded (the rest are compared as bytes). */
  private readonly wideKeys = new Map<number, string>();
  /** Texts decoded so far, by entry (a link is looked up on every read of the files that hold it). */
  private readonly texts = new Map<number, string>();
  /** Open addressing over key hashes: an entry number + 1 per slot, 0 = free. */
  private readonly slots: Int32Array;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly encoding: string,
  ) {
    const ks = new IntColumn();
    const ke = new IntColumn();
    const vs = new IntColumn();
    const ve = new IntColumn();
    const n = bytes.length;
    // The next `>` at or after the line start, found natively and kept while later lines start before
    // it (so lines without one do not search the rest of the file again and again).
    let nextGt = -1;
    for (let start = 0; start <= n; ) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = n;
      const next = end + 1;
      // A line is its bytes without the `\n` and one `\r` before it.
      if (end > start && bytes[end - 1] === 0x0d) end--;
      const comment = end - start >= 2 && bytes[start] === 0x2f && bytes[start + 1] === 0x2f;
      if (nextGt < start && nextGt !== -2) {
        nextGt = bytes.indexOf(0x3e, start);
        if (nextGt < 0) nextGt = -2;
      }
      const gt = !comment && nextGt >= 0 && nextGt < end ? nextGt : -1;
      if (gt > start) {
        let a = start;
        let b = gt;
        while (a < b && isBlank(bytes[a] as number)) a++;
        while (b > a && isBlank(bytes[b - 1] as number)) b--;
        if (b > a) {
          ks.push(a);
          ke.push(b);
          vs.push(gt + 1);
          ve.push(end);
        }
      }
      start = next;
    }
    this.keyStart = ks.finish();
    this.keyEnd = ke.finish();
    this.valueStart = vs.finish();
    this.valueEnd = ve.finish();
    const count = this.keyStart.length;
    let size = 16;
    while (size < count * 2) size *= 2;
    this.slots = new Int32Array(size);
    for (let e = 0; e < count; e++) this.insert(e);
  }

  get(key: string): string | undefined {
    const e = this.find(key);
    if (e < 0) return undefined;
    let text = this.texts.get(e);
    if (text === undefined) {
      text = decodeText(this.bytes.subarray(this.valueStart[e] as number, this.valueEnd[e] as number), this.encoding);
      this.texts.set(e, text);
    }
    return text;
  }

  *keys(): Iterable<string> {
    // Entries in line order; a key counts at the first line that holds it.
    for (let e = 0; e < this.keyStart.length; e++) {
      const key = this.wideKey(e) ?? decodeText(this.bytes.subarray(this.keyStart[e] as number, this.keyEnd[e] as number), this.encoding);
      if (this.find(key) === e) yield key;
    }
  }

  /** FNV-1a over a key's UTF-16 code units (an ASCII key's bytes are its code units). */
  private static hashString(s: string): number {
    let h = FNV_OFFSET;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
    return h >>> 0;
  }

  /** The key of entry e as the decoded text would have it: its bytes for an ASCII key (then undefined). */
  private wideKey(e: number): string | undefined {
    return this.wideKeys.get(e);
  }

  private hashEntry(e: number): number {
    const a = this.keyStart[e] as number;
    const b = this.keyEnd[e] as number;
    const bytes = this.bytes;
    let h = FNV_OFFSET;
    for (let i = a; i < b; i++) {
      const c = bytes[i] as number;
      if (c >= 0x80) {
        const key = decodeText(bytes.subarray(a, b), this.encoding);
        this.wideKeys.set(e, key);
        return IndexedStrTable.hashString(key);
      }
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    return h >>> 0;
  }

  /** Whether entry e's key is `key`. */
  private keyIs(e: number, key: string): boolean {
    const wide = this.wideKey(e);
    if (wide !== undefined) return wide === key;
    const a = this.keyStart[e] as number;
    if ((this.keyEnd[e] as number) - a !== key.length) return false;
    for (let i = 0; i < key.length; i++) if (this.bytes[a + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  private insert(e: number): void {
    const mask = this.slots.length - 1;
    const h = this.hashEntry(e);
    const key = this.wideKey(e) ?? null;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const held = (this.slots[slot] as number) - 1;
      if (held < 0) {
        this.slots[slot] = e + 1;
        return;
      }
      // The first line of a key wins.
      if (key !== null ? this.keyIs(held, key) : this.sameAsciiKey(held, e)) return;
    }
  }

  private sameAsciiKey(held: number, e: number): boolean {
    if (this.wideKey(held) !== undefined) return false;
    const a = this.keyStart[held] as number;
    const b = this.keyStart[e] as number;
    const length = (this.keyEnd[e] as number) - b;
    if ((this.keyEnd[held] as number) - a !== length) return false;
    for (let i = 0; i < length; i++) if (this.bytes[a + i] !== this.bytes[b + i]) return false;
    return true;
  }

  private find(key: string): number {
    const mask = this.slots.length - 1;
    for (let slot = IndexedStrTable.hashString(key) & mask; ; slot = (slot + 1) & mask) {
      const held = (this.slots[slot] as number) - 1;
      if (held < 0) return -1;
      if (this.keyIs(held, key)) return held;
    }
  }
}
