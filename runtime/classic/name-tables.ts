/**
 * The loops of the classic name index's build and its hash, as functions of typed arrays, numbers and
 * plain records. V8 ties optimised code to the shapes it read: a loop over an index object's fields
 * is thrown away once the last index of that shape is collected, so an archive opened again in a long
 * running process (or after any full collection) paid the interpreter and several deoptimisations per
 * loop again (a 200 000-file tree reopened after a full collection: name index 41–51 ms, against 29–31
 * without the collection; 30–38 ms since). Typed arrays, arrays and records made by one literal keep
 * their shapes for the life of the process.
 */

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
export function hashString(s: string): number {
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
export function bytesEqualFolded(bytes: Uint8Array, start: number, end: number, folded: string): boolean {
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
export function scanPlainName(bytes: Uint8Array, words: DataView, start: number, end: number, out: Int32Array): boolean {
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

/** Folders by id (0 is the root), with an open-addressing table of ids by hash. */
export interface FolderTable {
  /** Stored case of the first name that made it. */
  path: string[];
  folded: string[];
  parent: number[];
  /** Where in the tree the name that made a plain folder starts (-1 otherwise): same bytes, same folder. */
  bytesAt: number[];
  hashes: number[];
  /** -1 = free; replaced by a larger table as folders are added. */
  slots: Int32Array;
}

/** A table holding only the root. */
export function rootFolderTable(): FolderTable {
  const table: FolderTable = { path: [''], folded: [''], parent: [-1], bytesAt: [-1], hashes: [hashString('')], slots: new Int32Array(16).fill(-1) };
  placeFolder(table, 0);
  return table;
}

/** Adds folder `id` (its fields pushed already) to the slots, growing them to stay under half full. */
export function insertFolder(table: FolderTable, id: number): void {
  if ((id + 1) * 2 > table.slots.length) {
    table.slots = new Int32Array(table.slots.length * 2).fill(-1);
    for (let d = 0; d < id; d++) placeFolder(table, d);
  }
  placeFolder(table, id);
}

function placeFolder(table: FolderTable, id: number): void {
  const slots = table.slots;
  const mask = slots.length - 1;
  let slot = (table.hashes[id] as number) & mask;
  while ((slots[slot] as number) >= 0) slot = (slot + 1) & mask;
  slots[slot] = id;
}

/** The folder with hash h whose folded path is `folded`, or (folded null) the plain tree bytes [start, end); -1 if none. */
export function findFolder(table: FolderTable, raw: Uint8Array, words: DataView, h: number, folded: string | null, start: number, end: number): number {
  const slots = table.slots;
  const mask = slots.length - 1;
  let slot = h & mask;
  for (;;) {
    const d = slots[slot] as number;
    if (d < 0) return -1;
    if (table.hashes[d] === h) {
      const key = table.folded[d] as string;
      if (folded !== null ? key === folded : key.length === end - start && (sameBytes(raw, words, table.bytesAt[d] as number, start, end) || bytesEqualFolded(raw, start, end, key))) return d;
    }
    slot = (slot + 1) & mask;
  }
}

/** Whether tree bytes at `at` repeat bytes [start, end) exactly (the quick test of a plain folder). */
function sameBytes(raw: Uint8Array, words: DataView, at: number, start: number, end: number): boolean {
  if (at < 0) return false;
  let i = start;
  for (; i + 4 <= end; i += 4) if (words.getInt32(i, true) !== words.getInt32(at + i - start, true)) return false;
  for (; i < end; i++) if (raw[i] !== raw[at + i - start]) return false;
  return true;
}

/** What the first pass of the build reads and fills. */
export interface EntryScan {
  raw: Uint8Array;
  words: DataView;
  nameStart: Int32Array;
  nameLength: Int32Array;
  /** Filled: hash of each entry's folded path. */
  hashes: Int32Array;
  /** Filled: folder id of each entry. */
  fileDir: Int32Array;
  folders: FolderTable;
  /** scanPlainName's output. */
  scan: Int32Array;
}

/**
 * Hashes entries from `from` on and finds their folders while their names are plain and their
 * folders exist; returns the first entry that needs more (a name to normalise, a folder to make), or
 * the entry count.
 */
export function scanPlainEntries(s: EntryScan, from: number): number {
  const { raw, words, nameStart, nameLength, hashes, fileDir, scan } = s;
  const n = nameStart.length;
  for (let e = from; e < n; e++) {
    const start = nameStart[e] as number;
    if (!scanPlainName(raw, words, start, start + (nameLength[e] as number), scan)) return e;
    const slash = scan[2] as number;
    let parent = 0;
    if (slash >= 0) {
      parent = findFolder(s.folders, raw, words, scan[1] as number, null, start, slash);
      if (parent < 0) return e;
    }
    hashes[e] = scan[0] as number;
    fileDir[e] = parent;
  }
  return n;
}

/**
 * The entries with a folder (fileDir ≥ 0) ordered by the region (1024 slots) of their home slot, a
 * stable counting sort: inserting them in that order walks the table once instead of probing it at
 * random, and equal paths still meet in stored order.
 */
export function regionOrder(fileDir: Int32Array, hashes: Int32Array, slotCount: number): Int32Array {
  const n = fileDir.length;
  const mask = slotCount - 1;
  const regionShift = Math.min(10, 31 - Math.clz32(slotCount));
  const regions = (slotCount >>> regionShift) + 1;
  const regionStart = new Int32Array(regions + 1);
  let total = 0;
  for (let e = 0; e < n; e++) {
    if ((fileDir[e] as number) < 0) continue;
    const r = ((hashes[e] as number) & mask) >>> regionShift;
    regionStart[r] = (regionStart[r] as number) + 1;
    total++;
  }
  for (let r = 0, sum = 0; r <= regions; r++) {
    const c = regionStart[r] as number;
    regionStart[r] = sum;
    sum += c;
  }
  const order = new Int32Array(total);
  for (let e = 0; e < n; e++) {
    if ((fileDir[e] as number) < 0) continue;
    const r = ((hashes[e] as number) & mask) >>> regionShift;
    order[regionStart[r] as number] = e;
    regionStart[r] = (regionStart[r] as number) + 1;
  }
  return order;
}

/**
 * The path table: one int per slot (-1 = free), the entry in the low `entryBits` bits and the top bits
 * of its hash above them, so a probe reads one int and rarely compares a name that differs.
 */
export interface EntrySlots {
  slots: Int32Array;
  entryBits: number;
  /** The hash shifted right by this is the tag kept in a slot. */
  tagShift: number;
}

/** An empty table for n entries. */
export function emptyEntrySlots(n: number): EntrySlots {
  const entryBits = Math.max(1, 32 - Math.clz32(Math.max(1, n - 1)));
  return { slots: new Int32Array(tableSize(n)).fill(-1), entryBits, tagShift: SMALL_HASH_BITS - (31 - entryBits) };
}

/**
 * Puts entries order[from..) in the table (hash `hashes[e]`) until one meets an entry of the same
 * path, whose position in `order` it returns (or order.length). Names compare as tree bytes with A-Z
 * folded; `samePath` decides where either name is not plain (`plain[e]` 0).
 */
export function insertUntilDuplicate(
  table: EntrySlots,
  order: Int32Array,
  from: number,
  s: EntryScan,
  plain: Uint8Array,
  samePath: (a: number, b: number) => boolean,
): number {
  const { slots, entryBits, tagShift } = table;
  const { hashes, nameStart, nameLength, raw } = s;
  const mask = slots.length - 1;
  const entryMask = (1 << entryBits) - 1;
  for (let k = from; k < order.length; k++) {
    const e = order[k] as number;
    const h = hashes[e] as number;
    const tag = h >>> tagShift;
    let slot = h & mask;
    for (;;) {
      const v = slots[slot] as number;
      if (v < 0) break;
      if (v >>> entryBits === tag) {
        const a = v & entryMask;
        const same = plain[a] === 1 && plain[e] === 1 ? sameFoldedBytes(raw, nameStart[a] as number, nameLength[a] as number, nameStart[e] as number, nameLength[e] as number) : samePath(a, e);
        if (same) return k;
      }
      slot = (slot + 1) & mask;
    }
    slots[slot] = (tag << entryBits) | e;
  }
  return order.length;
}

/** Whether bytes [sa, sa+la) and [sb, sb+lb) are equal once A-Z are folded. */
export function sameFoldedBytes(raw: Uint8Array, sa: number, la: number, sb: number, lb: number): boolean {
  if (la !== lb) return false;
  for (let i = 0; i < la; i++) {
    let x = raw[sa + i] as number;
    let y = raw[sb + i] as number;
    if (x >= 0x41 && x <= 0x5a) x += 0x20;
    if (y >= 0x41 && y <= 0x5a) y += 0x20;
    if (x !== y) return false;
  }
  return true;
}
