/**
 * A classic (pvfUtility-format) Script.pvf opened read-only: header and tree parsed and the tree CRC
 * verified on open; files read lazily at their offsets through the source and CRC-verified on every
 * read; `stringtable.bin`, `n_string.lst` and `.str` tables loaded on first use; texts decompiled on
 * demand and cached. One ClassicArchive is one immutable version of the file: a new version on disk is
 * a new ClassicArchive (the workspace decides when).
 */
import { PvfdocError } from '../errors.js';
import { normalizeText } from '../script/normalize-text.js';
import { textRevisionOf } from '../script/decode-text.js';
import { LruCache, MAX_CACHED_TEXT_UNITS, MIN_CACHED_TEXT_UNITS, TEXT_CACHE_UNITS } from '../script/lru-cache.js';
import { extensionOf, foldPath, isScriptFile, NON_SCRIPT_EXTENSIONS, normalizeArchivePath } from '../script/archive-path.js';
import { hex32, invalidArchiveFile } from '../script/archive-error.js';
import { archiveChanged, bytesSource, openFileSource, type ArchiveSource, type FileIdentity } from '../script/archive-source.js';
import { blockLength, crc32, decryptBlock } from './crypto.js';
import { binaryAniText } from './binary-ani.js';
import { DecompileScratch, decompileScript, type MissingLink } from './decompile.js';
import { DecompileMemo } from './decompile-memo.js';
import { HEADER_PROBE_BYTES, parseClassicHeader, type ClassicHeader } from './header.js';
import { NameIndex, type DirNode, type FileNode } from './name-index.js';
import { isCompiledScript, readScriptTokens, TokenScratch, TokenType } from './script-tokens.js';
import { N_STRING_PATH, parseNStringList, strPathOf, type NStringList } from './string-links.js';
import { openStrTable, type StrTable } from './str-table.js';
import { decodeStringTable, parseStringTable, STRINGTABLE_PATH, stringTableText, type RawStringTable, type StringTable } from './stringtable-bin.js';
import { decodeText, decodeTextFile, detectEncodingIn, normalizeEncodingName, type EncodingDetection, type SampleSource } from './text-encoding.js';
import { decodeTree, type TreeEntries } from './tree.js';

export interface OpenClassicArchiveOptions {
  /** Text encoding to use instead of detecting one (cp950, cp936, cp949, utf-8, or any iconv-lite name). */
  encoding?: string;
}

/** What readText returns for one file. */
interface ArchiveText {
  /** Stored path (original case). */
  path: string;
  /** Canonical text, `\n` line ends. */
  text: string;
  /** sha256 of `text` (32 hex digits, the folder workspace's formula). */
  textRevision: string;
  /** Compiled scripts and token-script text; false for `.str`, binaries, NUL bytes. */
  isScript: boolean;
  /** `script`: decompiled from tokens or a binary `.ani` (binary-ani.ts); `text`: decoded bytes. */
  source: 'script' | 'text';
  /** Links printed with an empty text because their `.str` entry was not found. */
  missingLinks: MissingLink[];
}

/** `stringtable.bin` ready to use, or why it is not. */
type StringTableResult = { table: StringTable } | { error: PvfdocError } | { missing: string };

/** Where detection samples when there is no usable stringtable.bin. */
const NO_STRINGS: SampleSource = { count: 0, bytes: new Uint8Array(0), starts: new Uint32Array(1), nulPadded: false };

/** Largest read into the archive's reused buffer (bigger files are rare and get a buffer of their own). */
const MAX_TRANSIENT_READ = 1024 * 1024;

/** Extensions of text files that are never compiled scripts, even when they start with B0 D0 (§4.1). */
const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(['.txt', '.als', '.ui']);

/** Opens an archive file read-only. IO_ERROR when it cannot be opened; INVALID_ARCHIVE when it is not a sound classic PVF. */
export async function openClassicArchive(path: string, options: OpenClassicArchiveOptions = {}): Promise<ClassicArchive> {
  const given = options.encoding === undefined ? undefined : normalizeEncodingName(options.encoding);
  const source = await openFileSource(path);
  try {
    return new ClassicArchive(source, given, source.identity);
  } catch (error) {
    await source.close();
    throw error;
  }
}

/** Opens an archive held in memory (tests, fuzzing); `label` names it in messages. */
export function openClassicArchiveBytes(bytes: Uint8Array, label: string, options: OpenClassicArchiveOptions = {}): ClassicArchive {
  const given = options.encoding === undefined ? undefined : normalizeEncodingName(options.encoding);
  return new ClassicArchive(bytesSource(bytes, label), given, null);
}

export class ClassicArchive {
  readonly label: string;
  readonly size: number;
  readonly header: ClassicHeader;
  readonly tree: TreeEntries;
  readonly index: NameIndex;
  readonly encoding: EncodingDetection;
  /** Sampled strings the encoding in use fails on (known without finishing the other candidates). */
  private readonly encodingFailures: number;
  /** The file version opened (null for bytes in memory). */
  readonly identity: FileIdentity | null;

  private readonly source: ArchiveSource;
  private readonly stringTableResult: StringTableResult;
  private nStringList: NStringList | { missing: string } | undefined;
  private readonly strTables = new Map<string, StrTable | { missing: string }>();
  private readonly texts = new LruCache<number, ArchiveText>(TEXT_CACHE_UNITS, (text) => text.text.length, MAX_CACHED_TEXT_UNITS);
  private readonly memo = new DecompileMemo();
  /** Token arrays of decompileBytes (never re-entered: link lookups read n_string.lst without it). */
  private readonly scratch = new TokenScratch();
  /** Where readText reads a file's bytes (valid until its next read). */
  private readBuffer = new Uint8Array(64 * 1024);
  /** The decompiler's output buffer and pairing arrays (same rule: one read at a time). */
  private readonly decompileScratch = new DecompileScratch();
  /** The last path resolved by file() and its node: a workspace read resolves the same path twice. */
  private lastPath = '';
  private lastNode: FileNode | null = null;

  /** Use openClassicArchive / openClassicArchiveBytes. */
  constructor(source: ArchiveSource, givenEncoding: string | undefined, identity: FileIdentity | null) {
    this.source = source;
    this.label = source.label;
    this.size = source.size;
    this.identity = identity;
    const start = source.read(0, Math.min(source.size, HEADER_PROBE_BYTES));
    this.header = parseClassicHeader(start, source.size, this.label);
    const encryptedTree = source.read(this.header.treeOffset, this.header.treeLength);
    this.tree = decodeTree(encryptedTree, this.header, source.size, this.label);
    this.index = new NameIndex(this.tree);
    const raw = this.loadRawStringTable();
    const verdict = detectEncodingIn('table' in raw ? raw.table : NO_STRINGS, givenEncoding);
    this.encoding = verdict.detection;
    this.encodingFailures = verdict.chosenFailures;
    this.stringTableResult = 'table' in raw ? { table: decodeStringTable(raw.table, this.encoding.encoding) } : raw;
  }

  /** Files reachable by path (duplicates and unusable names left out). */
  get fileCount(): number {
    return this.index.fileCount;
  }

  /** Problems worth reporting that do not stop reading (skipped names, duplicates, encoding doubts). */
  warnings(): string[] {
    const warnings: string[] = [];
    for (const s of this.index.skipped) warnings.push(`tree entry ${s.entry} (${JSON.stringify(s.name)}) is not listed: ${s.problem}`);
    if (this.index.skippedCount > this.index.skipped.length) warnings.push(`${this.index.skippedCount - this.index.skipped.length} more tree entries are not listed`);
    if (this.index.duplicates > 0) warnings.push(`${this.index.duplicates} tree entries repeat an earlier name; lookups use the first`);
    const e = this.encoding;
    const failed = this.encodingFailures;
    if (failed > 0) {
      // A detected encoding has the fewest failures of all: only a given one can have a better candidate.
      const better = e.source === 'given' ? Object.entries(e.failures).filter(([, n]) => n < failed).sort((a, b) => a[1] - b[1])[0] : undefined;
      warnings.push(
        `${failed} of ${e.sampled} sampled non-ASCII strings of stringtable.bin do not decode in ${e.encoding} (${e.source})` +
          (better ? `; ${better[0]} fails on ${better[1]}: pass --encoding ${better[0]} if the text looks garbled` : ''),
      );
    }
    if ('error' in this.stringTableResult) warnings.push(this.stringTableResult.error.message);
    return warnings;
  }

  // --- Paths ---

  /** The file at a path (case-insensitive), or null. INVALID_ARGUMENT for `..`, absolute paths, drive letters. */
  resolve(path: string): FileNode | null {
    const canonical = normalizeArchivePath(path);
    if (canonical === '') return null;
    const entry = this.index.find(foldPath(canonical));
    return entry < 0 ? null : this.index.fileNode(entry);
  }

  /** One folder level: folders first, then files, each by name (case-insensitive, then exact). FILE_NOT_FOUND for an unknown folder. */
  list(path: string): (FileNode | DirNode)[] {
    const canonical = normalizeArchivePath(path);
    const dir = this.index.findDir(foldPath(canonical));
    if (dir < 0) {
      const isFile = this.index.find(foldPath(canonical)) >= 0;
      throw new PvfdocError('FILE_NOT_FOUND', isFile ? `${canonical} is a file, not a folder` : `folder ${JSON.stringify(canonical)} is not in the archive`, {
        hint: isFile ? 'List its folder instead; read or explain the file itself.' : 'List the parent folder (or the root with an empty path) to see what exists.',
        data: { path: canonical },
      });
    }
    return this.index.children(dir).sort((a, b) => {
      if (a.kind !== b.kind) return a.kind === 'directory' ? -1 : 1;
      return compare(a.name.toLowerCase(), b.name.toLowerCase()) || compare(a.name, b.name);
    });
  }

  /** The file at a path or FILE_NOT_FOUND. */
  file(path: string): FileNode {
    const last = this.lastNode;
    if (last !== null && (path === this.lastPath || path === last.path)) return last;
    const node = this.resolve(path);
    if (!node) {
      const canonical = normalizeArchivePath(path);
      throw new PvfdocError('FILE_NOT_FOUND', `file ${JSON.stringify(canonical)} is not in the archive`, {
        hint: 'Use list_files to see the files of a folder; paths are relative to the archive root.',
        data: { path: canonical },
      });
    }
    this.lastPath = path;
    this.lastNode = node;
    return node;
  }

  // --- Reads ---

  /**
   * The plaintext of tree entry `entry` (`path` names it in errors), read at its offset and checked
   * against its CRC. A mismatch is INVALID_ARCHIVE, or STALE_WORKSPACE when the file on disk changed
   * since it was opened.
   */
  readEntry(entry: number, path: string, transient = false): Uint8Array {
    const length = this.tree.dataLength[entry] as number;
    const expected = this.tree.dataCrc[entry] as number;
    const hash = this.tree.nameHash[entry] as number;
    const block = blockLength(length);
    const position = this.header.dataBase + (this.tree.dataOffset[entry] as number);
    const bytes = block === 0 ? new Uint8Array(0) : this.source.read(position, block, transient ? this.transientBuffer(block) : undefined);
    if (bytes.length < block) {
      if (this.source.changed()) throw archiveChanged(this.label);
      throw invalidArchiveFile(this.label, path, `truncated: only ${bytes.length} of its ${block} bytes at offset ${position} could be read`);
    }
    decryptBlock(bytes, expected);
    bytes.fill(0, length);
    const actual = crc32(bytes, hash);
    // Accept the unpadded CRC too (some writers, e.g. Zageku, compute it that way; §2.4): still a full check.
    if (actual !== expected && (length % 4 === 0 || crc32(bytes.subarray(0, length), hash) !== expected)) {
      if (this.source.changed()) throw archiveChanged(this.label);
      throw invalidArchiveFile(this.label, path, `file CRC mismatch: the tree says ${hex32(expected)}, the decrypted data gives ${hex32(actual)} (the file's data is damaged)`, {
        expected,
        actual,
      });
    }
    return bytes.subarray(0, length);
  }

  /**
   * The buffer a transient read goes into (grown up to MAX_TRANSIENT_READ; larger reads get their own):
   * a random read then allocates no ArrayBuffer, whose external memory would bring on more scavenges.
   */
  private transientBuffer(block: number): Uint8Array | undefined {
    if (block > MAX_TRANSIENT_READ) return undefined;
    if (block > this.readBuffer.length) {
      let size = this.readBuffer.length * 2;
      while (size < block) size *= 2;
      this.readBuffer = new Uint8Array(size);
    }
    return this.readBuffer;
  }

  /** Raw bytes of a file (CRC-verified). FILE_NOT_FOUND when absent. */
  readFile(path: string): Uint8Array {
    const node = this.file(path);
    return this.readEntry(node.entry, node.path);
  }

  /** Whether a file's bytes are a compiled script (B0 D0, and not a table or text extension). */
  isCompiled(path: string, bytes: Uint8Array): boolean {
    const ext = extensionOf(path);
    return isCompiledScript(bytes) && !NON_SCRIPT_EXTENSIONS.has(ext) && !TEXT_EXTENSIONS.has(ext);
  }

  /**
   * Canonical text of a file: compiled scripts (and `.lst`) and binary `.ani` decompiled; other files decoded with the
   * archive's text encoding (a BOM decides over it). Texts of MIN_CACHED_TEXT_UNITS and more are
   * cached per archive version; smaller ones are made again.
   */
  readText(path: string): ArchiveText {
    const node = this.file(path);
    const cached = this.texts.get(node.entry);
    if (cached) return cached;
    // Transient: decompiled or decoded before any other read of this kind.
    const bytes = this.readEntry(node.entry, node.path, true);
    let result: ArchiveText;
    if (this.isCompiled(node.path, bytes)) {
      const decompiled = this.decompileBytes(node.path, bytes);
      result = { path: node.path, text: decompiled.text, textRevision: textRevisionOf(decompiled.text), isScript: true, source: 'script', missingLinks: decompiled.missingLinks };
    } else if (foldPath(node.path) === STRINGTABLE_PATH && 'table' in this.stringTableResult) {
      const text = normalizeText(stringTableText(this.stringTableResult.table));
      result = { path: node.path, text, textRevision: textRevisionOf(text), isScript: false, source: 'text', missingLinks: [] };
    } else {
      const ani = binaryAniText(node.path, bytes, (b) => decodeText(b, this.encoding.encoding));
      if (ani !== null) {
        result = { path: node.path, text: ani.text, textRevision: ani.textRevision, isScript: true, source: 'script', missingLinks: [] };
      } else {
        const text = normalizeText(decodeTextFile(bytes, this.encoding.encoding).text);
        result = { path: node.path, text, textRevision: textRevisionOf(text), isScript: isScriptFile(node.path, bytes), source: 'text', missingLinks: [] };
      }
    }
    if (result.text.length >= MIN_CACHED_TEXT_UNITS) this.texts.set(node.entry, result);
    return result;
  }

  /** Decompiles a compiled script's bytes (INVALID_ARCHIVE for a bad token type or string index). */
  decompileBytes(path: string, bytes: Uint8Array): { text: string; missingLinks: MissingLink[] } {
    const tokens = readScriptTokens(bytes, this.label, path, this.scratch);
    const table = this.stringTableResult;
    return decompileScript(tokens, {
      archive: this.label,
      path,
      stringCount: 'table' in table ? table.table.count : 0,
      string: (i) => ('table' in table ? table.table.get(i) : ''),
      linkText: (id, key) => this.linkText(id, key),
      ...('table' in table ? {} : 'error' in table ? { stringTableError: table.error } : { stringTableProblem: table.missing }),
    }, this.memo, this.decompileScratch);
  }

  /** `stringtable.bin`, or why it is unusable (missing, damaged). */
  stringTable(): StringTableResult {
    return this.stringTableResult;
  }

  /** The `.str` text of a string link (`<table::key>`), or why there is none. */
  linkText(table: number, key: string): { text: string } | { missing: string } {
    const list = this.loadNStringList();
    if ('missing' in list) return list;
    const strPath = strPathOf(list, table);
    if (strPath === null) return { missing: `${N_STRING_PATH} has no table ${table}` };
    const strings = this.loadStrTable(strPath);
    if ('missing' in strings) return strings;
    const text = strings.get(key);
    return text === undefined ? { missing: `${strPath} (table ${table}) has no key ${JSON.stringify(key)}` } : { text };
  }

  /** Closes the file; later reads throw STALE_WORKSPACE. */
  async close(): Promise<void> {
    this.texts.clear();
    await this.source.close();
  }

  // --- Internals ---

  private loadRawStringTable(): { table: RawStringTable } | { error: PvfdocError } | { missing: string } {
    const node = this.fileAt(STRINGTABLE_PATH);
    if (!node) return { missing: `${STRINGTABLE_PATH} is not in the archive` };
    try {
      return { table: parseStringTable(this.readEntry(node.entry, node.path), this.label, node.path) };
    } catch (error) {
      if (error instanceof PvfdocError && error.code !== 'STALE_WORKSPACE') return { error };
      throw error;
    }
  }

  /** The file at a folded canonical path, or null. */
  private fileAt(folded: string): FileNode | null {
    const entry = this.index.find(folded);
    return entry < 0 ? null : this.index.fileNode(entry);
  }

  private requireStringTable(path: string): StringTable {
    const result = this.stringTable();
    if ('table' in result) return result.table;
    if ('error' in result) throw result.error;
    throw invalidArchiveFile(this.label, path, `refers to strings, but ${result.missing}`);
  }

  private loadNStringList(): NStringList | { missing: string } {
    if (this.nStringList) return this.nStringList;
    const node = this.fileAt(N_STRING_PATH);
    if (!node) return (this.nStringList = { missing: `${N_STRING_PATH} is not in the archive` });
    const bytes = this.readEntry(node.entry, node.path);
    if (!this.isCompiled(node.path, bytes)) return (this.nStringList = { missing: `${N_STRING_PATH} is not a compiled script` });
    const tokens = readScriptTokens(bytes, this.label, node.path);
    const pairs: { id: number; path: string }[] = [];
    for (let i = 0; i + 1 < tokens.count; i++) {
      if (tokens.types[i] !== TokenType.Int || tokens.types[i + 1] !== TokenType.String) continue;
      const table = this.requireStringTable(node.path);
      const index = tokens.values[i + 1] as number;
      if (index < 0 || index >= table.count) {
        throw invalidArchiveFile(this.label, node.path, `token ${i + 1} refers to string ${index}, out of range: stringtable.bin has ${table.count} strings`, { stringIndex: index });
      }
      pairs.push({ id: tokens.values[i] as number, path: table.get(index) });
      i++;
    }
    return (this.nStringList = parseNStringList(pairs));
  }

  private loadStrTable(path: string): StrTable | { missing: string } {
    const cached = this.strTables.get(path);
    if (cached) return cached;
    const node = this.fileAt(foldPath(path));
    let table: StrTable | { missing: string };
    if (!node) table = { missing: `${path} is not in the archive` };
    // The table keeps the file's bytes (its own read, never the reused buffer) and decodes on lookup.
    else table = openStrTable(this.readEntry(node.entry, node.path), this.encoding.encoding);
    this.strTables.set(path, table);
    return table;
  }

}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

