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
 * Hash: FNV-1a over pairs of UTF-16 code units of the folded path (30 bits kept). For the common name (printable
 * ASCII, already canonical) that is its bytes with A-Z folded, hashed straight from the tree; a
 * folder's hash is the state reached at its `/`, so finding a file's folder costs no string.
 */
import { foldPath, normalizeStoredName } from '../script/archive-path.js';
import { decodeName } from './names.js';
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

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Hashes are kept to 30 bits: small integers for V8 (no boxing in arrays and calls), enough to tell paths apart. */
const SMALL_HASH = 0x3fffffff;

/**
 * FNV-1a over pairs of UTF-16 code units (a lone last one mixed on its own): half the multiply chain
 * of one unit per step, which is what bounds hashing 200 000 names.
 */
function hashString(s: string): number {
  let h = FNV_OFFSET;
  let i = 0;
  for (; i + 1 < s.length; i += 2) h = Math.imul(h ^ (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16)), FNV_PRIME);
  if (i < s.length) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h & SMALL_HASH;
}

/** Whether name bytes [start, end) equal `folded` once A-Z are folded (plain names are ASCII). */
function bytesEqualFolded(bytes: Uint8Array, start: number, end: number, folded: string): boolean {
  if (end - start !== folded.length) return false;
  for (let i = start; i < end; i++) {
    let c = bytes[i] as number;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== folded.charCodeAt(i - start)) return false;
  }
  return true;
}

/** Smallest power of two ≥ 2n (at least 16): open addressing stays under half full. */
function tableSize(n: number): number {
  let size = 16;
  while (size < n * 2) size *= 2;
  return size;
}

export class NameIndex {
  /** Files reachable by path. */
  readonly fileCount: number;
  /** Later entries whose name repeats an earlier one (kept in the tree, not reachable). */
  readonly duplicates: number;
  /** Entries not listed: the first few with the reason, and how many in all. */
  readonly skipped: SkippedName[] = [];
  readonly skippedCount: number;

  private readonly tree: TreeEntries;
  /** The decrypted tree: a plain view to scan, a Buffer to make strings. */
  private readonly raw: Uint8Array;
  private readonly bytes: Buffer;
  /** Folder id of each entry; -1 when it is not listed (duplicate, skipped). */
  private readonly fileDir: Int32Array;
  /** Open addressing, slot s at [2s] (entry, -1 = free) and [2s + 1] (its hash): one cache line per probe. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Canonical paths of entries whose stored name is not already one (rare). */
  private readonly overrides = new Map<number, string>();

  // Folders by id (0 is the root): stored case of the first name that made it, folded path, parent.
  private readonly dirPath: string[] = [''];
  private readonly dirFolded: string[] = [''];
  private readonly dirParent: number[] = [-1];
  /** Where in the tree the name that made a plain folder starts (-1 otherwise): same bytes, same folder. */
  private readonly dirBytesAt: number[] = [-1];
  private dirHashes: number[] = [hashString('')];
  private dirSlots: Int32Array = new Int32Array(16).fill(-1);

  /** Per folder, its files then its folders (grouped on the first listing). */
  private grouped: { fileStart: Int32Array; files: Int32Array; dirStart: Int32Array; dirs: Int32Array } | null = null;

  constructor(tree: TreeEntries) {
    this.tree = tree;
    const n = tree.count;
    const bytes = new Uint8Array(tree.plainTree.buffer, tree.plainTree.byteOffset, tree.plainTree.byteLength);
    this.raw = bytes;
    this.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.fileDir = new Int32Array(n).fill(-1);
    const size = tableSize(n);
    this.slots = new Int32Array(size * 2).fill(-1);
    this.mask = size - 1;
    this.insertDir(0);
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
      const plain = scanPlainName(bytes, start, end, scan);
      let h = scan[0] as number;
      let parentHash = scan[1] as number;
      let slash = scan[2] as number;
      let folded: string | null = null;
      let dirFolded: string | null = null;
      let path: string | null = null;
      let name: string | null = null;
      if (!plain) {
        name = decodeName(bytes.subarray(start, end));
        const normalized = normalizeStoredName(name);
        if ('problem' in normalized) {
          skip(e, name, normalized.problem);
          continue;
        }
        path = normalized.path;
        folded = foldPath(path);
        h = hashString(folded);
        const cut = path.lastIndexOf('/');
        parentHash = 0;
        if (cut >= 0) {
          dirFolded = foldPath(path.slice(0, cut));
          parentHash = hashString(dirFolded);
        }
        slash = cut;
      }

      if (this.findEntry(h, e, folded, start, end) >= 0) {
        duplicates++;
        continue;
      }
      if (this.findDirByKey(h, folded, start, end) >= 0) {
        skip(e, name ?? this.bytes.toString('latin1', start, end), 'a folder of the same name exists');
        continue;
      }
      let parent = 0;
      if (slash >= 0) {
        parent = plain ? this.findDirByKey(parentHash, null, start, slash) : this.findDirByKey(parentHash, dirFolded, 0, 0);
        if (parent < 0) parent = this.makeFolders(plain ? this.bytes.toString('latin1', start, slash) : (path as string).slice(0, slash), plain ? start : -1);
        if (parent < 0) {
          skip(e, name ?? this.bytes.toString('latin1', start, end), 'a file of the same name as one of its folders exists');
          continue;
        }
      }
      if (path !== null) this.overrides.set(e, path);
      this.fileDir[e] = parent;
      let slot = h & this.mask;
      while ((this.slots[2 * slot] as number) >= 0) slot = (slot + 1) & this.mask;
      this.slots[2 * slot] = e;
      this.slots[2 * slot + 1] = h;
      listed++;
    }
    this.fileCount = listed;
    this.duplicates = duplicates;
    this.skippedCount = skippedCount;
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
      const path = this.dirPath[d] as string;
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
    let slot = h & this.mask;
    for (;;) {
      const other = this.slots[2 * slot] as number;
      if (other < 0) return -1;
      if (other !== self && this.slots[2 * slot + 1] === h && this.sameKey(other, folded, start, end)) return other;
      slot = (slot + 1) & this.mask;
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
    const mask = this.dirSlots.length - 1;
    let slot = h & mask;
    for (;;) {
      const d = this.dirSlots[slot] as number;
      if (d < 0) return -1;
      if (this.dirHashes[d] === h) {
        const key = this.dirFolded[d] as string;
        if (folded !== null ? key === folded : key.length === end - start && (this.sameBytes(this.dirBytesAt[d] as number, start, end) || bytesEqualFolded(this.raw, start, end, key))) return d;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Whether tree bytes at `at` repeat bytes [start, end) exactly (the quick test of a plain folder). */
  private sameBytes(at: number, start: number, end: number): boolean {
    if (at < 0) return false;
    const raw = this.raw;
    for (let i = start; i < end; i++) if (raw[i] !== raw[at + i - start]) return false;
    return true;
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
    for (const s of missing) {
      const path = segments.slice(0, s + 1).join('/');
      // A missing folder's parent is the one before it: known ones precede missing ones on a path.
      const id = this.dirPath.length;
      this.dirPath.push(path);
      this.dirFolded.push(foldPath(path));
      this.dirParent.push(s === 0 ? 0 : (this.findDir(foldPath(segments.slice(0, s).join('/'))) as number));
      this.dirHashes.push(hashString(foldPath(path)));
      this.dirBytesAt.push(bytesAt);
      this.insertDir(id);
      parent = id;
    }
    return parent;
  }

  private insertDir(id: number): void {
    if ((id + 1) * 2 > this.dirSlots.length) {
      this.dirSlots = new Int32Array(this.dirSlots.length * 2).fill(-1);
      for (let d = 0; d < id; d++) this.placeDir(d);
    }
    this.placeDir(id);
  }

  private placeDir(id: number): void {
    const mask = this.dirSlots.length - 1;
    let slot = (this.dirHashes[id] as number) & mask;
    while ((this.dirSlots[slot] as number) >= 0) slot = (slot + 1) & mask;
    this.dirSlots[slot] = id;
  }

  /** Listed entries and folders grouped by parent folder (counting sort), built on the first listing. */
  private group(): NonNullable<NameIndex['grouped']> {
    if (this.grouped) return this.grouped;
    const dirCount = this.dirPath.length;
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
      const p = this.dirParent[d] as number;
      dirStart[p + 1] = (dirStart[p + 1] as number) + 1;
    }
    for (let d = 0; d < dirCount; d++) dirStart[d + 1] = (dirStart[d + 1] as number) + (dirStart[d] as number);
    const dirs = new Int32Array(Math.max(0, dirCount - 1));
    const nextDir = dirStart.slice(0, dirCount);
    for (let d = 1; d < dirCount; d++) {
      const p = this.dirParent[d] as number;
      dirs[nextDir[p] as number] = d;
      nextDir[p] = (nextDir[p] as number) + 1;
    }
    this.grouped = { fileStart, files, dirStart, dirs };
    return this.grouped;
  }
}

/**
 * One pass over a stored name: whether it is already a canonical path of printable ASCII (no `\`, no
 * empty, `.` or `..` segment); if so `out` gets its hash, its folder's hash (the state at the last
 * `/`) and that `/`'s position (-1 for a top-level name). A small function of its own, so that V8
 * optimises it early (it runs once per name).
 */
function scanPlainName(bytes: Uint8Array, start: number, end: number, out: Int32Array): boolean {
  let h = FNV_OFFSET;
  let parentHash = FNV_OFFSET;
  let slash = -1;
  let segment = start;
  let pending = 0;
  for (let i = start; i < end; i++) {
    let c = bytes[i] as number;
    if (c < 0x20 || c > 0x7e || c === 0x5c) return false;
    const odd = ((i - start) & 1) === 1;
    if (c === 0x2f) {
      if (i === segment || isDotSegment(bytes, segment, i)) return false;
      parentHash = odd ? Math.imul(h ^ pending, FNV_PRIME) : h;
      slash = i;
      segment = i + 1;
    } else if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (odd) h = Math.imul(h ^ (pending | (c << 16)), FNV_PRIME);
    else pending = c;
  }
  if (segment === end || isDotSegment(bytes, segment, end)) return false;
  if (((end - start) & 1) === 1) h = Math.imul(h ^ pending, FNV_PRIME);
  out[0] = h & SMALL_HASH;
  out[1] = parentHash & SMALL_HASH;
  out[2] = slash;
  return true;
}

/** Whether bytes [start, end) are `.` or `..` (segments a canonical path has not). */
function isDotSegment(bytes: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  return (n === 1 && bytes[start] === 0x2e) || (n === 2 && bytes[start] === 0x2e && bytes[start + 1] === 0x2e);
}
