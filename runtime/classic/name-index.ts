/**
 * The path index of a classic archive (§2.6), built at open from the decrypted tree and sized for
 * hundreds of thousands of files: per entry only typed arrays (folded-path hash, folder id) and one
 * open-addressing table of entry numbers; per folder a few strings. Names stay bytes in the tree and
 * become strings only when a lookup, a listing or a read asks for them; the per-folder listing is
 * grouped on the first list.
 *
 * Rules (unchanged from the map-based index it replaced): lookups are case-insensitive on the
 * canonical path (`\` as `/`, leading `/` and empty or `.` segments dropped); the first entry of a path
 * in stored order wins and later ones count as duplicates; a name that cannot be a path (a `..`
 * segment, control characters, nothing left) is skipped, and so is a name that, in stored order, meets
 * a folder of its own path or needs a folder where a file already is.
 *
 * Hash: FNV-1a over words of four UTF-16 code units of the folded path (30 bits kept). For the common
 * name (printable ASCII, already canonical) that is its bytes with A-Z folded, four at a time straight
 * from the tree; a folder's hash is the state reached at its `/`, so finding a file's folder costs no
 * string. The loops over every entry and the tables they fill are in name-tables.ts, as functions of
 * typed arrays and plain records (why: its header); this class keeps the rules, the rare names and
 * the lookups.
 */
import { foldPath, normalizeStoredName } from '../script/archive-path.js';
import { decodeName } from './names.js';
import {
  bytesEqualFolded,
  emptyEntrySlots,
  findFolder,
  hashString,
  insertFolder,
  insertUntilDuplicate,
  regionOrder,
  rootFolderTable,
  sameFoldedBytes,
  scanPlainEntries,
  scanPlainName,
  type EntryScan,
  type EntrySlots,
  type FolderTable,
} from './name-tables.js';
import type { TreeEntries } from './tree.js';

export interface FileNode {
  kind: 'file';
  /** Tree entry index. */
  entry: number;
  /** Archive path, stored case. */
  path: string;
  name: string;
  size: number;
}

export interface DirNode {
  kind: 'directory';
  path: string;
  name: string;
}

interface SkippedName {
  entry: number;
  name: string;
  problem: string;
}

/** Skipped names kept for warnings (the rest are only counted). */
const SKIPPED_KEPT = 20;

export class NameIndex {
  /** Files reachable by path. */
  readonly fileCount: number;
  /** Later entries whose name repeats an earlier one (kept in the tree, not reachable). */
  readonly duplicates: number;
  /** Entries not listed: the first few with the reason, and how many in all. */
  readonly skipped: SkippedName[] = [];
  readonly skippedCount: number;
  /** Whether the index was built entry by entry in stored order (some folder has a file's path). */
  readonly builtInOrder: boolean;

  private readonly tree: TreeEntries;
  /** The decrypted tree: a plain view to scan, a Buffer to make strings. */
  private readonly raw: Uint8Array;
  private readonly bytes: Buffer;
  /** The same bytes read four at a time (unaligned little-endian words). */
  private readonly words: DataView;
  /** Folder id of each entry; -1 when it is not listed (duplicate, skipped). */
  private readonly fileDir: Int32Array;
  /** Listed entries by path hash. */
  private readonly table: EntrySlots;
  /** Canonical paths of entries whose stored name is not already one (rare). */
  private readonly overrides = new Map<number, string>();

  private folders: FolderTable = rootFolderTable();

  /** Per folder, its files then its folders (grouped on the first listing). */
  private grouped: { fileStart: Int32Array; files: Int32Array; dirStart: Int32Array; dirs: Int32Array } | null = null;

  constructor(tree: TreeEntries) {
    this.tree = tree;
    const n = tree.count;
    const bytes = new Uint8Array(tree.plainTree.buffer, tree.plainTree.byteOffset, tree.plainTree.byteLength);
    this.raw = bytes;
    this.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.fileDir = new Int32Array(n).fill(-1);
    this.table = emptyEntrySlots(n);
    let counts = this.buildBucketed();
    this.builtInOrder = counts === null;
    if (counts === null) {
      this.reset();
      counts = this.buildInOrder();
    }
    this.fileCount = counts.listed;
    this.duplicates = counts.duplicates;
    this.skippedCount = counts.skipped;
  }

  /**
   * The common case, cache-friendly: folders are made in stored order, then the files go into the
   * table sorted by the region of their home slot (a stable counting sort, so equal paths still meet in
   * stored order and the first wins), instead of one random probe per file. This equals the in-order
   * build unless some folder has the path of some file, where stored order decides which is skipped:
   * then it returns null (nothing kept) and the in-order build runs.
   */
  private buildBucketed(): { listed: number; duplicates: number; skipped: number } | null {
    const tree = this.tree;
    const n = tree.count;
    const s: EntryScan = { raw: this.raw, words: this.words, nameStart: tree.nameStart, nameLength: tree.nameLength, hashes: new Int32Array(n), fileDir: this.fileDir, folders: this.folders, scan: new Int32Array(3) };
    const scan = s.scan;
    let skipped = 0;
    // scanPlainEntries does the common entry; this loop body only the ones it stops at.
    for (let e = scanPlainEntries(s, 0); e < n; e = scanPlainEntries(s, e + 1)) {
      const start = tree.nameStart[e] as number;
      const end = start + (tree.nameLength[e] as number);
      const named = this.nameKey(e, start, end, scan);
      if (named !== null) {
        skipped++;
        if (this.skipped.length < SKIPPED_KEPT) this.skipped.push({ entry: e, name: named.name, problem: named.problem });
        continue;
      }
      const slash = scan[2] as number;
      let parent = 0;
      if (slash >= 0) {
        const path = this.overrides.get(e);
        parent = path === undefined ? this.findDirByKey(scan[1] as number, null, start, slash) : this.findDirByKey(scan[1] as number, foldPath(path.slice(0, slash)), 0, 0);
        if (parent < 0) parent = this.makeFolders(path === undefined ? this.bytes.toString('latin1', start, slash) : path.slice(0, slash), path === undefined ? start : -1);
      }
      s.hashes[e] = scan[0] as number;
      this.fileDir[e] = parent;
    }

    const order = regionOrder(this.fileDir, s.hashes, this.table.slots.length);
    const plain = new Uint8Array(n).fill(1);
    for (const e of this.overrides.keys()) plain[e] = 0;
    const samePath = (a: number, b: number): boolean => this.sameEntries(a, b);
    let duplicates = 0;
    for (let k = insertUntilDuplicate(this.table, order, 0, s, plain, samePath); k < order.length; k = insertUntilDuplicate(this.table, order, k + 1, s, plain, samePath)) {
      const e = order[k] as number;
      duplicates++;
      this.fileDir[e] = -1;
      this.overrides.delete(e);
    }
    // Stored order matters only where a folder and a file share a path: then build in order.
    for (let d = 1; d < this.folders.path.length; d++) if (this.find(this.folders.folded[d] as string) >= 0) return null;
    return { listed: order.length - duplicates, duplicates, skipped };
  }

  /** The rules in stored order, one entry at a time (any tree). */
  private buildInOrder(): { listed: number; duplicates: number; skipped: number } {
    const tree = this.tree;
    const n = tree.count;
    let listed = 0;
    let duplicates = 0;
    let skippedCount = 0;
    const skip = (entry: number, name: string, problem: string): void => {
      skippedCount++;
      if (this.skipped.length < SKIPPED_KEPT) this.skipped.push({ entry, name, problem });
    };
    const scan = new Int32Array(3);
    for (let e = 0; e < n; e++) {
      const start = tree.nameStart[e] as number;
      const end = start + (tree.nameLength[e] as number);
      const named = this.nameKey(e, start, end, scan);
      if (named !== null) {
        skip(e, named.name, named.problem);
        continue;
      }
      const h = scan[0] as number;
      const slash = scan[2] as number;
      const path = this.overrides.get(e);
      const folded = path === undefined ? null : foldPath(path);
      if (this.findEntry(h, e, folded, start, end) >= 0) {
        duplicates++;
        this.overrides.delete(e);
        continue;
      }
      if (this.findDirByKey(h, folded, start, end) >= 0) {
        skip(e, this.nameOf(e, start, end), 'a folder of the same name exists');
        this.overrides.delete(e);
        continue;
      }
      let parent = 0;
      if (slash >= 0) {
        parent = path === undefined ? this.findDirByKey(scan[1] as number, null, start, slash) : this.findDirByKey(scan[1] as number, foldPath(path.slice(0, slash)), 0, 0);
        if (parent < 0) parent = this.makeFolders(path === undefined ? this.bytes.toString('latin1', start, slash) : path.slice(0, slash), path === undefined ? start : -1);
        if (parent < 0) {
          skip(e, this.nameOf(e, start, end), 'a file of the same name as one of its folders exists');
          this.overrides.delete(e);
          continue;
        }
      }
      this.fileDir[e] = parent;
      this.insertEntry(e, h);
      listed++;
    }
    return { listed, duplicates, skipped: skippedCount };
  }

  /**
   * The key of entry e into `out` (hash, folder hash, last `/` or -1), or why its name is no path. A
   * name that is not plain gets its canonical path in `overrides`.
   */
  private nameKey(e: number, start: number, end: number, out: Int32Array): { name: string; problem: string } | null {
    if (scanPlainName(this.raw, this.words, start, end, out)) return null;
    const name = decodeName(this.raw.subarray(start, end));
    const normalized = normalizeStoredName(name);
    if ('problem' in normalized) return { name, problem: normalized.problem };
    const path = normalized.path;
    const cut = path.lastIndexOf('/');
    out[0] = hashString(foldPath(path));
    out[1] = cut >= 0 ? hashString(foldPath(path.slice(0, cut))) : 0;
    out[2] = cut;
    this.overrides.set(e, path);
    return null;
  }

  /** The stored name of entry e for a warning. */
  private nameOf(e: number, start: number, end: number): string {
    return this.overrides.get(e) !== undefined ? decodeName(this.raw.subarray(start, end)) : this.bytes.toString('latin1', start, end);
  }

  /** Puts entry e (hash h) in the table unless an entry of the same path is there (then false). */
  private insertEntry(e: number, h: number): boolean {
    const { slots, entryBits, tagShift } = this.table;
    const mask = slots.length - 1;
    const tag = h >>> tagShift;
    let slot = h & mask;
    for (;;) {
      const v = slots[slot] as number;
      if (v < 0) break;
      if (v >>> entryBits === tag && this.sameEntries(v & ((1 << entryBits) - 1), e)) return false;
      slot = (slot + 1) & mask;
    }
    slots[slot] = (tag << entryBits) | e;
    return true;
  }

  /** Whether entries a and b have the same folded path. */
  private sameEntries(a: number, b: number): boolean {
    const pa = this.overrides.get(a);
    const pb = this.overrides.get(b);
    if (pa !== undefined || pb !== undefined) return foldPath(this.pathOf(a)) === foldPath(this.pathOf(b));
    const { nameStart, nameLength } = this.tree;
    return sameFoldedBytes(this.raw, nameStart[a] as number, nameLength[a] as number, nameStart[b] as number, nameLength[b] as number);
  }

  /** Back to an empty index (before the in-order build). */
  private reset(): void {
    this.fileDir.fill(-1);
    this.table.slots.fill(-1);
    this.overrides.clear();
    this.skipped.length = 0;
    this.folders = rootFolderTable();
  }

  /** The listed entry of a folded canonical path, or -1. */
  find(folded: string): number {
    return this.findEntry(hashString(folded), -1, folded, 0, 0);
  }

  /** The folder id of a folded canonical path ("" = the root), or -1. */
  findDir(folded: string): number {
    return this.findDirByKey(hashString(folded), folded, 0, 0);
  }

  /** Archive path of a listed entry (stored case). */
  pathOf(entry: number): string {
    const override = this.overrides.get(entry);
    if (override !== undefined) return override;
    const start = this.tree.nameStart[entry] as number;
    return this.bytes.toString('latin1', start, start + (this.tree.nameLength[entry] as number));
  }

  fileNode(entry: number): FileNode {
    const path = this.pathOf(entry);
    return { kind: 'file', entry, path, name: path.slice(path.lastIndexOf('/') + 1), size: this.tree.dataLength[entry] as number };
  }

  /** The files and folders directly in folder `dir`, unordered. */
  children(dir: number): (FileNode | DirNode)[] {
    const g = this.group();
    const out: (FileNode | DirNode)[] = [];
    for (let k = g.dirStart[dir] as number; k < (g.dirStart[dir + 1] as number); k++) {
      const d = g.dirs[k] as number;
      const path = this.folders.path[d] as string;
      out.push({ kind: 'directory', path, name: path.slice(path.lastIndexOf('/') + 1) });
    }
    for (let k = g.fileStart[dir] as number; k < (g.fileStart[dir + 1] as number); k++) out.push(this.fileNode(g.files[k] as number));
    return out;
  }

  // --- Internals ---

  /**
   * The listed entry with hash h whose folded path is `folded`, or (folded null) equals the plain name
   * bytes [start, end); `self` is never returned.
   */
  private findEntry(h: number, self: number, folded: string | null, start: number, end: number): number {
    const { slots, entryBits, tagShift } = this.table;
    const mask = slots.length - 1;
    const tag = h >>> tagShift;
    const entryMask = (1 << entryBits) - 1;
    let slot = h & mask;
    for (;;) {
      const v = slots[slot] as number;
      if (v < 0) return -1;
      const other = v & entryMask;
      if (other !== self && v >>> entryBits === tag && this.sameKey(other, folded, start, end)) return other;
      slot = (slot + 1) & mask;
    }
  }

  private sameKey(entry: number, folded: string | null, start: number, end: number): boolean {
    const override = this.overrides.get(entry);
    const mine = folded ?? this.bytes.toString('latin1', start, end).toLowerCase();
    if (override !== undefined) return foldPath(override) === mine;
    const s = this.tree.nameStart[entry] as number;
    return bytesEqualFolded(this.raw, s, s + (this.tree.nameLength[entry] as number), mine);
  }

  /** The folder with hash h whose folded path is `folded`, or (folded null) the plain bytes [start, end); -1 if none. */
  private findDirByKey(h: number, folded: string | null, start: number, end: number): number {
    return findFolder(this.folders, this.raw, this.words, h, folded, start, end);
  }

  /**
   * The folder at canonical path `dirPath` (stored case), made with its missing ancestors; -1 (and
   * nothing made) when a listed file has the path of one of them. `bytesAt`: where the tree holds
   * `dirPath` as plain bytes (a plain name's start), else -1.
   */
  private makeFolders(dirPath: string, bytesAt: number): number {
    const segments = dirPath.split('/');
    const missing: number[] = [];
    let known = 0;
    for (let s = 0; s < segments.length; s++) {
      const folded = foldPath(segments.slice(0, s + 1).join('/'));
      const d = this.findDirByKey(hashString(folded), folded, 0, 0);
      if (d >= 0) {
        known = d;
        continue;
      }
      if (this.find(folded) >= 0) return -1;
      missing.push(s);
    }
    let parent = known;
    const folders = this.folders;
    for (const s of missing) {
      const path = segments.slice(0, s + 1).join('/');
      // A missing folder's parent is the one before it: known ones precede missing ones on a path.
      const id = folders.path.length;
      folders.path.push(path);
      folders.folded.push(foldPath(path));
      folders.parent.push(s === 0 ? 0 : (this.findDir(foldPath(segments.slice(0, s).join('/'))) as number));
      folders.hashes.push(hashString(foldPath(path)));
      folders.bytesAt.push(bytesAt);
      insertFolder(folders, id);
      parent = id;
    }
    return parent;
  }

  /** Listed entries and folders grouped by parent folder (counting sort), built on the first listing. */
  private group(): NonNullable<NameIndex['grouped']> {
    if (this.grouped) return this.grouped;
    const dirCount = this.folders.path.length;
    const dirParent = this.folders.parent;
    const fileStart = new Int32Array(dirCount + 1);
    for (let e = 0; e < this.fileDir.length; e++) {
      const d = this.fileDir[e] as number;
      if (d >= 0) fileStart[d + 1] = (fileStart[d + 1] as number) + 1;
    }
    for (let d = 0; d < dirCount; d++) fileStart[d + 1] = (fileStart[d + 1] as number) + (fileStart[d] as number);
    const files = new Int32Array(fileStart[dirCount] as number);
    const next = fileStart.slice(0, dirCount);
    for (let e = 0; e < this.fileDir.length; e++) {
      const d = this.fileDir[e] as number;
      if (d < 0) continue;
      files[next[d] as number] = e;
      next[d] = (next[d] as number) + 1;
    }
    const dirStart = new Int32Array(dirCount + 1);
    for (let d = 1; d < dirCount; d++) {
      const p = dirParent[d] as number;
      dirStart[p + 1] = (dirStart[p + 1] as number) + 1;
    }
    for (let d = 0; d < dirCount; d++) dirStart[d + 1] = (dirStart[d + 1] as number) + (dirStart[d] as number);
    const dirs = new Int32Array(Math.max(0, dirCount - 1));
    const nextDir = dirStart.slice(0, dirCount);
    for (let d = 1; d < dirCount; d++) {
      const p = dirParent[d] as number;
      dirs[nextDir[p] as number] = d;
      nextDir[p] = (nextDir[p] as number) + 1;
    }
    this.grouped = { fileStart, files, dirStart, dirs };
    return this.grouped;
  }
}
