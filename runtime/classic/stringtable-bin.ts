/**
 * `stringtable.bin` (pvf-classic-format §3.1): `uint32 N`, `uint32 off[N+1]` counted from byte 4, then
 * the string bytes; string i is `file[off[i]+4 .. off[i+1]+4)`. Every offset is checked against the file
 * when the table is parsed; strings are decoded lazily with the archive's text encoding (trailing NULs
 * trimmed) and cached.
 */
import { invalidArchiveFile } from '../script/archive-error.js';
import { decodeText } from './text-encoding.js';

export const STRINGTABLE_PATH = 'stringtable.bin';

export interface RawStringTable {
  readonly count: number;
  /** The table's bytes: string i is bytes[start(i) .. end(i)). */
  readonly bytes: Uint8Array;
  /** start(i) for i ≤ count (the last is the end of the table). */
  readonly starts: Uint32Array;
  /** Strings end in padding NULs (end() leaves them out). */
  readonly nulPadded: true;
  start(i: number): number;
  /** End of string i, trailing NULs trimmed. */
  end(i: number): number;
  /** Raw bytes of string i (0 ≤ i < count), trailing NULs trimmed. */
  raw(i: number): Uint8Array;
  /** Raw bytes of every string, in index order. */
  rawStrings(): Iterable<Uint8Array>;
}

export interface StringTable extends RawStringTable {
  readonly encoding: string;
  /** Decoded string i (0 ≤ i < count). */
  get(i: number): string;
}

/** Parses the table; INVALID_ARCHIVE naming `stringtable.bin` when a count or offset does not fit. */
export function parseStringTable(data: Uint8Array, archive: string, path = STRINGTABLE_PATH): RawStringTable {
  // A plain view: a Buffer's subarray() is several times slower, and detection takes thousands.
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length < 4) throw invalidArchiveFile(archive, path, `is ${bytes.length} bytes long, too short for its string count`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  // N+1 offsets must fit in the file before anything is allocated.
  if (count > Math.floor((bytes.length - 8) / 4)) {
    throw invalidArchiveFile(archive, path, `declares ${count} strings, but ${bytes.length} bytes cannot hold their ${count + 1} offsets`, { count });
  }
  const starts = new Uint32Array(count + 1);
  let previous = 0;
  for (let i = 0; i <= count; i++) {
    const at = view.getUint32(4 + 4 * i, true) + 4;
    if (at > bytes.length || at < previous) {
      const what = i === count ? 'the end offset' : `string ${i}`;
      throw invalidArchiveFile(archive, path, `${what} starts at byte ${at}, ${at > bytes.length ? `past the end of the file (${bytes.length} bytes)` : `before the previous string (byte ${previous})`}`, { index: i });
    }
    starts[i] = at;
    previous = at;
  }
  const start = (i: number): number => starts[i] as number;
  const end = (i: number): number => {
    let e = starts[i + 1] as number;
    const s = starts[i] as number;
    while (e > s && bytes[e - 1] === 0) e--;
    return e;
  };
  const raw = (i: number): Uint8Array => bytes.subarray(start(i), end(i));
  return {
    count,
    bytes,
    starts,
    nulPadded: true,
    start,
    end,
    raw,
    *rawStrings() {
      for (let i = 0; i < count; i++) yield raw(i);
    },
  };
}

/** Decoded strings are kept in pages of this many, made on first use. */
const PAGE = 1024;

/**
 * The table with strings decoded lazily in `encoding` (each decoded once). The cache is paged: a
 * slot per string up front would be megabytes of heap for a table whose reads touch a few pages.
 */
export function decodeStringTable(table: RawStringTable, encoding: string): StringTable {
  const pages: (string | undefined)[][] = [];
  return {
    count: table.count,
    bytes: table.bytes,
    starts: table.starts,
    nulPadded: true,
    start: (i) => table.start(i),
    end: (i) => table.end(i),
    encoding,
    raw: (i) => table.raw(i),
    rawStrings: () => table.rawStrings(),
    get(i) {
      const p = Math.floor(i / PAGE);
      let page = pages[p];
      if (page === undefined) pages[p] = page = new Array<string | undefined>(PAGE);
      let s = page[i % PAGE];
      if (s === undefined) {
        s = decodeText(table.raw(i), encoding);
        page[i % PAGE] = s;
      }
      return s;
    },
  };
}

/** Strings decoded per call by stringTableText: one decoder call per run, not per string. */
const TEXT_RUN = 4096;

/**
 * `stringtable.bin` as text for reading: a `#` header line (a comment to the script lexer), then one
 * line per string, its index, a tab and the string in backticks (inner backticks doubled, as in
 * scripts; a string with a line break spans lines, as a script string does). Decoded without the
 * table's cache (a whole read would keep every string for the archive's lifetime): a run of strings
 * per decoder call, joined by NULs, and the NULs replaced by the line breaks and indexes, so a run is
 * a few flat strings instead of thousands. A run whose decoding does not hold exactly one NUL between
 * strings (a NUL inside one, a lead byte at the end of one) is decoded string by string.
 */
export function stringTableText(table: StringTable): string {
  const runs = [`#${STRINGTABLE_PATH}: ${table.count} strings (index, text)`];
  for (let first = 0; first < table.count; first += TEXT_RUN) {
    const last = Math.min(first + TEXT_RUN, table.count);
    let size = 0;
    for (let i = first; i < last; i++) size += table.end(i) - table.start(i) + 1;
    const joined = new Uint8Array(size - 1);
    let at = 0;
    for (let i = first; i < last; i++) {
      if (i > first) joined[at++] = 0;
      const raw = table.raw(i);
      joined.set(raw, at);
      at += raw.length;
    }
    const decoded = decodeText(joined, table.encoding);
    let nuls = 0;
    for (let k = decoded.indexOf('\u0000'); k >= 0; k = decoded.indexOf('\u0000', k + 1)) nuls++;
    if (nuls === last - first - 1) {
      let index = first;
      runs.push(`${first}\t\`${decoded.replaceAll('`', '``').replace(/\u0000/g, () => `\`\n${++index}\t\``)}\``);
    } else {
      for (let i = first; i < last; i++) runs.push(`${i}\t\`${decodeText(table.raw(i), table.encoding).replaceAll('`', '``')}\``);
    }
  }
  return runs.join('\n');
}
