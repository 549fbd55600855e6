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
 * string.
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
const SMALL_HASH_BITS = 30;

/**
 * FNV-1a over words of four code units (`c0 | c1 << 8 | c2 << 16 | c3 << 24`; a last partial word mixed
 * on its own). For printable ASCII that is four bytes of the name read as one little-endian word, so
 * the scan of a stored name hashes a word per step: a quarter of the multiply chain of one unit per
 * step, which is what bounds hashing 200 000 names. Wider units overlap in a word; that only costs
 * collisions, which the name compare settles.
 */
function hashString(s: string): number {
  let h = FNV_OFFSET;
  let i = 0;
  const n = s.length;
  for (; i + 4 <= n; i += 4) h = Math.imul(h ^ (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 8) | (s.charCodeAt(i + 2) << 16) | (s.charCodeAt(i + 3) << 24)), FNV_PRIME);
  if (i < n) {
    let w = 0;
    for (let k = 0; i + k < n; k++) w |= s.charCodeAt(i + k) << (8 * k);
    h = Math.imul(h ^ w, FNV_PRIME);
  }
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
  /**
   * Open addressing, one int per slot (-1 = free): the entry in the low `entryBits` bits, the top bits
   * of its hash above them, so a probe reads one int and rarely compares a name that differs.
   */
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly entryBits: number;
  /** The hash shifted right by this is the tag kept in a slot. */
  private readonly tagShift: number;
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
    this.words = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.fileDir = new Int32Array(n).fill(-1);
    const size = tableSize(n);
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    this.entryBits = Math.max(1, 32 - Math.clz32(Math.max(1, n - 1)));
    this.tagShift = SMALL_HASH_BITS - (31 - this.entryBits);
    this.insertDir(0);
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
    const hashes = new Int32Array(n);
    const scan = new Int32Array(3);
    let skipped = 0;
    for (let e = 0; e < n; e++) {
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
      hashes[e] = scan[0] as number;
      this.fileDir[e] = parent;
    }

    // Counting sort of the listed candidates by the region (1024 slots) of their home slot.
    const regionShift = Math.min(10, 31 - Math.clz32(this.slots.length));
    const regions = (this.slots.length >>> regionShift) + 1;
    const regionStart = new Int32Array(regions + 1);
    let total = 0;
    for (let e = 0; e < n; e++) {
      if ((this.fileDir[e] as number) < 0) continue;
      const r = ((hashes[e] as number) & this.mask) >>> regionShift;
      regionStart[r] = (regionStart[r] as number) + 1;
      total++;
    }
    for (let r = 0, sum = 0; r <= regions; r++) {
      const c = regionStart[r] as number;
      regionStart[r] = sum;
      sum += c;
    }
    const order = new Int32Array(n);
    for (let e = 0; e < n; e++) {
      if ((this.fileDir[e] as number) < 0) continue;
      const r = ((hashes[e] as number) & this.mask) >>> regionShift;
      order[regionStart[r] as number] = e;
      regionStart[r] = (regionStart[r] as number) + 1;
    }
    let listed = 0;
    let duplicates = 0;
    for (let k = 0; k < total; k++) {
      const e = order[k] as number;
      if (this.insertEntry(e, hashes[e] as number)) listed++;
      else {
        duplicates++;
        this.fileDir[e] = -1;
        this.overrides.delete(e);
      }
    }
    // Stored order matters only where a folder and a file share a path: then build in order.
    for (let d = 1; d < this.dirPath.length; d++) if (this.find(this.dirFolded[d] as string) >= 0) return null;
    return { listed, duplicates, skipped };
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
    const tag = h >>> this.tagShift;
    let slot = h & this.mask;
    for (;;) {
      const v = this.slots[slot] as number;
      if (v < 0) break;
      if (v >>> this.entryBits === tag && this.sameEntries(v & ((1 << this.entryBits) - 1), e)) return false;
      slot = (slot + 1) & this.mask;
    }
    this.slots[slot] = (tag << this.entryBits) | e;
    return true;
  }

  /** Whether entries a and b have the same folded path. */
  private sameEntries(a: number, b: number): boolean {
    const pa = this.overrides.get(a);
    const pb = this.overrides.get(b);
    if (pa !== undefined || pb !== undefined) return foldPath(this.pathOf(a)) === foldPath(this.pathOf(b));
    const sa = this.tree.nameStart[a] as number;
    const sb = this.tree.nameStart[b] as number;
    const length = this.tree.nameLength[a] as number;
    if (length !== this.tree.nameLength[b]) return false;
    const raw = this.raw;
    for (let i = 0; i < length; i++) {
      let x = raw[sa + i] as number;
      let y = raw[sb + i] as number;
      if (x >= 0x41 && x <= 0x5a) x += 0x20;
      if (y >= 0x41 && y <= 0x5a) y += 0x20;
      if (x !== y) return false;
    }
    return true;
  }

  /** Back to an empty index (before the in-order build). */
  private reset(): void {
    this.fileDir.fill(-1);
    this.slots.fill(-1);
    this.overrides.clear();
    this.skipped.length = 0;
    this.dirPath.length = 1;
    this.dirFolded.length = 1;
    this.dirParent.length = 1;
    this.dirBytesAt.length = 1;
    this.dirHashes.length = 1;
    this.dirSlots = new Int32Array(16).fill(-1);
    this.insertDir(0);
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
    const tag = h >>> this.tagShift;
    const entryMask = (1 << this.entryBits) - 1;
    let slot = h & this.mask;
    for (;;) {
      const v = this.slots[slot] as number;
      if (v < 0) return -1;
      const other = v & entryMask;
      if (other !== self && v >>> this.entryBits === tag && this.sameKey(other, folded, start, end)) return other;
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
    const words = this.words;
    let i = start;
    for (; i + 4 <= end; i += 4) if (words.getInt32(i, true) !== words.getInt32(at + i - start, true)) return false;
    const raw = this.raw;
    for (; i < end; i++) if (raw[i] !== raw[at + i - start]) return false;
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

/** Bytes of a word below lane k (the part of a word before a `/` in lane k). */
const LOW_LANES = [0, 0xff, 0xffff, 0xffffff];
/** The top bit of each of the first k lanes of a word (k = 1..4). */
const TOP_BITS = [0, 0x80, 0x8080, 0x808080, 0x80808080 | 0];

/**
 * One pass over a stored name, four bytes at a time: whether it is already a canonical path of
 * printable ASCII (no `\`, no empty, `.` or `..` segment); if so `out` gets its hash, its folder's hash
 * (the state at the last `/`) and that `/`'s position (-1 for a top-level name). A small function of
 * its own, so that V8 optimises it early (it runs once per name).
 *
 * Each word's tests are done on all four bytes at once (SWAR): with every byte below 0x80, adding a
 * constant to each byte never carries into the next, so the top bit of each byte of `w + k` tells
 * whether that byte is ≥ 0x80 − k. A name's last word may take up to 3 bytes past it (in a tree, its
 * entry's fields follow it); they are masked off.
 */
function scanPlainName(bytes: Uint8Array, words: DataView, start: number, end: number, out: Int32Array): boolean {
  let h = FNV_OFFSET;
  // The hash state before the word of the last `/`, and that word's bytes before it (its folder's hash).
  let parentState = FNV_OFFSET;
  let parentPart = 0;
  let parentLanes = 0;
  let slash = -1;
  let segment = start;
  const size = words.byteLength;
  for (let i = start; i < end; i += 4) {
    const left = end - i;
    let w = i + 4 <= size ? words.getInt32(i, true) : lastWord(bytes, i);
    let lanes = 0x80808080 | 0;
    if (left < 4) {
      w &= LOW_LANES[left] as number;
      lanes = TOP_BITS[left] as number;
    }
    // Non-ASCII; then below 0x20 (a control character) or 0x7f.
    if ((w & 0x80808080) !== 0) return false;
    if (((w + 0x60606060) & lanes) !== lanes || ((w + 0x01010101) & lanes) !== 0) return false;
    // A byte equal to b is a zero byte of w ^ b·0x01010101: its top bit stays clear in (x + 0x7f) | x.
    const back = w ^ 0x5c5c5c5c;
    if ((~((back + 0x7f7f7f7f) | back) & lanes) !== 0) return false;
    // A-Z (0x41..0x5a) get 0x20 added: the bytes ≥ 0x41 and not ≥ 0x5b.
    const folded = w | ((((w + 0x3f3f3f3f) & ~(w + 0x25252525)) & lanes) >>> 2);
    const sl = w ^ 0x2f2f2f2f;
    // Each `/` of the word, lowest first (one top bit per lane holding one).
    for (let m = ~((sl + 0x7f7f7f7f) | sl) & lanes; m !== 0; m &= m - 1) {
      const k = (31 - Math.clz32(m & -m)) >> 3;
      if (i + k === segment || isDotSegment(bytes, segment, i + k)) return false;
      parentState = h;
      parentPart = folded & (LOW_LANES[k] as number);
      parentLanes = k;
      slash = i + k;
      segment = i + k + 1;
    }
    h = Math.imul(h ^ folded, FNV_PRIME);
  }
  if (segment === end || isDotSegment(bytes, segment, end)) return false;
  out[0] = h & SMALL_HASH;
  out[1] = (parentLanes === 0 ? parentState : Math.imul(parentState ^ parentPart, FNV_PRIME)) & SMALL_HASH;
  out[2] = slash;
  return true;
}

/** The bytes from i to the end of the buffer as a little-endian word (fewer than 4 are left). */
function lastWord(bytes: Uint8Array, i: number): number {
  let w = 0;
  for (let k = 0; i + k < bytes.length; k++) w |= (bytes[i + k] as number) << (8 * k);
  return w;
}

/** Whether bytes [start, end) are `.` or `..` (segments a canonical path has not). */
function isDotSegment(bytes: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  return (n === 1 && bytes[start] === 0x2e) || (n === 2 && bytes[start] === 0x2e && bytes[start + 1] === 0x2e);
}
