/**
 * Every archive driver (runtime/workspace/archive-drivers.ts) through the same two suites — the
 * workspace contract and the archive lifecycle — and then what each format reports of itself: info,
 * version, encoding, warnings, and files of another format. Also the dispatch of openWorkspace.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OpenClassicArchiveOptions } from '../../../runtime/classic/classic-archive.js';
import type { OpenNkpiArchiveOptions } from '../../../runtime/nkpi/nkpi-archive.js';
import { classicDriver, nkpiDriver } from '../../../runtime/workspace/archive-drivers.js';
import { createArchiveWorkspace, type ArchiveDriver } from '../../../runtime/workspace/archive-workspace.js';
import { openWorkspace } from '../../../runtime/workspace/open-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { caughtAsync, EXAMPLE_PVF, makeTempDir, NKPI_PVF, removeTempDirs } from '../classic/helpers.js';
import { writeClassicArchive } from '../../support/write-classic-archive.js';
import { writeNkpiArchive } from '../../support/write-nkpi-archive.js';
import { testArchiveLifecycle } from './archive-lifecycle-contract.js';
import { testWorkspaceContract } from './workspace-contract.js';
import type { FileTree } from './helpers.js';

const opened: Workspace[] = [];
let counter = 0;

afterAll(async () => {
  for (const workspace of opened) await workspace.close();
  removeTempDirs();
});

async function openWith<Options>(driver: ArchiveDriver<Options>, file: string, reader: Options, pvfVersion?: string): Promise<Workspace> {
  const workspace = await createArchiveWorkspace(driver, { workspaceId: `ws${++counter}`, name: 'test archive', path: file, reader, ...(pvfVersion === undefined ? {} : { pvfVersion }) });
  opened.push(workspace);
  return workspace;
}

function replaceFile(file: string, bytes: Uint8Array): void {
  const temp = `${file}.tmp${++counter}`;
  writeFileSync(temp, bytes);
  renameSync(temp, file);
}

/** Runs the workspace contract over archives of one driver written by `write`. */
function contractFor<Options>(name: string, driver: ArchiveDriver<Options>, reader: Options, write: (files: FileTree) => Uint8Array): void {
  const contractFiles = new WeakMap<Workspace, string>();
  testWorkspaceContract(
    name,
    async (files) => {
      const file = path.join(makeTempDir(), 'Script.pvf');
      writeFileSync(file, write(files));
      const workspace = await openWith(driver, file, reader);
      contractFiles.set(workspace, file);
      return workspace;
    },
    {
      update: async (workspace, files) => {
        const file = contractFiles.get(workspace);
        if (file === undefined) throw new Error('unknown workspace');
        replaceFile(file, write(files));
      },
    },
  );
}

// Classic archives hold the files as stored bytes (names keep their case; no stringtable.bin).
contractFor<OpenClassicArchiveOptions>('pvf-classic', classicDriver, {}, (files) => writeClassicArchive({ files, encoding: 'utf-8', keepCase: true }));
testArchiveLifecycle<OpenClassicArchiveOptions>('pvf-classic', {
  driver: classicDriver,
  reader: {},
  write: (scripts) => writeClassicArchive({ scripts }),
  sample: EXAMPLE_PVF,
  samplePath: 'equipment/sword.equ',
  replacedStaysReadable: true,
});

// nkpi archives hold them as UTF-16 text files and opaque bytes, once per key set and guard.
for (const [keys, guard] of [
  ['standard', false],
  ['standard', true],
  ['alternate', false],
  ['alternate', true],
] as const) {
  const name = `pvf-nkpi (${keys} keys${guard ? ', guard' : ''})`;
  contractFor<OpenNkpiArchiveOptions>(name, nkpiDriver, {}, (files) => writeNkpiArchive({ files, keys, guard }));
  // One file a chunk, so one is still unread when the archive changes.
  testArchiveLifecycle<OpenNkpiArchiveOptions>(name, {
    driver: nkpiDriver,
    reader: {},
    write: (scripts) => writeNkpiArchive({ scripts, keys, guard, chunkBytes: 1 }),
    sample: NKPI_PVF,
    samplePath: 'a/c.str',
    replacedStaysReadable: false,
  });
}

describe('classic driver', () => {
  it('info: kind, version "" unless given, detected or given encoding, file count, revision', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, readFileSync(EXAMPLE_PVF));
    const workspace = await openWith(classicDriver, file, {});
    const view = await workspace.view();
    expect(workspace.info()).toEqual({
      workspaceId: workspace.workspaceId,
      name: 'test archive',
      kind: 'pvf-classic',
      pvfVersion: '',
      revision: view.revision,
      fileCount: 4,
      encoding: 'cp950',
      archiveOpen: true,
      error: null,
    });
    const given = await openWith(classicDriver, file, { encoding: 'CP936' }, '70TW');
    expect(given.info()).toMatchObject({ pvfVersion: '70TW', encoding: 'cp936', archiveOpen: true });
  });

  it('view: list, resolve, canonical text and bytes of example.pvf', async () => {
    const view = await (await openWith(classicDriver, EXAMPLE_PVF, {})).view();
    expect(view.listDirectory('')).toEqual([
      { name: 'equipment', path: 'equipment', kind: 'directory', size: null },
      { name: 'n_string.lst', path: 'n_string.lst', kind: 'file', size: 2 },
      { name: 'stringtable.bin', path: 'stringtable.bin', kind: 'file', size: 51 },
    ]);
    expect(view.resolveFile('Equipment/SWORD.equ')).toBe('equipment/sword.equ');
    expect(view.readText('EQUIPMENT/sword.equ')).toEqual({ path: 'equipment/sword.equ', text: '#PVF_File\n\n[name]\n\t`Sword`\n\n[grade]\n\t3\n', textRevision: expect.stringMatching(/^[0-9a-f]{32}$/), isScript: true });
    expect(view.readText('equipment/equipment.lst')).toMatchObject({ text: '#PVF_File\n\n1\n`sword.equ`', isScript: true });
    expect(view.readText('stringtable.bin').isScript).toBe(false);
    expect(Buffer.from(view.readBytes('equipment/sword.equ')).toString('hex')).toBe('b0d0050000000007010000000502000000020300000000'.slice(0, 44));
    expect(await caughtAsync(async () => view.readText('../x'))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await caughtAsync(async () => view.readText('missing.equ'))).toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect(await caughtAsync(async () => view.listDirectory('n_string.lst'))).toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('an nkpi archive, a damaged archive, a truncated one, a bad encoding: each reported in info().error', async () => {
    const nkpi = await openWith(classicDriver, NKPI_PVF, {});
    expect(nkpi.info()).toMatchObject({ archiveOpen: false, pvfVersion: '' });
    expect(nkpi.info().error).toBe(
      `${NKPI_PVF}: this is an nkpi-family archive (pvfine 90US/90CN/110US), not a classic pvfUtility one (its header decrypts to the nkpi signature with the standard (90US) keys)`,
    );
    const dir = makeTempDir();
    const damaged = path.join(dir, 'damaged.pvf');
    const bytes = Buffer.from(readFileSync(EXAMPLE_PVF));
    bytes[100] = (bytes[100] as number) ^ 0xff;
    writeFileSync(damaged, bytes);
    expect((await openWith(classicDriver, damaged, {})).info().error).toContain(`${damaged}: tree CRC mismatch`);
    const truncated = path.join(dir, 'truncated.pvf');
    writeFileSync(truncated, readFileSync(EXAMPLE_PVF).subarray(0, 100));
    expect((await openWith(classicDriver, truncated, {})).info().error).toBe(`${truncated}: truncated: the file tree (152 bytes at offset 56) runs past the end of the file (100 bytes)`);
    const badEncoding = await openWith(classicDriver, EXAMPLE_PVF, { encoding: 'nope' });
    expect(badEncoding.info()).toMatchObject({ error: 'unknown text encoding "nope"', encoding: 'nope' });
  });
});

describe('nkpi driver', () => {
  it('info: kind pvf-nkpi, the detected client version unless given, utf-8, file count', async () => {
    const workspace = await openWith(nkpiDriver, NKPI_PVF, {});
    const view = await workspace.view();
    expect(workspace.info()).toEqual({
      workspaceId: workspace.workspaceId,
      name: 'test archive',
      kind: 'pvf-nkpi',
      pvfVersion: '90US',
      revision: view.revision,
      fileCount: 2,
      encoding: 'utf-8',
      archiveOpen: true,
      error: null,
    });
    expect(view.readText('a/b.equ')).toEqual({ path: 'a/b.equ', text: '[name]\n\t`名字`\n\n[grade]\n\t74\t1.5\n\t{5=`x``y`}', textRevision: expect.stringMatching(/^[0-9a-f]{32}$/), isScript: true });
    expect((await openWith(nkpiDriver, NKPI_PVF, {}, '110US')).info().pvfVersion).toBe('110US');

    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, writeNkpiArchive({ scripts: { 'a.equ': '[name]\n`a`' }, keys: 'alternate', guard: true }));
    expect((await openWith(nkpiDriver, file, {})).info()).toMatchObject({ pvfVersion: '90CN', archiveOpen: true, fileCount: 1 });
    // A replacement with other keys reports the new version.
    replaceFile(file, writeNkpiArchive({ scripts: { 'a.equ': '[name]\n`a`' } }));
    const replaced = opened[opened.length - 1] as Workspace;
    await replaced.view();
    expect(replaced.info().pvfVersion).toBe('90US');
  });

  it('info lists problems that do not stop reading (repeated paths) as warnings', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, writeNkpiArchive({ files: [['a.txt', 'first'], ['A.TXT', 'second']] }));
    const workspace = await openWith(nkpiDriver, file, {});
    expect(workspace.info().warnings).toEqual(['1 file table items repeat an earlier path; lookups use the first']);
    expect((await workspace.view()).readText('a.TXT').text).toBe('first');
    expect('warnings' in (await openWith(nkpiDriver, NKPI_PVF, {})).info()).toBe(false);
  });

  it('a classic archive, a damaged archive: archiveOpen false with the reason (and the version its header reveals)', async () => {
    const dir = makeTempDir();
    const classic = path.join(dir, 'classic.pvf');
    writeFileSync(classic, writeClassicArchive({ scripts: { 'a.equ': '[name]\n`a`' } }));
    const c = await openWith(nkpiDriver, classic, {});
    expect(c.info()).toMatchObject({ archiveOpen: false, pvfVersion: '' });
    expect(c.info().error).toBe(`${classic}: this is a classic (pvfUtility) archive, not an nkpi one; open it as a classic workspace`);
    expect((await caughtAsync(() => c.view())).code).toBe('NO_ARCHIVE');

    const damaged = path.join(dir, 'damaged.pvf');
    const bytes = Buffer.from(readFileSync(NKPI_PVF));
    bytes[33] = (bytes[33] as number) ^ 0x01; // BodySize 41 → 297
    writeFileSync(damaged, bytes);
    const d = await openWith(nkpiDriver, damaged, {});
    expect(d.info().error).toMatch(/^.*damaged\.pvf: corrupt header: it decrypts to the nkpi signature with the standard keys, but/);
    expect(d.info().pvfVersion).toBe('90US');
  });
});

describe('openWorkspace', () => {
  it('opens a folder as a directory, each archive with the driver its container is detected as, a missing .pvf as classic', async () => {
    const dir = makeTempDir();
    const open = async (p: string) => {
      const workspace = await openWorkspace({ workspaceId: `o${++counter}`, name: 'o', path: p });
      opened.push(workspace);
      return workspace.info();
    };
    expect(await open(dir)).toMatchObject({ kind: 'directory', archiveOpen: true });
    expect(await open(EXAMPLE_PVF)).toMatchObject({ kind: 'pvf-classic', archiveOpen: true });
    expect(await open(NKPI_PVF)).toMatchObject({ kind: 'pvf-nkpi', archiveOpen: true, pvfVersion: '90US' });
    const missing = path.join(dir, 'Missing.PVF');
    expect(await open(missing)).toMatchObject({ kind: 'pvf-classic', archiveOpen: false, error: `archive ${missing} does not exist` });
    const noExtension = path.join(dir, 'archive');
    writeFileSync(noExtension, readFileSync(NKPI_PVF));
    expect(await open(noExtension)).toMatchObject({ kind: 'pvf-nkpi', archiveOpen: true });
  });
});
