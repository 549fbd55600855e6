/**
 * An nkpi-family Script.pvf (pvfine 90US / 90CN; pvf-nkpi-format) opened read-only. Open reads the
 * header, the file table, the name table and GRPI, checks every file's string offsets against the
 * sizes the pools state, and checks chunk 0; HASH is never read (no reader needs it, §6). The pools are
 * inflated and the path index built on first need (a path, a listing, the file count, the warnings),
 * so an open costs little more than reading the file table. File payloads are read lazily: a chunk is
 * inflated when one of its files is read, and kept in a byte-bounded LRU cache. One NkpiArchive is one
 * immutable version of the file; a new version on disk is a new NkpiArchive (the workspace decides).
 *
 * Texts: DataType 1 payloads are token scripts rendered as pvfine's text dialect (render-script.ts);
 * DataType 3 payloads are UTF-16LE text (BOM optional); other types are opaque bytes shown as UTF-8.
 */
import { textRevisionOf } from '../script/decode-text.js';
import { archiveChanged, bytesSource, openFileSource, type ArchiveSource, type FileIdentity } from '../script/archive-source.js';
import { PvfdocError } from '../errors.js';
import { normalizeText } from '../script/normalize-text.js';
import { LruCache, MAX_CACHED_TEXT_UNITS, TEXT_CACHE_UNITS } from '../script/lru-cache.js';
import { extensionOf, foldPath, isScriptFile, NON_SCRIPT_EXTENSIONS, normalizeArchivePath } from '../script/archive-path.js';
import { describeChunkLimit, parseGroupIndex, type GroupIndex } from './groups.js';
import { clientVersionOf, NKPI_HEADER_BYTES, probeNkpiHeader, type NkpiHeader, type NkpiVariant } from './header.js';
import { LCG_MAIN, type NkpiKeySet } from './keystream.js';
import { checkStringOffsets, FILE_ITEM_BYTES, type StringField } from './file-table.js';
import { bytesText, NKPI_HINT, nkpiError, nkpiFileError } from './nkpi-error.js';
import { pagedSource } from './paged.js';
import { PathIndex, type NkpiDir } from './path-index.js';
import { DEFAULT_MAX_POOL_BYTES, describeOffset, parseNameTable, poolLimitsFor, type PoolSizes, type StringPools } from './pools.js';
import { readNkpiTokens, renderNkpiScript, type NkpiTokens, type RenderRules } from './render-script.js';
import { inflateLimited } from './zlib-limits.js';

/** Largest inflated chunk read by default (a 110US chunk holds a 51 MB `.str`). */
export const DEFAULT_MAX_CHUNK_BYTES = 128 * 1024 * 1024;
/** Inflated chunks kept per archive version (pvfine uses a 64 MiB LRU too). */
const DEFAULT_CHUNK_CACHE_BYTES = 64 * 1024 * 1024;
const DataType = { Script: 1, Text: 3 } as const;

export interface OpenNkpiArchiveOptions {
  /** Largest inflated chunk read (zip-bomb guard); default 128 MiB. */
  maxChunkBytes?: number;
  /** Bytes of inflated chunks cached; default 64 MiB. */
  chunkCacheBytes?: number;
  /** Largest inflated string pool; default 1 GiB. */
  maxPoolBytes?: number;
  /** Layout rules of the rendered scripts (default: pvfine's, PVFINE_RENDER_RULES). */
  renderRules?: RenderRules;
  /**
   * Unwrapped Paged110 page keys (32 bytes each, page i → key i). With them the archive is read as a
   * Paged110 (110US) archive; pvfdoc ships no keys and does not unwrap `sk.dat`.
   */
  pageKeys?: readonly Uint8Array[];
}

interface NkpiEntry {
  kind: 'file' | 'directory';
  name: string;
  /** Archive path, stored case. */
  path: string;
  /** Payload bytes for files; null for folders. */
  size: number | null;
  /** File table index (files only). */
  entry: number;
}

interface NkpiText {
  path: string;
  /** Canonical text, `\n` line ends. */
  text: string;
  /** sha256 of `text` (32 hex digits, the folder workspace's formula). */
  textRevision: string;
  isScript: boolean;
  /** `script`: rendered tokens (DataType 1); `text`: UTF-16 text (3); `bytes`: other types, as UTF-8. */
  source: 'script' | 'text' | 'bytes';
  dataType: number;
}

/** Opens an nkpi archive file read-only. IO_ERROR when it cannot be opened; INVALID_ARCHIVE when it is not a sound nkpi archive. */
export async function openNkpiArchive(path: string, options: OpenNkpiArchiveOptions = {}): Promise<NkpiArchive> {
  const source = await openFileSource(path);
  try {
    return new NkpiArchive(source, source.identity, options);
  } catch (error) {
    await source.close();
    throw error;
  }
}

/** Opens an nkpi archive held in memory (tests, fuzzing); `label` names it in messages. */
export function openNkpiArchiveBytes(bytes: Uint8Array, label: string, options: OpenNkpiArchiveOptions = {}): NkpiArchive {
  return new NkpiArchive(bytesSource(bytes, label), null, options);
}

export class NkpiArchive {
  readonly label: string;
  readonly size: number;
  readonly identity: FileIdentity | null;
  readonly variant: NkpiVariant;
  readonly clientVersion: '90US' | '90CN' | '110US';
  readonly keys: NkpiKeySet;
  readonly guard: boolean;
  readonly header: NkpiHeader;
  readonly groups: GroupIndex;
  /** The 8 name-table bytes before the pools (kept, never interpreted). */
  readonly namePrefix: Uint8Array;
  /** What the pools state they inflate to (checked at open; the inflated pools match it exactly). */
  readonly poolSizes: PoolSizes;
  /** Absolute offsets of the sections. */
  readonly offsets: { table: number; hash: number; names: number; grpi: number; body: number };

  private readonly source: ArchiveSource;
  private readonly table: DataView;
  private readonly chunks: LruCache<number, Buffer>;
  private readonly maxChunkBytes: number;
  private readonly renderRules: RenderRules | undefined;
  private readonly texts = new LruCache<number, NkpiText>(TEXT_CACHE_UNITS, (text) => text.text.length, MAX_CACHED_TEXT_UNITS);
  private readonly listings = new Map<number, NkpiEntry[]>();
  private readonly notes: string[] = [];
  private nameTableTrailing = 0;
  private droppedTokens = 0;
  /** Inflates the pools; null once they are (or once that failed). */
  private inflatePools: (() => StringPools) | null;
  private names: { pools: StringPools; index: PathIndex } | null = null;
  /** Why the pools or the index could not be made: thrown again by every later use. */
  private namesFailure: unknown = null;

  /** Use openNkpiArchive / openNkpiArchiveBytes. */
  constructor(source: ArchiveSource, identity: FileIdentity | null, options: OpenNkpiArchiveOptions = {}) {
    const paged = options.pageKeys !== undefined;
    this.source = paged ? pagedSource(source, options.pageKeys ?? []) : source;
    this.label = source.label;
    this.size = source.size;
    this.identity = identity;
    this.maxChunkBytes = options.maxChunkBytes ?? DEFAULT_MAX_CHUNK_BYTES;
    this.chunks = new LruCache<number, Buffer>(options.chunkCacheBytes ?? DEFAULT_CHUNK_CACHE_BYTES, (chunk) => chunk.length);
    this.renderRules = options.renderRules;
    const label = this.label;

    const probe = probeNkpiHeader(this.source.read(0, NKPI_HEADER_BYTES), this.size, { paged });
    if (!probe.ok) throw nkpiError(label, probe.problem, { family: probe.keys ? 'nkpi' : 'unknown' });
    const { header, keys } = probe.ok;
    this.variant = probe.ok.variant;
    this.clientVersion = clientVersionOf(this.variant);
    this.keys = keys;
    this.guard = probe.ok.guard;
    this.header = header;

    const table = NKPI_HEADER_BYTES;
    const hash = table + FILE_ITEM_BYTES * header.fileCount;
    const names = hash + header.hashTableSize;
    const grpi = names + header.nameTableSize;
    const body = grpi + 8 * header.groupCount;
    this.offsets = { table, hash, names, grpi, body };

    const tableBytes = this.readSection(table, FILE_ITEM_BYTES * header.fileCount, 'file table');
    this.table = new DataView(tableBytes.buffer, tableBytes.byteOffset, tableBytes.byteLength);
    const nameTable = parseNameTable(this.readSection(names, header.nameTableSize, 'name table'), keys, label, poolLimitsFor(this.size, options.maxPoolBytes ?? DEFAULT_MAX_POOL_BYTES));
    this.inflatePools = nameTable.inflate;
    this.poolSizes = nameTable.sizes;
    this.namePrefix = nameTable.prefix;
    this.nameTableTrailing = nameTable.trailing;
    this.groups = parseGroupIndex(this.readSection(grpi, 8 * header.groupCount, 'chunk index (GRPI)'), header.groupCount, header.bodySize, keys, label);
    // pvfine checks chunk 0 at open (§3.1); the others are checked when read.
    if (this.groups.count > 0) this.chunk(0, null);
    checkStringOffsets(this.table, header.fileCount, this.poolSizes, (e, field, offset) => this.offsetOutOfRange(e, field, offset));
  }

  /** The inflated name pools (inflated on first use). */
  get pools(): StringPools {
    return this.ready().pools;
  }

  /** The path index (built on first use). */
  get index(): PathIndex {
    return this.ready().index;
  }

  /**
   * Inflates the pools and builds the index once. A failure (a pool that does not inflate to its stated
   * size) is this version's for good: every later use throws the same error, and the file is released
   * at once, since the workspace drops a version whose file count it cannot read without closing it.
   */
  private ready(): { pools: StringPools; index: PathIndex } {
    if (this.names) return this.names;
    if (this.inflatePools === null) throw this.namesFailure;
    const inflate = this.inflatePools;
    this.inflatePools = null;
    try {
      const pools = inflate();
      const index = new PathIndex({
        fileCount: this.header.fileCount,
        table: this.table,
        pools,
        outOfRange: (e, field, offset) => this.offsetOutOfRange(e, field, offset),
      });
      this.names = { pools, index };
      return this.names;
    } catch (error) {
      this.namesFailure = error;
      this.texts.clear();
      this.chunks.clear();
      void this.source.close().catch(() => undefined);
      throw error;
    }
  }

  private offsetOutOfRange(e: number, field: StringField, offset: number): never {
    throw nkpiError(this.label, `file table item ${e}: its ${field} points past the end of its string pool (${describeOffset(offset, this.poolSizes)})`, { entry: e, field, stringOffset: offset });
  }

  /** Files reachable by path (duplicates and unusable names left out). */
  get fileCount(): number {
    return this.index.listed;
  }

  /** Problems worth reporting that do not stop reading. */
  warnings(): string[] {
    const warnings = [...this.notes];
    for (const s of this.index.skipped) warnings.push(`file table item ${s.entry} (${JSON.stringify(s.name)}) is not listed: ${s.problem}`);
    if (this.index.skippedCount > this.index.skipped.length) warnings.push(`${this.index.skippedCount - this.index.skipped.length} more file table items are not listed`);
    if (this.index.duplicates > 0) warnings.push(`${this.index.duplicates} file table items repeat an earlier path; lookups use the first`);
    if (this.nameTableTrailing > 0) warnings.push(`the name table has ${this.nameTableTrailing} bytes after the sTrW pool (ignored)`);
    if (this.droppedTokens > 0) warnings.push(`${this.droppedTokens} script tokens of unknown types (1, 4, 9, 11+) were left out of the texts read so far, as pvfine does`);
    return warnings;
  }

  // --- Paths ---

  /** The file table index of a path (case-insensitive), or -1. INVALID_ARGUMENT for `..`, absolute paths, drive letters. */
  resolve(path: string): number {
    const canonical = normalizeArchivePath(path);
    if (canonical === '') return -1;
    return this.index.find(foldPath(canonical));
  }

  /** The stored path of a listed entry. */
  pathOf(entry: number): string {
    return this.index.pathOf(entry);
  }

  /** Payload size of an entry (a negative DataSize reads as 0). */
  sizeOf(entry: number): number {
    return Math.max(0, this.table.getInt32(FILE_ITEM_BYTES * entry + 16, true));
  }

  dataTypeOf(entry: number): number {
    return this.table.getInt32(FILE_ITEM_BYTES * entry + 20, true);
  }

  /** One folder level: folders first, then files, each by name (case-insensitive, then exact). FILE_NOT_FOUND for an unknown folder. */
  list(path: string): NkpiEntry[] {
    const canonical = normalizeArchivePath(path);
    const dirId = this.index.findDir(foldPath(canonical));
    if (dirId < 0) {
      const isFile = canonical !== '' && this.index.find(foldPath(canonical)) >= 0;
      throw new PvfdocError('FILE_NOT_FOUND', isFile ? `${canonical} is a file, not a folder` : `folder ${JSON.stringify(canonical)} is not in the archive`, {
        hint: isFile ? 'List its folder instead; read or explain the file itself.' : 'List the parent folder (or the root with an empty path) to see what exists.',
        data: { path: canonical },
      });
    }
    const cached = this.listings.get(dirId);
    if (cached) {
      this.listings.delete(dirId);
      this.listings.set(dirId, cached);
      return cached.map((e) => ({ ...e }));
    }
    const dir = this.index.dirs[dirId] as NkpiDir;
    const folders: NkpiEntry[] = dir.subdirs.map((id) => {
      const sub = this.index.dirs[id] as NkpiDir;
      return { kind: 'directory', name: sub.name, path: sub.path, size: null, entry: -1 };
    });
    const files: NkpiEntry[] = [];
    for (let k = dir.fileStart; k < dir.fileStart + dir.fileCount; k++) {
      const e = this.index.order[k] as number;
      const name = this.index.nameOf(e);
      files.push({ kind: 'file', name, path: dir.path === '' ? name : `${dir.path}/${name}`, size: this.sizeOf(e), entry: e });
    }
    const byName = (a: NkpiEntry, b: NkpiEntry) => compare(a.name.toLowerCase(), b.name.toLowerCase()) || compare(a.name, b.name);
    const listing = [...folders.sort(byName), ...files.sort(byName)];
    this.listings.set(dirId, listing);
    if (this.listings.size > 16) {
      const oldest = this.listings.keys().next().value;
      if (oldest !== undefined) this.listings.delete(oldest);
    }
    return listing.map((e) => ({ ...e }));
  }

  /** The entry of a file or FILE_NOT_FOUND. */
  file(path: string): number {
    const entry = this.resolve(path);
    if (entry < 0) {
      const canonical = normalizeArchivePath(path);
      throw new PvfdocError('FILE_NOT_FOUND', `file ${JSON.stringify(canonical)} is not in the archive`, {
        hint: 'Use list_files to see the files of a folder; paths are relative to the archive root.',
        data: { path: canonical },
      });
    }
    return entry;
  }

  // --- Reads ---

  /** Raw payload bytes of a file (a copy). FILE_NOT_FOUND when absent. */
  readFile(path: string): Uint8Array {
    const entry = this.file(path);
    return Uint8Array.from(this.payload(entry));
  }

  /** The payload of an entry as a view into its cached chunk (do not modify). */
  payload(entry: number): Uint8Array {
    const path = this.index.pathOf(entry);
    const size = this.table.getInt32(FILE_ITEM_BYTES * entry + 16, true);
    if (size <= 0) return new Uint8Array(0);
    const chunk = this.table.getInt32(FILE_ITEM_BYTES * entry + 8, true);
    const offset = this.table.getInt32(FILE_ITEM_BYTES * entry + 12, true);
    if (chunk < 0 || chunk >= this.groups.count) {
      throw nkpiFileError(this.label, path, `its file table item ${entry} names chunk ${chunk}, but the archive has ${this.groups.count} chunks`, { entry, chunk });
    }
    const orig = this.groups.orig[chunk] as number;
    if (offset < 0 || offset + size > orig) {
      throw nkpiFileError(this.label, path, `its ${size} bytes at offset ${offset} lie outside chunk ${chunk}, which inflates to ${orig} bytes`, { entry, chunk, offset, size });
    }
    return this.chunk(chunk, path).subarray(offset, offset + size);
  }

  /** Script tokens of a DataType-1 file. */
  tokens(path: string): NkpiTokens {
    return readNkpiTokens(this.payload(this.file(path)));
  }

  /** Canonical text of a file (cached per archive version). */
  readText(path: string): NkpiText {
    const entry = this.file(path);
    const cached = this.texts.get(entry);
    if (cached) return cached;
    const stored = this.index.pathOf(entry);
    const bytes = this.payload(entry);
    const dataType = this.dataTypeOf(entry);
    let result: NkpiText;
    if (dataType === DataType.Script) {
      const rendered = renderNkpiScript(readNkpiTokens(bytes), {
        archive: this.label,
        path: stored,
        string: (offset) => this.pools.stringAt(offset),
        describeOffset: (offset) => this.pools.describe(offset),
        ...(this.renderRules ? { rules: this.renderRules } : {}),
      });
      this.droppedTokens += rendered.dropped;
      const text = normalizeText(rendered.text);
      result = { path: stored, text, textRevision: textRevisionOf(text), isScript: !NON_SCRIPT_EXTENSIONS.has(extensionOf(stored)), source: 'script', dataType };
    } else if (dataType === DataType.Text) {
      const text = normalizeText(new TextDecoder('utf-16le').decode(bytes));
      result = { path: stored, text, textRevision: textRevisionOf(text), isScript: !NON_SCRIPT_EXTENSIONS.has(extensionOf(stored)) && !text.includes('\u0000'), source: 'text', dataType };
    } else {
      const text = normalizeText(decodeOpaque(bytes));
      result = { path: stored, text, textRevision: textRevisionOf(text), isScript: isScriptFile(stored, bytes), source: 'bytes', dataType };
    }
    this.texts.set(entry, result);
    return result;
  }

  /** Closes the file; later reads throw STALE_WORKSPACE. */
  async close(): Promise<void> {
    this.texts.clear();
    this.chunks.clear();
    this.listings.clear();
    await this.source.close();
  }

  // --- Internals ---

  /** Inflated chunk `i` (cached). `path` names the file being read, null at open. */
  chunk(i: number, path: string | null): Buffer {
    const cached = this.chunks.get(i);
    if (cached) return cached;
    const orig = this.groups.orig[i] as number;
    const start = this.offsets.body + (i > 0 ? (this.groups.cum[i - 1] as number) : 0);
    const end = this.offsets.body + (this.groups.cum[i] as number);
    const what = `chunk ${i} (body bytes ${start}..${end}${path === null ? '' : `, holding ${path}`})`;
    if (orig > this.maxChunkBytes) throw nkpiError(this.label, `${what} ${describeChunkLimit(orig, this.maxChunkBytes)}`, { chunk: i, orig, limit: this.maxChunkBytes });
    const stored = this.source.read(start, end - start);
    // No checksum ties a chunk to this version's file table: a file rewritten in place is refused here.
    if (this.source.changed()) throw archiveChanged(this.label);
    if (stored.length < end - start) throw nkpiError(this.label, `truncated: ${what} runs past the end of the file (${this.size} bytes)`, { chunk: i });
    const inflated = inflateLimited(Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength), this.keys.body, LCG_MAIN, orig, (problem) =>
      this.source.changed() ? archiveChanged(this.label) : nkpiError(this.label, `${what} ${problem} (key ${this.keys.name})`, { chunk: i, orig }),
    );
    this.chunks.set(i, inflated);
    return inflated;
  }

  private readSection(position: number, length: number, what: string): Uint8Array {
    const bytes = this.source.read(position, length);
    if (bytes.length < length) {
      throw nkpiError(this.label, `truncated: the ${what} (${length} bytes at offset ${position}) runs past the end of the file (${this.size} bytes)`, { section: what }, NKPI_HINT);
    }
    return bytes;
  }

  /** Bytes of inflated chunks cached now. */
  get cachedChunkBytes(): number {
    return this.chunks.size;
  }

  /** A one-line description for messages and workspace info. */
  describe(): string {
    return `nkpi ${this.variant} (${this.clientVersion}), ${this.header.fileCount} files in ${this.groups.count} chunks, ${bytesText(this.size)}`;
  }
}

/** Opaque payloads: UTF-8 (a UTF-8 or UTF-16 BOM decides), invalid bytes as U+FFFD. */
function decodeOpaque(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

