/**
 * The path index of an nkpi archive, built once at open from the file table and the name pools and
 * sized for millions of files: per entry only typed arrays (folder id, path hash), an open-addressing
 * hash table of folded paths, and one object per folder. Names are decoded from the pools on demand.
 *
 * Paths (§5): `dir + "/" + name`, then normalised like classic names (runtime/script/archive-path.ts): `\` as
 * `/`, empty and `.` segments dropped; names with `..` segments or control characters are not listed.
 * Lookups are case-insensitive; the first entry of a path wins (pvfine's rule), later ones count as
 * duplicates. A file whose path is also a folder (some other file lies below it) is not listed: the
 * folder wins.
 */
import { foldPath, normalizeStoredName } from '../script/archive-path.js';
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
  nameOffset(entry: number): number;
  pathOffset(entry: number): number;
  pools: StringPools;
  /** Called for an offset past the end of its pool (the caller throws). */
  outOfRange(entry: number, field: 'NameOffset' | 'PathOffset', offset: number): never;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/** A stored name usable as one path segment without normalising. */
function plainSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\') && !CONTROL.test(name);
}

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a state after `s`'s UTF-16 code units, from `h`. */
function fnv(s: string, h: number = FNV_OFFSET): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** FNV-1a over UTF-16 code units (the hash of a folded path). */
function hashString(s: string): number {
  return fnv(s) >>> 0;
}

export class PathIndex {
  readonly dirs: NkpiDir[] = [{ path: '', name: '', subdirs: [], fileStart: 0, fileCount: 0 }];
  /** Folded folder path → id. */
  private readonly dirIds = new Map<string, number>([['', 0]]);
  /** Folder id of each entry; -1 when it is not listed (duplicate, skipped). */
  readonly fileDir: Int32Array;
  /** Listed entries grouped by folder (each folder's files in stored order). */
  readonly order: Int32Array;
  /** Hash of each entry's folded path. */
  private readonly hashes: Uint32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** FNV state after each folder's folded path and "/" ("" for the root). */
  private readonly dirPrefix: number[] = [FNV_OFFSET];
  /** Final path segment of entries whose stored name was not already one (rare). */
  private readonly nameOverrides = new Map<number, string>();
  readonly skipped: SkippedEntry[] = [];
  skippedCount = 0;
  duplicates = 0;
  readonly listed: number;

  constructor(private readonly input: PathIndexInput) {
    const n = input.fileCount;
    this.fileDir = new Int32Array(n).fill(-1);
    this.hashes = new Uint32Array(n);
    let size = 16;
    while (size < n * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;

    const dirOfOffset = new Map<number, { id: number } | { problem: string }>();
    const folderOf = (offset: number, entry: number): { id: number } | { problem: string } => {
      let known = dirOfOffset.get(offset);
      if (known) return known;
      const s = input.pools.stringAt(offset);
      if (s === null) input.outOfRange(entry, 'PathOffset', offset);
      if (s === '') known = { id: 0 };
      else {
        const normalized = normalizeStoredName(s);
        known = 'problem' in normalized ? (normalized.problem === 'it is empty' ? { id: 0 } : { problem: `its folder ${JSON.stringify(s)}: ${normalized.problem}` }) : { id: this.ensureDir(normalized.path) };
      }
      dirOfOffset.set(offset, known);
      return known;
    };

    const poolA = input.pools.a;
    for (let e = 0; e < n; e++) {
      const nameOffset = input.nameOffset(e);
      const folder = folderOf(input.pathOffset(e), e);
      // Fast path (nearly every entry): a printable-ASCII sTrA name, hashed from the pool bytes with no string made.
      if ((nameOffset & 1) === 0 && nameOffset >= 0 && 'id' in folder) {
        const start = nameOffset >>> 1;
        if (start >= poolA.length) input.outOfRange(e, 'NameOffset', nameOffset);
        let end = poolA.indexOf(0, start);
        if (end < 0) end = poolA.length;
        let h = this.dirPrefix[folder.id] as number;
        let plain = end > start && !(poolA[start] === 0x2e && (end - start === 1 || (end - start === 2 && poolA[start + 1] === 0x2e)));
        for (let i = start; plain && i < end; i++) {
          let c = poolA[i] as number;
          if (c < 0x20 || c > 0x7e || c === 0x2f || c === 0x5c) plain = false;
          else {
            if (c >= 0x41 && c <= 0x5a) c += 0x20;
            h = Math.imul(h ^ c, 0x01000193);
          }
        }
        if (plain) {
          this.insert(e, h >>> 0, folder.id, null);
          continue;
        }
      }
      const name = input.pools.stringAt(nameOffset);
      if (name === null) input.outOfRange(e, 'NameOffset', nameOffset);
      let dirId: number;
      let fullPath: string;
      if (plainSegment(name) && 'id' in folder) {
        dirId = folder.id;
        const dirPath = (this.dirs[dirId] as NkpiDir).path;
        fullPath = dirPath === '' ? name : `${dirPath}/${name}`;
      } else {
        const dirText = input.pools.stringAt(input.pathOffset(e)) ?? '';
        const joined = dirText === '' ? name : name === '' ? dirText : `${dirText}/${name}`;
        const normalized = normalizeStoredName(joined);
        if ('problem' in normalized) {
          this.skip(e, joined, normalized.problem);
          continue;
        }
        fullPath = normalized.path;
        const slash = fullPath.lastIndexOf('/');
        dirId = slash < 0 ? 0 : this.ensureDir(fullPath.slice(0, slash));
        const segment = fullPath.slice(slash + 1);
        if (segment !== name) this.nameOverrides.set(e, segment);
      }
      const folded = foldPath(fullPath);
      this.insert(e, hashString(folded), dirId, folded);
    }

    // A folder wins over a file of the same path.
    for (let d = 1; d < this.dirs.length; d++) {
      const dir = this.dirs[d] as NkpiDir;
      const e = this.find(foldPath(dir.path));
      if (e >= 0) {
        this.skip(e, this.pathOf(e), 'a folder of the same name exists');
        this.fileDir[e] = -1;
      }
    }

    // Group listed entries by folder (counting sort, stored order inside a folder).
    const counts = new Int32Array(this.dirs.length + 1);
    let listed = 0;
    for (let e = 0; e < n; e++) {
      const d = this.fileDir[e] as number;
      if (d >= 0) {
        counts[d + 1] = (counts[d + 1] as number) + 1;
        listed++;
      }
    }
    for (let d = 0; d < this.dirs.length; d++) counts[d + 1] = (counts[d + 1] as number) + (counts[d] as number);
    this.order = new Int32Array(listed);
    const next = counts.slice(0, this.dirs.length);
    for (let e = 0; e < n; e++) {
      const d = this.fileDir[e] as number;
      if (d < 0) continue;
      this.order[next[d] as number] = e;
      next[d] = (next[d] as number) + 1;
    }
    for (let d = 0; d < this.dirs.length; d++) {
      const dir = this.dirs[d] as NkpiDir;
      dir.fileStart = counts[d] as number;
      dir.fileCount = (counts[d + 1] as number) - (counts[d] as number);
    }
    this.listed = listed;
  }

  /** Adds entry e (folded path hash, folder) unless an earlier entry has its path (a duplicate). */
  private insert(e: number, hash: number, dirId: number, folded: string | null): void {
    this.hashes[e] = hash;
    let slot = hash & this.mask;
    for (;;) {
      const other = this.slots[slot] as number;
      if (other < 0) break;
      if (this.hashes[other] === hash) {
        this.fileDir[e] = dirId;
        const mine = folded ?? foldPath(this.pathOf(e));
        this.fileDir[e] = -1;
        if (foldPath(this.pathOf(other)) === mine) {
          this.duplicates++;
          return;
        }
      }
      slot = (slot + 1) & this.mask;
    }
    this.slots[slot] = e;
    this.fileDir[e] = dirId;
  }

  /** Final path segment of an entry. */
  nameOf(entry: number): string {
    return this.nameOverrides.get(entry) ?? this.input.pools.stringAt(this.input.nameOffset(entry)) ?? '';
  }

  /** Archive path of an entry (stored case). */
  pathOf(entry: number, dirId: number = this.fileDir[entry] as number): string {
    const dir = this.dirs[Math.max(0, dirId)] as NkpiDir;
    const name = this.nameOf(entry);
    return dir.path === '' ? name : `${dir.path}/${name}`;
  }

  /** The listed entry of a folded canonical path, or -1. */
  find(folded: string): number {
    const hash = hashString(folded);
    let slot = hash & this.mask;
    for (;;) {
      const e = this.slots[slot] as number;
      if (e < 0) return -1;
      if (this.hashes[e] === hash && foldPath(this.pathOf(e)) === folded) return (this.fileDir[e] as number) >= 0 ? e : -1;
      slot = (slot + 1) & this.mask;
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
    this.dirPrefix[id] = fnv(`${folded}/`);
    return id;
  }

  private skip(entry: number, name: string, problem: string): void {
    this.skippedCount++;
    if (this.skipped.length < 20) this.skipped.push({ entry, name, problem });
  }
}
