/**
 * The path index of an nkpi archive, built once (on the archive's first path operation) from the file
 * table and the name pools, and sized for millions of files: per entry only typed arrays (folder id,
 * name hash, listing order), one open-addressing region of entry ids per folder, and one object per
 * folder. Printable-ASCII names are hashed straight from the pool bytes; names are decoded only when a
 * lookup meets an equal hash, or for a listing.
 *
 * Why a region per folder rather than one table: a table of a million entries is far larger than the
 * processor's caches, so each insert was a miss to memory. A folder's region is a few KiB, and the
 * regions are filled folder by folder, so inserting stays in cache. A lookup finds the folder first
 * (a map of folded folder paths), then the name in its region.
 *
 * Paths (§5): `dir + "/" + name`, then normalised like classic names (runtime/script/archive-path.ts): `\` as
 * `/`, empty and `.` segments dropped; names with `..` segments or control characters are not listed.
 * Lookups are case-insensitive; the first entry of a path wins (pvfine's rule), later ones count as
 * duplicates. A file whose path is also a folder (some other file lies below it) is not listed: the
 * folder wins.
 */
import { foldPath, normalizeStoredName } from '../script/archive-path.js';
import { FILE_ITEM_BYTES, type StringField } from './file-table.js';
import type { StringPools } from './pools.js';

export interface NkpiDir {
  /** Stored case of the first entry that named it; "" for the root. */
  path: string;
  name: string;
  /** Child folder ids. */
  subdirs: number[];
  /** Files of this folder: order[fileStart .. fileStart + fileCount). */
  fileStart: number;
  fileCount: number;
}

interface SkippedEntry {
  entry: number;
  name: string;
  problem: string;
}

interface PathIndexInput {
  fileCount: number;
  /** The file table (FILE_ITEM_BYTES per entry: NameOffset at 0, PathOffset at 4). */
  table: DataView;
  pools: StringPools;
  /** Called for an offset past the end of its pool (the caller throws). */
  outOfRange(entry: number, field: StringField, offset: number): never;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/** A stored name usable as one path segment without normalising. */
function plainSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\') && !CONTROL.test(name);
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a (int32) over the UTF-16 code units of `s` from `start`: the hash of a folded name. */
function fnv(s: string, start = 0): number {
  let h = FNV_OFFSET;
  for (let i = start; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * The slot of a hash. FNV's low bits depend only on the low bits of its input, so names that differ
 * in one digit crowd together in a power-of-two region; a finalizer spreads the high bits down first.
 */
function slotOf(hash: number, mask: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x45d9f3b);
  return (h ^ (h >>> 16)) & mask;
}

/** A stored folder that is no path (a `..` segment, control characters): its files are skipped. */
const UNUSABLE_FOLDER = -1;

export class PathIndex {
  readonly dirs: NkpiDir[] = [{ path: '', name: '', subdirs: [], fileStart: 0, fileCount: 0 }];
  /** Folded folder path → id. */
  private readonly dirIds = new Map<string, number>([['', 0]]);
  /** Folder id of each entry; -1 when it is not listed (duplicate, skipped). */
  readonly fileDir: Int32Array;
  /** Listed entries grouped by folder (each folder's files in stored order). */
  readonly order: Int32Array;
  /** FNV-1a of each entry's folded final segment. */
  private readonly hashes: Int32Array;
  /** Entry ids (-1 = empty), one power-of-two region per folder: regionStart[d] .. + regionMask[d]. */
  private readonly slots: Int32Array;
  private readonly regionStart: Int32Array;
  private readonly regionMask: Int32Array;
  /** Final path segment of entries whose stored name was not already one (rare). */
  private readonly nameOverrides = new Map<number, string>();
  readonly skipped: SkippedEntry[] = [];
  skippedCount = 0;
  duplicates = 0;
  readonly listed: number;

  constructor(private readonly input: PathIndexInput) {
    const n = input.fileCount;
    this.fileDir = new Int32Array(n).fill(-1);
    this.hashes = new Int32Array(n);
    this.hashNames();
    const candidates = this.groupByFolder();
    const regions = this.allocateRegions();
    this.regionStart = regions.start;
    this.regionMask = regions.mask;
    this.slots = new Int32Array(regions.total).fill(-1);
    this.insertByFolder(candidates);
    // A folder wins over a file of the same path.
    for (let d = 1; d < this.dirs.length; d++) {
      const dir = this.dirs[d] as NkpiDir;
      const e = this.find(foldPath(dir.path));
      if (e >= 0) {
        this.skip(e, this.pathOf(e), 'a folder of the same name exists');
        this.fileDir[e] = -1;
      }
    }
    this.order = this.listedOnly(candidates);
    this.listed = this.order.length;
  }

  /** Pass 1, in stored order (folders are made in the order entries name them): each entry's folder and name hash. */
  private hashNames(): void {
    const { table, pools } = this.input;
    const n = this.input.fileCount;
    const fileDir = this.fileDir;
    const hashes = this.hashes;
    // The folder id of a PathOffset, or UNUSABLE_FOLDER.
    const folderOfOffset = new Map<number, number>();
    const folderOf = (offset: number, entry: number): number => {
      const known = folderOfOffset.get(offset);
      if (known !== undefined) return known;
      const s = pools.stringAt(offset);
      if (s === null) this.input.outOfRange(entry, 'PathOffset', offset);
      let result = 0;
      if (s !== '') {
        const normalized = normalizeStoredName(s);
        if (!('problem' in normalized)) result = this.ensureDir(normalized.path);
        else if (normalized.problem !== 'it is empty') result = UNUSABLE_FOLDER;
      }
      folderOfOffset.set(offset, result);
      return result;
    };

    const poolA = pools.a;
    const poolEnd = poolA.length;
    // File tables list a folder's files together: most entries repeat the previous entry's folder.
    let lastPathOffset = 0;
    let folder = 0;
    for (let e = 0; e < n; e++) {
      const pathOffset = table.getInt32(FILE_ITEM_BYTES * e + 4, true);
      if (e === 0 || pathOffset !== lastPathOffset) {
        folder = folderOf(pathOffset, e);
        lastPathOffset = pathOffset;
      }
      const nameOffset = table.getInt32(FILE_ITEM_BYTES * e, true);
      // Fast path (nearly every entry): a printable-ASCII sTrA name, hashed from the pool bytes with no string made.
      if ((nameOffset & 1) === 0 && nameOffset >= 0 && folder >= 0) {
        const start = nameOffset >>> 1;
        if (start >= poolEnd) this.input.outOfRange(e, 'NameOffset', nameOffset);
        let h = FNV_OFFSET;
        let i = start;
        let plain = true;
        for (; i < poolEnd; i++) {
          let c = poolA[i] as number;
          if (c === 0) break;
          if (c < 0x20 || c > 0x7e || c === 0x2f || c === 0x5c) {
            plain = false;
            break;
          }
          if (c >= 0x41 && c <= 0x5a) c += 0x20;
          h = Math.imul(h ^ c, FNV_PRIME);
        }
        const length = i - start;
        if (plain && length > 0 && !(poolA[start] === 0x2e && (length === 1 || (length === 2 && poolA[start + 1] === 0x2e)))) {
          fileDir[e] = folder;
          hashes[e] = h;
          continue;
        }
      }
      this.hashOther(e, folder, pathOffset, nameOffset);
    }
  }

  /** The slow path of pass 1: names that are not one plain ASCII segment, or files of unusable folders. */
  private hashOther(e: number, folder: number, pathOffset: number, nameOffset: number): void {
    const pools = this.input.pools;
    const name = pools.stringAt(nameOffset);
    if (name === null) this.input.outOfRange(e, 'NameOffset', nameOffset);
    let dirId: number;
    let fullPath: string;
    if (folder >= 0 && plainSegment(name)) {
      dirId = folder;
      const dirPath = (this.dirs[dirId] as NkpiDir).path;
      fullPath = dirPath === '' ? name : `${dirPath}/${name}`;
    } else {
      const dirText = pools.stringAt(pathOffset) ?? '';
      const joined = dirText === '' ? name : name === '' ? dirText : `${dirText}/${name}`;
      const normalized = normalizeStoredName(joined);
      if ('problem' in normalized) {
        this.skip(e, joined, normalized.problem);
        return;
      }
      fullPath = normalized.path;
      const slash = fullPath.lastIndexOf('/');
      dirId = slash < 0 ? 0 : this.ensureDir(fullPath.slice(0, slash));
      const segment = fullPath.slice(slash + 1);
      if (segment !== name) this.nameOverrides.set(e, segment);
    }
    // Folding keeps "/" and never changes case across it, so the folded path's last segment is the folded name.
    const folded = foldPath(fullPath);
    this.fileDir[e] = dirId;
    this.hashes[e] = fnv(folded, folded.lastIndexOf('/') + 1);
  }

  /** Entries with a folder, grouped by folder (counting sort, stored order inside a folder); sets fileStart/fileCount. */
  private groupByFolder(): Int32Array {
    const n = this.input.fileCount;
    const dirCount = this.dirs.length;
    const fileDir = this.fileDir;
    const counts = new Int32Array(dirCount + 1);
    for (let e = 0; e < n; e++) {
      const d = fileDir[e] as number;
      if (d >= 0) counts[d + 1] = (counts[d + 1] as number) + 1;
    }
    for (let d = 0; d < dirCount; d++) counts[d + 1] = (counts[d + 1] as number) + (counts[d] as number);
    const grouped = new Int32Array(counts[dirCount] as number);
    const next = counts.slice(0, dirCount);
    for (let e = 0; e < n; e++) {
      const d = fileDir[e] as number;
      if (d < 0) continue;
      grouped[next[d] as number] = e;
      next[d] = (next[d] as number) + 1;
    }
    for (let d = 0; d < dirCount; d++) {
      const dir = this.dirs[d] as NkpiDir;
      dir.fileStart = counts[d] as number;
      dir.fileCount = (counts[d + 1] as number) - (counts[d] as number);
    }
    return grouped;
  }

  /** A region of at least twice its files (a power of two) per folder. */
  private allocateRegions(): { start: Int32Array; mask: Int32Array; total: number } {
    const start = new Int32Array(this.dirs.length);
    const mask = new Int32Array(this.dirs.length);
    let total = 0;
    for (let d = 0; d < this.dirs.length; d++) {
      let size = 2;
      while (size < 2 * (this.dirs[d] as NkpiDir).fileCount) size *= 2;
      start[d] = total;
      mask[d] = size - 1;
      total += size;
    }
    return { start, mask, total };
  }

  /** Pass 2, folder by folder: each entry into its folder's region, unless an earlier entry has its path (a duplicate). */
  private insertByFolder(grouped: Int32Array): void {
    const { slots, hashes } = this;
    for (let d = 0; d < this.dirs.length; d++) {
      const dir = this.dirs[d] as NkpiDir;
      const base = this.regionStart[d] as number;
      const mask = this.regionMask[d] as number;
      for (let k = dir.fileStart; k < dir.fileStart + dir.fileCount; k++) {
        const e = grouped[k] as number;
        const hash = hashes[e] as number;
        let slot = slotOf(hash, mask);
        for (;;) {
          const other = slots[base + slot] as number;
          if (other < 0) {
            slots[base + slot] = e;
            break;
          }
          if (hashes[other] === hash && this.samePath(e, other, d)) {
            this.fileDir[e] = -1;
            this.duplicates++;
            break;
          }
          slot = (slot + 1) & mask;
        }
      }
    }
  }

  /** Equal hashes in one folder: the same path, or a collision. */
  private samePath(a: number, b: number, dirId: number): boolean {
    return foldPath(this.pathOf(a, dirId)) === foldPath(this.pathOf(b, dirId));
  }

  /** The grouped entries without those dropped since (duplicates, files under a folder's name); updates fileStart/fileCount. */
  private listedOnly(grouped: Int32Array): Int32Array {
    let to = 0;
    for (const dir of this.dirs) {
      const from = dir.fileStart;
      const end = from + dir.fileCount;
      dir.fileStart = to;
      for (let k = from; k < end; k++) {
        const e = grouped[k] as number;
        if ((this.fileDir[e] as number) >= 0) grouped[to++] = e;
      }
      dir.fileCount = to - dir.fileStart;
    }
    return to === grouped.length ? grouped : grouped.slice(0, to);
  }

  /** Final path segment of an entry. */
  nameOf(entry: number): string {
    return this.nameOverrides.get(entry) ?? this.input.pools.stringAt(this.input.table.getInt32(FILE_ITEM_BYTES * entry, true)) ?? '';
  }

  /** Archive path of an entry (stored case). */
  pathOf(entry: number, dirId: number = this.fileDir[entry] as number): string {
    const dir = this.dirs[Math.max(0, dirId)] as NkpiDir;
    const name = this.nameOf(entry);
    return dir.path === '' ? name : `${dir.path}/${name}`;
  }

  /** The listed entry of a folded canonical path, or -1. */
  find(folded: string): number {
    const slash = folded.lastIndexOf('/');
    const d = slash < 0 ? 0 : (this.dirIds.get(folded.slice(0, slash)) ?? -1);
    if (d < 0) return -1;
    const hash = fnv(folded, slash + 1);
    const base = this.regionStart[d] as number;
    const mask = this.regionMask[d] as number;
    let slot = slotOf(hash, mask);
    for (;;) {
      const e = this.slots[base + slot] as number;
      if (e < 0) return -1;
      if (this.hashes[e] === hash && foldPath(this.pathOf(e, d)) === folded) return (this.fileDir[e] as number) >= 0 ? e : -1;
      slot = (slot + 1) & mask;
    }
  }

  /** The folder id of a folded canonical path, or -1. */
  findDir(folded: string): number {
    return this.dirIds.get(folded) ?? -1;
  }

  private ensureDir(path: string): number {
    const folded = foldPath(path);
    const known = this.dirIds.get(folded);
    if (known !== undefined) return known;
    const slash = path.lastIndexOf('/');
    const parent = slash < 0 ? 0 : this.ensureDir(path.slice(0, slash));
    const id = this.dirs.length;
    this.dirs.push({ path: slash < 0 ? path : `${(this.dirs[parent] as NkpiDir).path}/${path.slice(slash + 1)}`, name: path.slice(slash + 1), subdirs: [], fileStart: 0, fileCount: 0 });
    (this.dirs[parent] as NkpiDir).subdirs.push(id);
    this.dirIds.set(folded, id);
    return id;
  }

  private skip(entry: number, name: string, problem: string): void {
    this.skippedCount++;
    if (this.skipped.length < 20) this.skipped.push({ entry, name, problem });
  }
}
