/**
 * Test-only writer of classic (pvfUtility-format) archives (pvf-classic-format §2.5, §3.1, §4.7), so
 * tests and benchmarks can build realistic archives of any size from script texts. Never used by
 * runtime/.
 *
 * - Scripts are compiled with a tolerant character-level lexer (§4.7 recommendation): `[...]` sections,
 *   backtick strings (raw newlines and tabs kept, a doubled backtick is a literal one), `{N=...}`,
 *   `<id::key`text`>` links (the text is ignored), numbers (a `.` or an exponent makes a float), `#`
 *   lines (`#PVF_File`) skipped. Newlines inside strings are stored as CRLF by default, as pvfUtility
 *   does.
 * - `stringtable.bin` holds the strings in first-use order (scripts compiled in the order given).
 * - Entries are sorted by name hash (stable), blocks placed back to back, CRCs and encryption as §2.5.
 *
 * `writeClassicArchive` with the three scripts of §7.1 (in the order sword.equ, equipment.lst,
 * n_string.lst), GUID `00000000-0000-0000-0000-000000000000` and file version 1 reproduces
 * `example.pvf` byte for byte.
 */
import { open } from 'node:fs/promises';
import { parseFloat32, parseInt32 } from '../../runtime/script/canonical-number.js';
import { blockLength, crc32, encryptBlock, nameHash } from '../../runtime/classic/crypto.js';
import { encodeName } from '../../runtime/classic/names.js';
import { float32Bits } from '../../runtime/script/script-float.js';
import { encodeText } from '../../runtime/classic/text-encoding.js';

const DEFAULT_GUID = 'fa08bf71-4395-6a4b-a3e3-2617c9fee116';
const DEFAULT_FILE_VERSION = 66282;
const PVFUTILITY_TRAILER = Buffer.concat([Buffer.from([0]), Buffer.from('This pvf Pack was created by pvfUtility.', 'latin1')]);

/** Strings in first-use order; text → first index. */
export class StringTableBuilder {
  readonly strings: string[] = [];
  private readonly first = new Map<string, number>();

  constructor(preset: readonly string[] = []) {
    for (const s of preset) this.append(s);
  }

  /** Index of a string, appending it when new. */
  indexOf(s: string): number {
    const known = this.first.get(s);
    return known ?? this.append(s);
  }

  /** Appends a string even when it exists (duplicates keep the first index for lookups). */
  append(s: string): number {
    const index = this.strings.length;
    this.strings.push(s);
    if (!this.first.has(s)) this.first.set(s, index);
    return index;
  }

  /** `stringtable.bin` bytes (§3.1): count, N+1 offsets from byte 4, the encoded strings. */
  toBytes(encoding: string): Buffer {
    const encoded = this.strings.map((s) => Buffer.from(encodeText(s, encoding)));
    const n = encoded.length;
    const head = Buffer.alloc(4 + 4 * (n + 1));
    head.writeUInt32LE(n, 0);
    let offset = 4 * n + 4;
    for (let i = 0; i < n; i++) {
      head.writeUInt32LE(offset, 4 + 4 * i);
      offset += (encoded[i] as Buffer).length;
    }
    head.writeUInt32LE(offset, 4 + 4 * n);
    return Buffer.concat([head, ...encoded]);
  }
}

interface CompileOptions {
  /** Line ends stored inside multi-line strings ("\r\n" as pvfUtility; "keep" stores them as written). */
  stringNewline?: '\r\n' | '\n' | 'keep';
}

class ScriptCompileError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at offset ${offset})`);
  }
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';
}

/** Reads a backtick string at `start` (a doubled backtick is a literal one): [value, index after it]. */
function readString(text: string, start: number): [string, number] {
  let value = '';
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('`', i);
    if (quote < 0) throw new ScriptCompileError('unterminated string', start);
    value += text.slice(i, quote);
    if (text[quote + 1] === '`') {
      value += '`';
      i = quote + 2;
      continue;
    }
    return [value, quote + 1];
  }
}

/** Index of the `close` character that ends a `{`/`<` token at `start`, skipping backticked parts. */
function findClose(text: string, start: number, close: string): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '`') {
      i = readString(text, i)[1];
      continue;
    }
    if (c === close) return i;
    i++;
  }
  throw new ScriptCompileError(`"${text[start]}" without its "${close}"`, start);
}

/** Compiles script text to token bytes (`B0 D0` + 5-byte records), adding strings to `table`. */
export function compileScriptText(text: string, table: StringTableBuilder, options: CompileOptions = {}): Buffer {
  const newline = options.stringNewline ?? '\r\n';
  const storeString = (s: string) => (newline === 'keep' ? s : s.replace(/\r\n|\r|\n/g, newline));
  const records: [number, number][] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i] as string;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (c === '[') {
      const close = text.indexOf(']', i + 1);
      if (close < 0) throw new ScriptCompileError('"[" without "]"', i);
      records.push([5, table.indexOf(text.slice(i, close + 1))]);
      i = close + 1;
      continue;
    }
    if (c === '`') {
      const [value, next] = readString(text, i);
      records.push([7, table.indexOf(storeString(value))]);
      i = next;
      continue;
    }
    if (c === '{') {
      const close = findClose(text, i, '}');
      const body = text.slice(i + 1, close);
      const eq = body.indexOf('=');
      const type = eq < 0 ? null : parseInt32(body.slice(0, eq).trim());
      if (type === null || type < 0 || type > 255) throw new ScriptCompileError(`bad token type in ${JSON.stringify(text.slice(i, close + 1))}`, i);
      const valueText = body.slice(eq + 1).trim();
      if (valueText.startsWith('`')) {
        const [value, next] = readString(valueText, 0);
        if (next !== valueText.length) throw new ScriptCompileError('text after the string of a {N=...} token', i);
        records.push([type, table.indexOf(storeString(value))]);
      } else {
        records.push([type, numberValue(valueText, i)]);
      }
      i = close + 1;
      continue;
    }
    if (c === '<') {
      const close = findClose(text, i, '>');
      const body = text.slice(i + 1, close);
      const sep = body.indexOf('::');
      const id = sep < 0 ? null : parseInt32(body.slice(0, sep).trim());
      if (id === null) throw new ScriptCompileError(`bad link ${JSON.stringify(text.slice(i, close + 1))}`, i);
      const rest = body.slice(sep + 2);
      const tick = rest.indexOf('`');
      const key = tick < 0 ? rest : rest.slice(0, tick);
      records.push([9, id], [10, table.indexOf(key)]);
      i = close + 1;
      continue;
    }
    const start = i;
    while (i < n && !isSpace(text[i] as string) && !'`[{<'.includes(text[i] as string)) i++;
    const word = text.slice(start, i);
    const float = /[.eE]/.test(word) && !/^[+-]?0[xX]/.test(word);
    if (float) {
      const value = parseFloat32(word);
      if (value === null) throw new ScriptCompileError(`bad number ${JSON.stringify(word)}`, start);
      records.push([4, float32Bits(value)]);
    } else {
      records.push([2, numberValue(word, start)]);
    }
  }
  const out = Buffer.alloc(2 + 5 * records.length);
  out[0] = 0xb0;
  out[1] = 0xd0;
  records.forEach(([type, value], k) => {
    out[2 + 5 * k] = type;
    out.writeInt32LE(value | 0, 3 + 5 * k);
  });
  return out;
}

function numberValue(word: string, at: number): number {
  const int = parseInt32(word);
  if (int !== null) return int;
  if (word.includes('.')) {
    const float = parseFloat32(word);
    if (float !== null) return float32Bits(float);
  }
  throw new ScriptCompileError(`bad number ${JSON.stringify(word)}`, at);
}

interface ArchiveFile {
  /** Archive path; lower-cased unless keepCase. */
  path: string;
  /** Plaintext bytes. */
  data: Uint8Array;
}

interface BuildOptions {
  guid?: string;
  fileVersion?: number;
  /** Append pvfUtility's 41-byte trailer (or these bytes). */
  trailer?: boolean | Uint8Array;
  /** Store names as given instead of lower-cased. */
  keepCase?: boolean;
  /** Keep the given entry order instead of sorting by name hash. */
  unsorted?: boolean;
}

/** Builds an archive from plaintext files (§2.5). */
export function buildClassicArchive(files: readonly ArchiveFile[], options: BuildOptions = {}): Buffer {
  const entries = files.map((file) => {
    const stored = file.path.replaceAll('\\', '/').replace(/^\/+/, '');
    const name = Buffer.from(encodeName(options.keepCase ? stored : stored.toLowerCase()));
    const hash = nameHash(name);
    const block = Buffer.alloc(blockLength(file.data.length));
    block.set(file.data);
    return { name, hash, length: file.data.length, block, crc: crc32(block, hash), offset: 0 };
  });
  if (!options.unsorted) entries.sort((a, b) => a.hash - b.hash);
  let offset = 0;
  for (const entry of entries) {
    entry.offset = offset;
    offset += entry.block.length;
  }
  const treeParts: Buffer[] = [];
  for (const entry of entries) {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(entry.hash, 0);
    head.writeInt32LE(entry.name.length, 4);
    const tail = Buffer.alloc(12);
    tail.writeInt32LE(entry.length, 0);
    tail.writeUInt32LE(entry.crc, 4);
    tail.writeInt32LE(entry.offset, 8);
    treeParts.push(head, entry.name, tail);
  }
  const plainTree = Buffer.concat(treeParts);
  const tree = Buffer.alloc(blockLength(plainTree.length));
  tree.set(plainTree);
  const treeCrc = crc32(tree, entries.length);
  encryptBlock(tree, treeCrc);
  const guid = Buffer.from(options.guid ?? DEFAULT_GUID, 'latin1');
  const header = Buffer.alloc(20 + guid.length);
  header.writeInt32LE(guid.length, 0);
  guid.copy(header, 4);
  header.writeInt32LE(options.fileVersion ?? DEFAULT_FILE_VERSION, 4 + guid.length);
  header.writeInt32LE(tree.length, 8 + guid.length);
  header.writeUInt32LE(treeCrc, 12 + guid.length);
  header.writeInt32LE(entries.length, 16 + guid.length);
  const blocks = entries.map((entry) => {
    const block = Buffer.from(entry.block);
    encryptBlock(block, entry.crc);
    return block;
  });
  const trailer = options.trailer === true ? PVFUTILITY_TRAILER : options.trailer instanceof Uint8Array ? Buffer.from(options.trailer) : Buffer.alloc(0);
  return Buffer.concat([header, tree, ...blocks, trailer]);
}

type Pairs<T> = Iterable<readonly [string, T]> | Record<string, T>;

function pairsOf<T>(input: Pairs<T> | undefined): [string, T][] {
  if (input === undefined) return [];
  if (Symbol.iterator in input) return [...(input as Iterable<readonly [string, T]>)].map(([k, v]) => [k, v]);
  return Object.entries(input as Record<string, T>);
}

interface WriteClassicArchiveInput extends BuildOptions, CompileOptions {
  /** Script texts, compiled in this order (the stringtable's first-use order). */
  scripts?: Pairs<string>;
  /** Files stored as they are (text is encoded with `encoding`). */
  files?: Pairs<string | Uint8Array>;
  /** Text encoding of stringtable.bin and text files (default cp950). */
  encoding?: string;
  /** Strings placed first in stringtable.bin (duplicates allowed). */
  strings?: readonly string[];
  /** Write stringtable.bin even without scripts (default: only when there are scripts). */
  stringTable?: boolean;
}

/** Compiles scripts, builds `stringtable.bin` and writes the archive bytes. */
export function writeClassicArchive(input: WriteClassicArchiveInput): Buffer {
  const encoding = input.encoding ?? 'cp950';
  const table = new StringTableBuilder(input.strings ?? []);
  const files: ArchiveFile[] = [];
  const scripts = pairsOf(input.scripts);
  for (const [path, text] of scripts) {
    try {
      files.push({ path, data: compileScriptText(text, table, input) });
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message}`, { cause: error });
    }
  }
  if (scripts.length > 0 || input.stringTable === true) files.push({ path: 'stringtable.bin', data: table.toBytes(encoding) });
  for (const [path, content] of pairsOf(input.files)) {
    files.push({ path, data: typeof content === 'string' ? encodeText(content, encoding) : content });
  }
  return buildClassicArchive(files, input);
}

// --- Streaming to disk (benchmarks: archives of any size in bounded memory) ---

interface StreamClassicArchiveInput extends CompileOptions {
  /** Every file but `stringtable.bin`, which is always added (empty without scripts). Lower-cased unless keepCase. */
  paths: readonly string[];
  /** The content of a path, asked once per path in data order (entry order by name hash). */
  content: (path: string) => { script: string } | { data: Uint8Array };
  /** Text encoding of `stringtable.bin` (default cp950). */
  encoding?: string;
  guid?: string;
  fileVersion?: number;
  keepCase?: boolean;
  /** Append pvfUtility's 41-byte trailer. */
  trailer?: boolean;
  /** Called after each file with (files written, files in all). */
  onProgress?: (written: number, total: number) => void;
}

interface StreamedArchive {
  /** Bytes written. */
  size: number;
  /** Entries in the tree (stringtable.bin included). */
  files: number;
  /** Strings in stringtable.bin. */
  strings: number;
}

/** Data is gathered into chunks of this many bytes before each write. */
const STREAM_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Writes an archive file without holding it in memory (§2.5, same bytes rules as buildClassicArchive):
 * the tree's size is known from the names, so the data blocks are written first (compiled, padded,
 * checksummed and encrypted one by one, in entry order, `stringtable.bin` last since it is complete
 * only after every script), then the encrypted tree and the header at the start. Memory: the names,
 * four numbers per entry, the string table and one chunk.
 */
export async function streamClassicArchive(file: string, input: StreamClassicArchiveInput): Promise<StreamedArchive> {
  const encoding = input.encoding ?? 'cp950';
  const table = new StringTableBuilder();
  const given = input.paths.map((p) => p.replaceAll('\\', '/').replace(/^\/+/, ''));
  const names = [...given, STRINGTABLE_NAME].map((p) => Buffer.from(encodeName(input.keepCase ? p : p.toLowerCase())));
  const count = names.length;
  const hashes = new Uint32Array(count);
  names.forEach((name, i) => (hashes[i] = nameHash(name)));
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => (hashes[a] as number) - (hashes[b] as number) || a - b);
  const lengths = new Int32Array(count);
  const crcs = new Uint32Array(count);
  const offsets = new Int32Array(count);

  let treeBytes = 0;
  for (const name of names) treeBytes += 20 + name.length;
  const tree = Buffer.alloc(blockLength(treeBytes));
  const guid = Buffer.from(input.guid ?? DEFAULT_GUID, 'latin1');
  const dataBase = 20 + guid.length + tree.length;

  const handle = await open(file, 'w');
  try {
    const chunk = Buffer.alloc(STREAM_CHUNK_BYTES);
    let used = 0;
    let position = dataBase;
    let dataOffset = 0;
    const flush = async (): Promise<void> => {
      let done = 0;
      while (done < used) done += (await handle.write(chunk, done, used - done, position + done)).bytesWritten;
      position += used;
      used = 0;
    };
    const put = async (entry: number, data: Uint8Array): Promise<void> => {
      const padded = blockLength(data.length);
      if (used + padded > chunk.length) await flush();
      // A block larger than a chunk gets its own buffer.
      const target = padded > chunk.length ? Buffer.alloc(padded) : chunk.subarray(used, used + padded);
      target.set(data);
      target.fill(0, data.length);
      const crc = crc32(target, hashes[entry] as number);
      encryptBlock(target, crc);
      lengths[entry] = data.length;
      crcs[entry] = crc;
      offsets[entry] = dataOffset;
      dataOffset += padded;
      if (target.buffer === chunk.buffer) {
        used += padded;
      } else {
        await flush();
        await handle.write(target, 0, padded, position);
        position += padded;
      }
    };

    const stringTableEntry = count - 1;
    let written = 0;
    let scripts = 0;
    for (const entry of order) {
      if (entry === stringTableEntry) continue;
      const path = given[entry] as string;
      const content = input.content(path);
      let data: Uint8Array;
      if ('script' in content) {
        scripts++;
        try {
          data = compileScriptText(content.script, table, input);
        } catch (error) {
          throw new Error(`${path}: ${(error as Error).message}`, { cause: error });
        }
      } else {
        data = content.data;
      }
      await put(entry, data);
      input.onProgress?.(++written, count);
    }
    await put(stringTableEntry, scripts > 0 ? table.toBytes(encoding) : new StringTableBuilder().toBytes(encoding));
    input.onProgress?.(++written, count);
    await flush();

    let at = 0;
    for (const entry of order) {
      const name = names[entry] as Buffer;
      tree.writeUInt32LE(hashes[entry] as number, at);
      tree.writeInt32LE(name.length, at + 4);
      name.copy(tree, at + 8);
      at += 8 + name.length;
      tree.writeInt32LE(lengths[entry] as number, at);
      tree.writeUInt32LE(crcs[entry] as number, at + 4);
      tree.writeInt32LE(offsets[entry] as number, at + 8);
      at += 12;
    }
    const treeCrc = crc32(tree, count);
    encryptBlock(tree, treeCrc);
    const header = Buffer.alloc(20 + guid.length);
    header.writeInt32LE(guid.length, 0);
    guid.copy(header, 4);
    header.writeInt32LE(input.fileVersion ?? DEFAULT_FILE_VERSION, 4 + guid.length);
    header.writeInt32LE(tree.length, 8 + guid.length);
    header.writeUInt32LE(treeCrc, 12 + guid.length);
    header.writeInt32LE(count, 16 + guid.length);
    await handle.write(Buffer.concat([header, tree]), 0, header.length + tree.length, 0);
    if (input.trailer) {
      await handle.write(PVFUTILITY_TRAILER, 0, PVFUTILITY_TRAILER.length, position);
      position += PVFUTILITY_TRAILER.length;
    }
    return { size: position, files: count, strings: table.strings.length };
  } finally {
    await handle.close();
  }
}

const STRINGTABLE_NAME = 'stringtable.bin';
