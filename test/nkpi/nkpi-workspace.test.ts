/**
 * openNkpiWorkspace: the workspace contract over nkpi archives (standard and alternate keys, guard on
 * and off), info and container, failed opens (classic, paged 110 without keys, damaged, missing), and
 * the revision bump with consistent views when the archive on disk is replaced or rewritten.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPvfdocError } from '../../runtime/errors.js';
import { openNkpiWorkspace, type NkpiWorkspace } from '../../runtime/workspace/open-nkpi-workspace.js';
import type { Workspace } from '../../runtime/workspace/workspace.js';
import { testWorkspaceContract } from '../runtime/workspace/workspace-contract.js';
import { writeNkpiArchive, type WriteNkpiArchiveInput } from '../support/write-nkpi-archive.js';
import { writeClassicArchive } from '../support/write-classic-archive.js';
import { caughtAsync, makeTempDir, NKPI_PVF, removeTempDirs } from './helpers.js';

const opened: Workspace[] = [];
let counter = 0;

afterAll(async () => {
  for (const workspace of opened) await workspace.close();
  removeTempDirs();
});

async function open(file: string, options: { pvfVersion?: string } = {}): Promise<NkpiWorkspace> {
  const workspace = (await openNkpiWorkspace({ workspaceId: `nkpi${++counter}`, name: 'test archive', path: file, ...options })) as NkpiWorkspace;
  opened.push(workspace);
  return workspace;
}

function replaceFile(file: string, bytes: Uint8Array): void {
  const temp = `${file}.tmp${++counter}`;
  writeFileSync(temp, bytes);
  renameSync(temp, file);
}

function archiveOf(scripts: Record<string, string>, options: Omit<WriteNkpiArchiveInput, 'scripts'> = {}): Buffer {
  return writeNkpiArchive({ scripts, ...options });
}

async function staleOrText(run: () => string): Promise<string> {
  try {
    return run();
  } catch (error) {
    if (isPvfdocError(error) && error.code === 'STALE_WORKSPACE') return 'STALE_WORKSPACE';
    throw error;
  }
}

// The shared contract, over archives holding the files as UTF-16 text files (DataType 3) and opaque
// bytes (DataType 0), once per key set and guard.
for (const [keys, guard] of [
  ['standard', false],
  ['standard', true],
  ['alternate', false],
  ['alternate', true],
] as const) {
  const contractFiles = new WeakMap<Workspace, string>();
  testWorkspaceContract(
    `pvf-nkpi (${keys} keys${guard ? ', guard' : ''})`,
    async (files) => {
      const file = path.join(makeTempDir(), 'Script.pvf');
      writeFileSync(file, writeNkpiArchive({ files, keys, guard }));
      const workspace = await open(file);
      contractFiles.set(workspace, file);
      return workspace;
    },
    {
      update: async (workspace, files) => {
        const file = contractFiles.get(workspace);
        if (file === undefined) throw new Error('unknown workspace');
        replaceFile(file, writeNkpiArchive({ files, keys, guard }));
      },
    },
  );
}

describe('nkpi workspace', () => {
  it('info: kind pvf-nkpi, the detected client version unless given, utf-8, file count', async () => {
    const workspace = await open(NKPI_PVF);
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
    expect(workspace.container()).toEqual({ family: 'nkpi', variant: 'standard', clientVersion: '90US', readable: true });
    expect(view.readText('a/b.equ')).toEqual({ path: 'a/b.equ', text: '[name]\n\t`名字`\n\n[grade]\n\t74\t1.5\n\t{5=`x``y`}', textRevision: expect.stringMatching(/^[0-9a-f]{32}$/), isScript: true });
    expect((await open(NKPI_PVF, { pvfVersion: '110US' })).info().pvfVersion).toBe('110US');

    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, archiveOf({ 'a.equ': '[name]\n`a`' }, { keys: 'alternate', guard: true }));
    const alternate = await open(file);
    expect(alternate.info()).toMatchObject({ pvfVersion: '90CN', archiveOpen: true, fileCount: 1 });
    expect(alternate.container()).toEqual({ family: 'nkpi', variant: 'alternate-guard', clientVersion: '90CN', readable: true });
  });

  it('info lists problems that do not stop reading (repeated paths) as warnings', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, writeNkpiArchive({ files: [['a.txt', 'first'], ['A.TXT', 'second']] }));
    const workspace = await open(file);
    expect((workspace.info() as { warnings?: string[] }).warnings).toEqual(['1 file table items repeat an earlier path; lookups use the first']);
    expect((await workspace.view()).readText('a.TXT').text).toBe('first');
    expect('warnings' in (await open(NKPI_PVF)).info()).toBe(false);
  });

  it('a classic archive, a damaged archive, a missing file: archiveOpen false with the reason', async () => {
    const dir = makeTempDir();
    const classic = path.join(dir, 'classic.pvf');
    writeFileSync(classic, writeClassicArchive({ scripts: { 'a.equ': '[name]\n`a`' } }));
    const c = await open(classic);
    expect(c.info()).toMatchObject({ archiveOpen: false, pvfVersion: '' });
    expect(c.info().error).toBe(`${classic}: this is a classic (pvfUtility) archive, not an nkpi one; open it as a classic workspace`);
    expect((await caughtAsync(() => c.view())).code).toBe('NO_ARCHIVE');

    const damaged = path.join(dir, 'damaged.pvf');
    const bytes = Buffer.from(readFileSync(NKPI_PVF));
    bytes[33] = (bytes[33] as number) ^ 0x01; // BodySize 41 → 297
    writeFileSync(damaged, bytes);
    const d = await open(damaged);
    expect(d.info().error).toMatch(/^.*damaged\.pvf: corrupt header: it decrypts to the nkpi signature with the standard keys, but/);
    expect(d.info().pvfVersion).toBe('90US');

    const missing = await open(path.join(dir, 'missing.pvf'));
    expect(missing.info()).toMatchObject({ archiveOpen: false, revision: 1, error: `archive ${path.join(dir, 'missing.pvf')} does not exist` });
  });

  it('replacing the archive bumps the revision; the old view keeps reading its own version', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, archiveOf({ 'a.equ': '[name]\n`old`', 'b.equ': '[name]\n`b`' }));
    const workspace = await open(file);
    const before = await workspace.view();
    expect(before.readText('a.equ').text).toBe('[name]\n\t`old`');
    expect(await workspace.view()).toBe(before);

    replaceFile(file, archiveOf({ 'a.equ': '[name]\n`new`', 'c.equ': '[name]\n`c`' }, { keys: 'alternate' }));
    const after = await workspace.view();
    expect(after.revision).toBe(before.revision + 1);
    expect(workspace.info()).toMatchObject({ revision: after.revision, pvfVersion: '90CN' });
    expect(after.readText('a.equ').text).toBe('[name]\n\t`new`');
    expect(after.resolveFile('b.equ')).toBeNull();
    expect(before.readText('b.equ').text).toBe('[name]\n\t`b`');
    expect(before.resolveFile('c.equ')).toBeNull();

    // Two versions later the oldest is closed: its view refuses instead of mixing.
    replaceFile(file, archiveOf({ 'a.equ': '[name]\n`third`' }));
    const third = await workspace.view();
    expect(third.revision).toBe(after.revision + 1);
    const stale = await caughtAsync(async () => before.readBytes('a.equ'));
    expect(stale.code).toBe('STALE_WORKSPACE');
    expect(stale.data?.['revision']).toBe(third.revision);
  });

  it('rewriting the archive in place: the old view gives old text or STALE_WORKSPACE, never the new', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    // Two chunks, so one is still unread when the file changes.
    writeFileSync(file, archiveOf({ 'a.equ': '[name]\n`old a`', 'b.equ': '[name]\n`old b`' }, { chunkBytes: 1 }));
    const workspace = await open(file);
    const view = await workspace.view();
    expect(view.readText('a.equ').text).toContain('old a');
    writeFileSync(file, archiveOf({ 'a.equ': '[name]\n`new a, longer`', 'b.equ': '[name]\n`new b, longer`' }, { chunkBytes: 1 }));
    expect(await staleOrText(() => view.readText('a.equ').text)).toContain('old a');
    const stale = await caughtAsync(async () => view.readText('b.equ'));
    expect(stale.code).toBe('STALE_WORKSPACE');
    expect(stale.data?.['revision']).toBe(view.revision + 1);
    const next = await workspace.view();
    expect(next.revision).toBe(view.revision + 1);
    expect(next.readText('b.equ').text).toContain('new b, longer');
  });

  it('a deleted archive closes the workspace until it is back; close() makes old views refuse', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, readFileSync(NKPI_PVF));
    const workspace = await open(file);
    const view = await workspace.view();
    rmSync(file);
    expect((await caughtAsync(() => workspace.view())).code).toBe('NO_ARCHIVE');
    expect(workspace.info()).toMatchObject({ archiveOpen: false, revision: view.revision + 1 });
    writeFileSync(file, readFileSync(NKPI_PVF));
    const back = await workspace.view();
    expect(back.revision).toBe(view.revision + 2);
    await workspace.close();
    expect(workspace.info()).toMatchObject({ archiveOpen: false, error: 'the workspace is closed' });
    expect((await caughtAsync(async () => back.readBytes('a/c.str'))).code).toBe('STALE_WORKSPACE');
  });
});
