/**
 * Container detection (pvf-nkpi-format §3): classic vs nkpi; standard keys with and without the guard
 * → 90US, alternate → 90CN; a paged 110 archive → 110US, recognised but not readable without the
 * client's key files — and readable when page keys are supplied (synthetic test keys; pvfdoc ships
 * none).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectPvfContainer, PAGED110_UNREADABLE } from '../../../runtime/workspace/detect-container.js';
import { openNkpiArchive, openNkpiArchiveBytes } from '../../../runtime/nkpi/nkpi-archive.js';
import { PAGE_BYTES, PAGE_GUARD_BYTES } from '../../../runtime/nkpi/paged.js';
import { nkpiDriver } from '../../../runtime/workspace/archive-drivers.js';
import { createArchiveWorkspace } from '../../../runtime/workspace/archive-workspace.js';
import { writeClassicArchive } from '../../support/write-classic-archive.js';
import { lockPages, NkpiArchiveBuilder, writeNkpiArchive } from '../../support/write-nkpi-archive.js';
import { caught, caughtAsync, makeTempDir, NKPI_PVF, removeTempDirs, seededRandom } from './helpers.js';

afterAll(() => removeTempDirs());

function write(bytes: Uint8Array, name = 'Script.pvf', dir = makeTempDir()): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** Deterministic pseudo-random bytes. */
function noise(length: number, seed: number): Buffer {
  const random = seededRandom(seed);
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 4) out.writeUInt32LE(Math.floor(random() * 2 ** 32), Math.min(i, length - 4));
  return out;
}

function testKeys(count: number, seed: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => noise(32, seed * 100 + i));
}

/** A logical Paged110 archive of `files` small scripts (plus optional big opaque payload), not yet locked. */
function paged110(files = 1000, big?: Uint8Array): Buffer {
  const builder = new NkpiArchiveBuilder({ keys: 'paged110' });
  for (let i = 0; i < files; i++) builder.addScript(`stackable/${i}.stk`, `[name]\n{8=\`<13::name_${i}>\`}\n[rarity]\n${i % 9}`);
  if (big) builder.addFile('big.bin', 0, big);
  return builder.build();
}

describe('detectPvfContainer', () => {
  it('nkpi standard → 90US, with or without the guard; alternate → 90CN', async () => {
    expect(await detectPvfContainer(NKPI_PVF)).toEqual({ family: 'nkpi', variant: 'standard', clientVersion: '90US', readable: true });
    const scripts = { 'a.equ': '[name]\n`a`' };
    expect(await detectPvfContainer(write(writeNkpiArchive({ scripts, guard: true })))).toEqual({ family: 'nkpi', variant: 'standard-guard', clientVersion: '90US', readable: true });
    expect(await detectPvfContainer(write(writeNkpiArchive({ scripts, keys: 'alternate' })))).toEqual({ family: 'nkpi', variant: 'alternate', clientVersion: '90CN', readable: true });
    expect(await detectPvfContainer(write(writeNkpiArchive({ scripts, keys: 'alternate', guard: true })))).toEqual({ family: 'nkpi', variant: 'alternate-guard', clientVersion: '90CN', readable: true });
  });

  it('classic → classic, no client version', async () => {
    expect(await detectPvfContainer(write(writeClassicArchive({ scripts: { 'a.equ': '[name]\n`a`' } })))).toEqual({ family: 'classic', variant: 'classic', clientVersion: '', readable: true });
  });

  it('an nkpi header with sizes that do not fit: nkpi, not readable, "corrupt header"', async () => {
    const bytes = writeNkpiArchive({ scripts: { 'a.equ': '[name]\n`a`' } });
    const file = write(bytes.subarray(0, bytes.length - 1));
    const detected = await detectPvfContainer(file);
    expect(detected).toMatchObject({ family: 'nkpi', variant: 'standard', clientVersion: '90US', readable: false });
    expect(detected.reason).toMatch(/corrupt header: it decrypts to the nkpi signature with the standard keys, but the header declares .* but the file has \d+ bytes/);
  });

  it('a paged 110 archive: 110US, recognised but not readable without key files (by its file table, or by sk.dat)', async () => {
    const keys = testKeys(1, 1);
    const file = write(lockPages(paged110(), keys));
    expect(await detectPvfContainer(file)).toEqual({ family: 'nkpi', variant: 'paged110', clientVersion: '110US', readable: false, reason: `${file}: ${PAGED110_UNREADABLE}` });
    expect(PAGED110_UNREADABLE).toContain('recognised, but not readable without the client’s key files');

    // Bytes that show nothing, with a non-empty sk.dat next to them (pvfine's ErrPaged110Keys).
    const dir = makeTempDir();
    const opaque = write(noise(3 * PAGE_GUARD_BYTES, 6), 'Script.pvf', dir);
    expect((await detectPvfContainer(opaque)).family).toBe('unknown');
    writeFileSync(path.join(dir, 'sk.dat'), noise(1920, 7));
    expect(await detectPvfContainer(opaque)).toMatchObject({ family: 'nkpi', variant: 'paged110', clientVersion: '110US', readable: false });
  });

  it('the workspace of a paged 110 archive: archiveOpen false, pvfVersion 110US, the exact reason; NO_ARCHIVE', async () => {
    const file = write(lockPages(paged110(), testKeys(1, 2)));
    const workspace = await createArchiveWorkspace(nkpiDriver, { workspaceId: 'paged', name: 'paged', path: file, reader: {} });
    expect(workspace.info()).toMatchObject({ kind: 'pvf-nkpi', pvfVersion: '110US', archiveOpen: false, error: `${file}: ${PAGED110_UNREADABLE}` });
    const error = await caughtAsync(() => workspace.view());
    expect(error.code).toBe('NO_ARCHIVE');
    expect(error.message).toContain('not readable without the client’s key files');
    await workspace.close();
  });

  it('with the page keys supplied, a paged 110 archive reads as 110US, across page guards', async () => {
    const keys = testKeys(2, 3);
    const big = noise(PAGE_BYTES + 4 * PAGE_GUARD_BYTES, 4);
    const logical = paged110(600, big);
    expect(logical.length).toBeGreaterThan(PAGE_BYTES + PAGE_GUARD_BYTES);
    const locked = lockPages(logical, keys);
    expect(locked.subarray(PAGE_BYTES, PAGE_BYTES + PAGE_GUARD_BYTES).equals(logical.subarray(PAGE_BYTES, PAGE_BYTES + PAGE_GUARD_BYTES))).toBe(false);
    const file = write(locked);
    const archive = await openNkpiArchive(file, { pageKeys: keys });
    expect(archive).toMatchObject({ variant: 'paged110', clientVersion: '110US' });
    expect(archive.pools.a.length).toBe(0); // all strings in sTrW
    expect(archive.readText('stackable/599.stk').text).toBe('[name]\n\t{8=`<13::name_599>`}\n\n[rarity]\n\t5');
    expect(Buffer.from(archive.readFile('big.bin')).equals(big)).toBe(true);
    await archive.close();
    // Wrong keys: the header does not decrypt.
    const wrong = caught(() => openNkpiArchiveBytes(locked, 'locked.pvf', { pageKeys: testKeys(2, 5) }));
    expect(wrong.message).toMatch(/^locked\.pvf: not an nkpi archive: its first 4 bytes .* with the Paged110 key \(iNfO\)/);
    const workspace = await createArchiveWorkspace(nkpiDriver, { workspaceId: 'keyed', name: 'keyed', path: file, reader: { pageKeys: keys } });
    expect(workspace.info()).toMatchObject({ pvfVersion: '110US', archiveOpen: true, fileCount: 601 });
    await workspace.close();
  });

  it('unknown: random bytes, an empty file, a missing file', async () => {
    const random = await detectPvfContainer(write(noise(5000, 8)));
    expect(random).toMatchObject({ family: 'unknown', variant: '', clientVersion: '', readable: false });
    expect(random.reason).toContain('not a PVF archive');
    expect(await detectPvfContainer(write(new Uint8Array(0)))).toMatchObject({ family: 'unknown', readable: false });
    const missing = path.join(makeTempDir(), 'missing.pvf');
    expect(await detectPvfContainer(missing)).toEqual({ family: 'unknown', variant: '', clientVersion: '', readable: false, reason: `archive ${missing} does not exist` });
  });
});
