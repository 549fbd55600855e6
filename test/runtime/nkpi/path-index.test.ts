/**
 * The path index and the lazily inflated name pools (issue 16): an open reads the file table and
 * checks what it can without inflating; the pools are inflated and the index built on the first path
 * operation. These tests pin what must not change with that: lookups (case, slashes, duplicates, equal
 * hashes), listings, warnings, and the errors of a damaged pool, now raised at the first path
 * operation with the same code and message, and still at open by the workspace.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STANDARD_KEYS } from '../../../runtime/nkpi/keystream.js';
import { openNkpiArchive, openNkpiArchiveBytes, type NkpiArchive } from '../../../runtime/nkpi/nkpi-archive.js';
import { foldPath, normalizeArchivePath, normalizeStoredName } from '../../../runtime/script/archive-path.js';
import { nkpiDriver } from '../../../runtime/workspace/archive-drivers.js';
import { createArchiveWorkspace } from '../../../runtime/workspace/archive-workspace.js';
import { NkpiArchiveBuilder } from '../../support/write-nkpi-archive.js';
import { caught, caughtAsync, makeTempDir, removeTempDirs, seededRandom } from './helpers.js';
import { layoutOf } from './mutate.js';

afterAll(() => removeTempDirs());

const open = (bytes: Uint8Array) => openNkpiArchiveBytes(bytes, 'idx.pvf');

function archiveOf(paths: readonly string[]): NkpiArchive {
  const builder = new NkpiArchiveBuilder();
  for (const [i, p] of paths.entries()) builder.addText(p, `#${i}`);
  return open(builder.build());
}

describe('lookups', () => {
  it('names with equal FNV-1a hashes in one folder are two files; a case variant is a duplicate', () => {
    // fnv1a32("c2ya8.equ") === fnv1a32("czki6.equ"), found by search; the index compares the names on equal hashes.
    const archive = archiveOf(['x/c2ya8.equ', 'x/czki6.equ', 'x/C2YA8.EQU', 'czki6.equ', 'c2ya8.equ']);
    expect(archive.fileCount).toBe(4);
    expect(archive.resolve('X/CZKI6.equ')).toBe(1);
    expect(archive.resolve('x/c2ya8.EQU')).toBe(0);
    expect(archive.resolve('CZKI6.EQU')).toBe(3);
    expect(archive.resolve('c2ya8.equ')).toBe(4);
    expect(archive.resolve('x/c2ya9.equ')).toBe(-1);
    expect(archive.list('x').map((e) => e.name)).toEqual(['c2ya8.equ', 'czki6.equ']);
    expect(archive.warnings()).toEqual(['1 file table items repeat an earlier path; lookups use the first']);
  });

  it('case and slashes: ASCII names hashed from the pool bytes meet names decoded as strings', () => {
    const archive = archiveOf([
      'Equipment/Sword.equ',
      // Stored at the root with backslashes: normalised as a string, then a duplicate of entry 3 below.
      'Equipment\\Sub\\Shield.EQU',
      'Ä/Ölig.equ',
      'equipment/sub/shield.equ',
      'ä/ölig.EQU',
      'ΑΣ/x.equ',
      'Equipment/./Bow.equ',
    ]);
    const at = (p: string) => archive.resolve(p);
    expect([at('equipment/SWORD.EQU'), at('EQUIPMENT\\sword.equ'), at('./equipment//sword.equ'), at('equipment/sword.equ/')]).toEqual([0, 0, 0, 0]);
    expect([at('equipment/sub/SHIELD.equ'), at('EQUIPMENT\\SUB\\shield.equ')]).toEqual([1, 1]);
    expect(archive.pathOf(1)).toBe('Equipment/Sub/Shield.EQU');
    expect([at('ä/ÖLIG.EQU'), at('Ä\\ölig.equ')]).toEqual([2, 2]);
    // Folding is String.prototype.toLowerCase, final sigma included.
    expect([at('ας/X.EQU'), at('ΑΣ/x.equ'), at('ασ/x.equ')]).toEqual([5, 5, -1]);
    expect(at('equipment/bow.equ')).toBe(6);
    expect(archive.pathOf(6)).toBe('Equipment/Bow.equ');
    expect(archive.fileCount).toBe(5);
    expect(archive.warnings()).toEqual(['2 file table items repeat an earlier path; lookups use the first']);
  });

  it('a file table not grouped by folder, a folder beating a file stored before and after it', () => {
    const archive = archiveOf(['b/1.equ', 'a/1.equ', 'b/2.equ', 'a', 'a/2.equ', 'b/sub/x.equ', 'B/SUB', 'a/0.equ']);
    expect(archive.list('').map((e) => `${e.kind}:${e.path}`)).toEqual(['directory:a', 'directory:b']);
    expect(archive.list('A').map((e) => `${e.path}=${e.entry}`)).toEqual(['a/0.equ=7', 'a/1.equ=1', 'a/2.equ=4']);
    expect(archive.list('b').map((e) => `${e.kind}:${e.path}`)).toEqual(['directory:b/sub', 'file:b/1.equ', 'file:b/2.equ']);
    expect([archive.resolve('a'), archive.resolve('b/sub'), archive.resolve('b/sub/x.equ')]).toEqual([-1, -1, 5]);
    expect(archive.fileCount).toBe(6);
    expect(archive.warnings()).toEqual(['file table item 3 ("a") is not listed: a folder of the same name exists', 'file table item 6 ("b/SUB") is not listed: a folder of the same name exists']);
  });
});

/**
 * The documented rules, written plainly (docs/nkpi.md, "Paths"): what the index must agree with on
 * random archives of awkward names.
 */
function model(stored: readonly { dir: string; name: string }[]) {
  const dirs = new Map<string, string>([['', '']]);
  const addDir = (p: string) => {
    let at = '';
    for (const segment of p === '' ? [] : p.split('/')) {
      const next = at === '' ? segment : `${at}/${segment}`;
      const key = foldPath(next);
      const parent = dirs.get(foldPath(at)) as string;
      if (!dirs.has(key)) dirs.set(key, parent === '' ? segment : `${parent}/${segment}`);
      at = next;
    }
  };
  const files = new Map<string, number>();
  const paths = new Map<number, string>();
  const warnings: string[] = [];
  let duplicates = 0;
  for (const [e, { dir, name }] of stored.entries()) {
    const folder = normalizeStoredName(dir);
    if ('path' in folder) addDir(folder.path);
    const joined = dir === '' ? name : name === '' ? dir : `${dir}/${name}`;
    const full = normalizeStoredName(joined);
    if ('problem' in full) {
      warnings.push(`file table item ${e} (${JSON.stringify(joined)}) is not listed: ${full.problem}`);
      continue;
    }
    const slash = full.path.lastIndexOf('/');
    const dirPath = slash < 0 ? '' : full.path.slice(0, slash);
    addDir(dirPath);
    const storedDir = dirs.get(foldPath(dirPath)) as string;
    paths.set(e, storedDir === '' ? full.path.slice(slash + 1) : `${storedDir}/${full.path.slice(slash + 1)}`);
    if (files.has(foldPath(full.path))) duplicates++;
    else files.set(foldPath(full.path), e);
  }
  for (const key of dirs.keys()) {
    const e = files.get(key);
    if (key !== '' && e !== undefined) {
      warnings.push(`file table item ${e} (${JSON.stringify(paths.get(e))}) is not listed: a folder of the same name exists`);
      files.delete(key);
    }
  }
  if (duplicates > 0) warnings.push(`${duplicates} file table items repeat an earlier path; lookups use the first`);
  return { dirs, files, paths, warnings };
}

describe('the index agrees with the documented rules', () => {
  it('on 300 random archives of case variants, backslashes, dots, non-ASCII names and equal hashes', () => {
    const random = seededRandom(16);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const segments = ['a', 'A', 'b', 'Ä', 'ä', 'sub', 'SUB', 'c2ya8.equ', 'czki6.equ', 'x.equ', 'X.EQU', '.', '..', '', 'n\u0001', 'ΑΣ', 'ας'];
    const join = (n: number) => Array.from({ length: n }, () => pick(segments)).join(pick(['/', '\\', '/']));
    for (let round = 0; round < 300; round++) {
      const stored: { dir: string; name: string }[] = [];
      const builder = new NkpiArchiveBuilder();
      for (let e = 0, n = 1 + Math.floor(random() * 30); e < n; e++) {
        // The writer splits at the last "/": the name may hold backslashes, never "/".
        const dir = join(Math.floor(random() * 3));
        const name = join(1 + Math.floor(random() * 2)).replaceAll('/', '\\');
        stored.push({ dir, name });
        builder.addText(dir === '' ? name : `${dir}/${name}`, `#${e}`);
      }
      const archive = open(builder.build());
      const expected = model(stored);
      const label = `round ${round}: ${JSON.stringify(stored)}`;
      expect(archive.fileCount, label).toBe(expected.files.size);
      expect(archive.warnings(), label).toEqual(expected.warnings);
      for (const [e, p] of expected.paths) {
        for (const variant of [p, p.toUpperCase(), p.toLowerCase(), p.replaceAll('/', '\\'), `./${p.replaceAll('/', '//')}`]) {
          let want = -1;
          try {
            want = expected.files.get(foldPath(normalizeArchivePath(variant))) ?? -1;
          } catch {
            continue;
          }
          expect(archive.resolve(variant), `${label}: ${variant}`).toBe(want);
        }
        if (expected.files.get(foldPath(p)) === e) expect(archive.pathOf(e), label).toBe(p);
      }
      for (const [key, dirPath] of expected.dirs) {
        const files = [...expected.files].filter(([f]) => (f.lastIndexOf('/') < 0 ? '' : f.slice(0, f.lastIndexOf('/'))) === key).map(([, e]) => expected.paths.get(e));
        const subdirs = [...expected.dirs].filter(([d]) => d !== '' && (d.lastIndexOf('/') < 0 ? '' : d.slice(0, d.lastIndexOf('/'))) === key).map(([, stored]) => stored);
        const listing = archive.list(dirPath);
        expect(listing.filter((x) => x.kind === 'file').map((x) => x.path).sort(), `${label}: list ${dirPath}`).toEqual(files.sort());
        expect(listing.filter((x) => x.kind === 'directory').map((x) => x.path).sort(), `${label}: list ${dirPath}`).toEqual(subdirs.sort());
      }
    }
  });
});

/** Makes sTrA state one byte more than it inflates to: only inflating shows it. */
function overstateStrA(bytes: Uint8Array): Buffer {
  const out = Buffer.from(bytes);
  const at = layoutOf(bytes).names + 8;
  const encSize = (out.readUInt32LE(at) ^ STANDARD_KEYS.maskA) >>> 0;
  const rawLen = (out.readUInt32LE(at + 4) ^ encSize) >>> 0;
  out.writeUInt32LE(((rawLen + 1) ^ encSize) >>> 0, at + 4);
  return out;
}

/** Flips a bit in the middle of the sTrA stream (past its zlib header, which the open checks). */
function damageStrA(bytes: Uint8Array): Buffer {
  const out = Buffer.from(bytes);
  const at = layoutOf(bytes).names + 8;
  const encSize = (out.readUInt32LE(at) ^ STANDARD_KEYS.maskA) >>> 0;
  const middle = at + 8 + Math.floor(encSize / 2);
  out[middle] = (out[middle] as number) ^ 0x10;
  return out;
}

function sample(): Buffer {
  const builder = new NkpiArchiveBuilder({ chunkBytes: 1 });
  for (let i = 0; i < 200; i++) builder.addScript(`equipment/character/${1000 + i}.equ`, `[name]\n\`Item ${i}\`\n[grade]\n${i}`);
  return builder.build();
}

describe('lazy pools', () => {
  it('a pool that does not inflate to its stated size: the open succeeds, every path operation then throws the same error', () => {
    for (const bytes of [overstateStrA(sample()), damageStrA(sample())]) {
      const archive = open(bytes);
      expect(archive.describe()).toMatch(/^nkpi standard \(90US\), 200 files in \d+ chunks/);
      const first = caught(() => archive.fileCount);
      expect(first.code).toBe('INVALID_ARCHIVE');
      expect(first.message).toMatch(/^idx\.pvf: the sTrA pool (inflates to \d+ bytes, not its stated \d+|does not inflate: .*) \(key standard\)$/);
      expect(first.data).toMatchObject({ archive: 'idx.pvf', pool: 'sTrA' });
      const again = [() => archive.list(''), () => archive.resolve('equipment/character/1000.equ'), () => archive.readText('equipment/character/1000.equ'), () => archive.warnings(), () => archive.pools, () => archive.fileCount];
      for (const run of again) expect(caught(run)).toBe(first);
    }
  });

  it('a failed inflate releases the file at once (the workspace drops such a version unclosed)', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, overstateStrA(sample()));
    const archive = await openNkpiArchive(file);
    caught(() => archive.fileCount);
    // The chunk cache was dropped with it; reading a chunk again needs the file, which is closed.
    await new Promise((resolve) => setImmediate(resolve));
    expect(caught(() => archive.chunk(0, null)).code).toBe('STALE_WORKSPACE');
    await archive.close();
  });

  it('the workspace still reports a damaged pool when it opens the archive, with the same message', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, overstateStrA(sample()));
    const workspace = await createArchiveWorkspace(nkpiDriver, { workspaceId: 'lazy', name: 'lazy', path: file, reader: {} });
    const info = workspace.info();
    expect(info).toMatchObject({ archiveOpen: false, fileCount: 0 });
    expect(info.error).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the sTrA pool inflates to \\d+ bytes, not its stated \\d+ \\(key standard\\)$`));
    expect((await caughtAsync(() => workspace.view())).code).toBe('NO_ARCHIVE');
    await workspace.close();
  });

  it('what needs no inflating is still refused at open: offsets past the stated pool, a bad zlib header', () => {
    const bytes = sample();
    const layout = layoutOf(bytes);
    const past = Buffer.from(bytes);
    past.writeInt32LE(2 * 10_000_000, layout.table + 24 * 150);
    expect(caught(() => open(past)).message).toMatch(/^idx\.pvf: file table item 150: its NameOffset points past the end of its string pool \(offset 20000000: sTrA byte 10000000, past the end of the \d+-byte sTrA pool\)$/);
    const header = Buffer.from(bytes);
    header[layout.names + 16] = (header[layout.names + 16] as number) ^ 0x01;
    expect(caught(() => open(header)).message).toMatch(/^idx\.pvf: the sTrA pool does not decrypt to a zlib stream \(first bytes 79[0-9a-f]{2}, expected 78 \.\.\): it is damaged or encrypted with other keys \(key standard\)$/);
  });

  it('an intact archive inflates once: the pools and the index are the same objects on every use', () => {
    const archive = open(sample());
    const { pools, index } = archive;
    expect(archive.pools).toBe(pools);
    expect(archive.index).toBe(index);
    expect(archive.poolSizes).toEqual({ a: pools.a.length, w: pools.w.length });
    expect(archive.readText('EQUIPMENT/character/1150.EQU').text).toBe('[name]\n\t`Item 150`\n\n[grade]\n\t150');
  });
});
