/**
 * File names (pvf-classic-format §2.6) and the folder index built from them. Stored names are CP949
 * bytes (ASCII in practice), decoded regardless of the text encoding. Lookups are case-insensitive:
 * `\` reads as `/`, a leading `/` and empty or `.` segments are dropped. Duplicate names are kept in the
 * tree, and a lookup resolves to the first (stored order). A name that cannot be a path (a `..`
 * segment, control characters, nothing left after normalising) or that collides with a folder of the
 * same name is left out of the index and reported in `skipped`.
 */
import iconv from 'iconv-lite';
import { foldPath, normalizeStoredName } from '../script/archive-path.js';
import type { TreeEntries } from './tree.js';

/** Encoding of stored names. */
const NAME_ENCODING = 'cp949';

/** Decodes stored name bytes (CP949, with an ASCII fast path). */
export function decodeName(bytes: Uint8Array): string {
  for (let i = 0; i < bytes.length; i++) {
    if ((bytes[i] as number) >= 0x80) return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), NAME_ENCODING);
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Encodes a name as stored (CP949). */
export function encodeName(name: string): Uint8Array {
  return iconv.encode(name, NAME_ENCODING);
}

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
  /** Children in stored order (names are unique case-insensitively: the maps of ArchiveIndex dedupe them). */
  children: (FileNode | DirNode)[];
}

interface SkippedName {
  entry: number;
  name: string;
  problem: string;
}

export interface ArchiveIndex {
  /** Folded path → file (the first entry of that name). */
  files: Map<string, FileNode>;
  /** Folded path → folder ("" = root). */
  dirs: Map<string, DirNode>;
  /** Later entries whose name duplicates an earlier one (kept in the tree, not reachable). */
  duplicates: number;
  skipped: SkippedName[];
}

/** A stored name that is already a canonical ASCII path (the common case): no normalising needed. */
const NOT_PLAIN = /[^\x20-\x7e]|\\|\/\/|^\/|\/$|(?:^|\/)\.\.?(?:\/|$)/;

/** Builds the lookup maps and folder tree of an archive's entries (stored order; first name wins). */
export function buildIndex(tree: TreeEntries): ArchiveIndex {
  const root: DirNode = { kind: 'directory', path: '', name: '', children: [] };
  const files = new Map<string, FileNode>();
  const dirs = new Map<string, DirNode>([['', root]]);
  const skipped: SkippedName[] = [];
  let duplicates = 0;
  const plain = Buffer.from(tree.plainTree.buffer, tree.plainTree.byteOffset, tree.plainTree.byteLength);

  /** The folder at a canonical path, created with its ancestors; null when a file is in the way. */
  const folderOf = (dirPath: string): DirNode | null => {
    const known = dirs.get(foldPath(dirPath));
    if (known) return known;
    const segments = dirPath.split('/');
    let parent = root;
    const created: DirNode[] = [];
    for (let s = 0; s < segments.length; s++) {
      const path = segments.slice(0, s + 1).join('/');
      const folded = foldPath(path);
      let dir = dirs.get(folded);
      if (!dir) {
        if (files.has(folded)) {
          // Undo folders made for this name only (they are empty and were linked last).
          for (const made of created.reverse()) {
            dirs.delete(foldPath(made.path));
            const parentPath = made.path.includes('/') ? made.path.slice(0, made.path.lastIndexOf('/')) : '';
            dirs.get(foldPath(parentPath))?.children.pop();
          }
          return null;
        }
        dir = { kind: 'directory', path, name: segments[s] as string, children: [] };
        created.push(dir);
        dirs.set(folded, dir);
        parent.children.push(dir);
      }
      parent = dir;
    }
    return parent;
  };

  for (let entry = 0; entry < tree.count; entry++) {
    const start = tree.nameStart[entry] as number;
    const end = start + (tree.nameLength[entry] as number);
    let ascii = true;
    for (let i = start; i < end; i++) {
      if ((plain[i] as number) >= 0x80) {
        ascii = false;
        break;
      }
    }
    const name = ascii ? plain.toString('latin1', start, end) : decodeName(plain.subarray(start, end));
    let path = name;
    const plainAscii = ascii && !NOT_PLAIN.test(name);
    if (!plainAscii) {
      const normalized = normalizeStoredName(name);
      if ('problem' in normalized) {
        skipped.push({ entry, name, problem: normalized.problem });
        continue;
      }
      path = normalized.path;
    }
    const folded = foldPath(path);
    if (files.has(folded)) {
      duplicates++;
      continue;
    }
    if (dirs.has(folded)) {
      skipped.push({ entry, name, problem: 'a folder of the same name exists' });
      continue;
    }
    const slash = path.lastIndexOf('/');
    // Every ancestor must be (or become) a folder, not a file. Lower-casing ASCII keeps the positions,
    // so a plain name's folder is looked up by its folded prefix without folding again.
    const known = slash < 0 ? root : plainAscii ? dirs.get(folded.slice(0, slash)) : undefined;
    const parent = known ?? folderOf(path.slice(0, slash));
    if (!parent) {
      skipped.push({ entry, name, problem: 'a file of the same name as one of its folders exists' });
      continue;
    }
    const fileName = path.slice(slash + 1);
    const node: FileNode = { kind: 'file', entry, path, name: fileName, size: tree.dataLength[entry] as number };
    files.set(folded, node);
    parent.children.push(node);
  }
  return { files, dirs, duplicates, skipped };
}
