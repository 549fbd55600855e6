/**
 * The classic path index (runtime/classic/name-index.ts: typed arrays, names decoded on lookup,
 * folders grouped on the first list) against a plain map-based model of the rules it keeps: on random
 * name lists full of collisions (case variants, `\` and `/`, leading and doubled slashes, `.` and `..`
 * segments, control characters, CP949 names, files named like folders in either order) the same
 * files, duplicates, skipped names, folders and listings.
 */
import { describe, expect, it } from 'vitest';
import { NameIndex, type DirNode, type FileNode } from '../../../runtime/classic/name-index.js';
import { decodeName, encodeName } from '../../../runtime/classic/names.js';
import type { TreeEntries } from '../../../runtime/classic/tree.js';
import { foldPath, normalizeStoredName } from '../../../runtime/script/archive-path.js';
import { seededRandom } from '../../support/random.js';

interface Model {
  files: Map<string, { entry: number; path: string }>;
  dirs: Map<string, { path: string; children: Set<string> }>;
  duplicates: number;
  skipped: { entry: number; name: string; problem: string }[];
}

/** The rules, written as directly as possible (stored order, first wins; ancestors must be folders). */
function model(names: string[]): Model {
  const files = new Map<string, { entry: number; path: string }>();
  const dirs = new Map<string, { path: string; children: Set<string> }>([['', { path: '', children: new Set() }]]);
  const skipped: Model['skipped'] = [];
  let duplicates = 0;
  names.forEach((name, entry) => {
    const normalized = normalizeStoredName(name);
    if ('problem' in normalized) return void skipped.push({ entry, name, problem: normalized.problem });
    const path = normalized.path;
    const folded = foldPath(path);
    if (files.has(folded)) return void duplicates++;
    if (dirs.has(folded)) return void skipped.push({ entry, name, problem: 'a folder of the same name exists' });
    const segments = path.split('/').slice(0, -1);
    const prefixes = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
    if (prefixes.some((p) => !dirs.has(foldPath(p)) && files.has(foldPath(p)))) {
      return void skipped.push({ entry, name, problem: 'a file of the same name as one of its folders exists' });
    }
    let parent = '';
    for (const p of prefixes) {
      if (!dirs.has(foldPath(p))) {
        dirs.set(foldPath(p), { path: p, children: new Set() });
        (dirs.get(parent) as { children: Set<string> }).children.add(`d:${foldPath(p)}`);
      }
      parent = foldPath(p);
    }
    files.set(folded, { entry, path });
    (dirs.get(parent) as { children: Set<string> }).children.add(`f:${folded}`);
  });
  return { files, dirs, duplicates, skipped };
}

function treeOf(names: string[]): TreeEntries {
  const encoded = names.map((n) => Buffer.from(encodeName(n)));
  const plainTree = Buffer.concat(encoded);
  const count = names.length;
  const tree: TreeEntries = {
    count,
    nameHash: new Uint32Array(count),
    dataLength: Int32Array.from(names, (_, i) => i * 7),
    dataCrc: new Uint32Array(count),
    dataOffset: new Int32Array(count),
    nameStart: new Int32Array(count),
    nameLength: Int32Array.from(encoded, (e) => e.length),
    plainTree,
  };
  let at = 0;
  encoded.forEach((e, i) => {
    tree.nameStart[i] = at;
    at += e.length;
  });
  return tree;
}

// Also the edges of the four-bytes-at-a-time scan: @ [ ` { ~ around A-Z and a-z, DEL, a backslash, lengths 1 to 5.
const SEGMENTS = ['a', 'A', 'b', 'Equipment', 'equipment', 'x.equ', 'X.EQU', 'list.lst', '무기', '검.TXT', '.', '..', '', 'sp ace', 'tab\u0001', 'Z@[`z{~', 'del\u007f', 'back\\slash', 'AbC', 'abcd', 'ABCDE', '...', '.x'];

function randomName(rng: () => number): string {
  const depth = 1 + Math.floor(rng() * 4);
  const parts = Array.from({ length: depth }, () => SEGMENTS[Math.floor(rng() * SEGMENTS.length)] as string);
  let name = parts.map((p, i) => (i === 0 ? p : `${rng() < 0.15 ? '\\' : rng() < 0.05 ? '//' : '/'}${p}`)).join('');
  if (rng() < 0.05) name = `/${name}`;
  if (rng() < 0.03) name = `${name}/`;
  return name === '' ? 'empty' : name;
}

/** Folders only from FOLDERS and files only from FILES: no folder can have a file's path (the bucketed build). */
const FOLDERS = ['a', 'A', 'b', 'Equipment', 'equipment', '무기', '.', '..', '', 'sp ace', 'tab\u0001', 'Z@[`z{~', 'back\\slash', 'abcd', 'ABC'];
const FILES = ['x.equ', 'X.EQU', 'list.lst', '검.TXT', 'x.equ'];

function randomFileName(rng: () => number): string {
  const depth = Math.floor(rng() * 4);
  const parts = Array.from({ length: depth }, () => FOLDERS[Math.floor(rng() * FOLDERS.length)] as string);
  parts.push(FILES[Math.floor(rng() * FILES.length)] as string);
  return parts.map((p, i) => (i === 0 ? p : `${rng() < 0.15 ? '\\' : '/'}${p}`)).join('');
}

function listing(index: NameIndex, dir: number): string[] {
  return index
    .children(dir)
    .map((n: FileNode | DirNode) => (n.kind === 'file' ? `f:${n.path}:${n.name}:${n.size}:${n.entry}` : `d:${n.path}:${n.name}`))
    .sort();
}

describe('classic name index', () => {
  it('agrees with the map-based model on 300 random name lists', () => {
    const rng = seededRandom(20261202);
    let skippedSeen = 0;
    let duplicatesSeen = 0;
    let inOrder = 0;
    let bucketed = 0;
    for (let round = 0; round < 300; round++) {
      // Every third list cannot have a file named like a folder: the bucketed build must hold it too.
      const names = Array.from({ length: 1 + Math.floor(rng() * 80) }, () => (round % 3 === 0 ? randomFileName(rng) : randomName(rng)));
      const index = new NameIndex(treeOf(names));
      if (index.builtInOrder) inOrder++;
      else bucketed++;
      // What the tree stores is CP949 bytes: the model sees the names as decoded.
      const decoded = names.map((n) => decodeName(encodeName(n)));
      const m = model(decoded);
      expect(index.fileCount).toBe(m.files.size);
      expect(index.duplicates).toBe(m.duplicates);
      expect(index.skippedCount).toBe(m.skipped.length);
      expect(index.skipped).toEqual(m.skipped.slice(0, 20));
      skippedSeen += m.skipped.length;
      duplicatesSeen += m.duplicates;
      for (const [folded, file] of m.files) {
        const entry = index.find(folded);
        expect(entry).toBe(file.entry);
        expect(index.pathOf(entry)).toBe(file.path);
        expect(index.findDir(folded)).toBe(-1);
      }
      for (const [folded, dir] of m.dirs) {
        const id = index.findDir(folded);
        expect(id).toBeGreaterThanOrEqual(0);
        expect(index.find(folded)).toBe(-1);
        const expected = [...dir.children]
          .map((c) => {
            const key = c.slice(2);
            if (c.startsWith('f:')) {
              const f = m.files.get(key) as { entry: number; path: string };
              return `f:${f.path}:${f.path.slice(f.path.lastIndexOf('/') + 1)}:${f.entry * 7}:${f.entry}`;
            }
            const d = m.dirs.get(key) as { path: string };
            return `d:${d.path}:${d.path.slice(d.path.lastIndexOf('/') + 1)}`;
          })
          .sort();
        expect(listing(index, id)).toEqual(expected);
      }
      // Names that are not in the archive.
      for (const missing of ['nope', 'a/nope', 'equipment/x.equ/deeper']) if (!m.files.has(missing)) expect(index.find(missing)).toBe(-1);
    }
    // The random lists do reach the collision rules, and both builds.
    expect(inOrder).toBeGreaterThan(50);
    expect(bucketed).toBeGreaterThan(90);
    expect(skippedSeen).toBeGreaterThan(100);
    expect(duplicatesSeen).toBeGreaterThan(100);
  });

  it('keeps the first 20 skipped names and counts the rest', () => {
    const names = Array.from({ length: 45 }, (_, i) => `bad/../${i}.equ`);
    const index = new NameIndex(treeOf(['ok.equ', ...names]));
    expect(index.fileCount).toBe(1);
    expect(index.skippedCount).toBe(45);
    expect(index.skipped).toHaveLength(20);
    expect(index.skipped[0]).toEqual({ entry: 1, name: 'bad/../0.equ', problem: 'it contains a ".." segment' });
  });

  it('finds every one of 50 000 plain names and groups them by folder', () => {
    const names = Array.from({ length: 50_000 }, (_, i) => `Folder${i % 97}/sub${i % 7}/File_${i}.EQU`);
    const index = new NameIndex(treeOf(names));
    expect(index.builtInOrder).toBe(false);
    expect(index.fileCount).toBe(50_000);
    for (let i = 0; i < 50_000; i += 101) expect(index.find(`folder${i % 97}/sub${i % 7}/file_${i}.equ`)).toBe(i);
    const root = listing(index, index.findDir(''));
    expect(root).toHaveLength(97);
    expect(index.children(index.findDir('folder3/sub2'))).toHaveLength(names.filter((n) => n.startsWith('Folder3/sub2/')).length);
  });
});
