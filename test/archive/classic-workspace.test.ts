/**
 * openClassicWorkspace: the workspace contract over a classic archive file, failed opens, and the
 * revision bump (with consistent views) when the archive on disk is replaced or rewritten.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPvfdocError } from '../../runtime/errors.js';
import { openClassicWorkspace } from '../../runtime/workspace/open-classic-workspace.js';
import type { Workspace, WorkspaceView } from '../../runtime/workspace/workspace.js';
import { testWorkspaceContract } from '../runtime/workspace/workspace-contract.js';
import { writeClassicArchive } from '../support/write-classic-archive.js';
import { caughtAsync, EXAMPLE_PVF, makeTempDir, NKPI_PVF, removeTempDirs } from './helpers.js';

const opened: Workspace[] = [];
let counter = 0;

afterAll(async () => {
  for (const workspace of opened) await workspace.close();
  removeTempDirs();
});

async function open(file: string, options: { pvfVersion?: string; encoding?: string } = {}): Promise<Workspace> {
  const workspace = await openClassicWorkspace({ workspaceId: `pvf${++counter}`, name: 'test archive', path: file, ...options });
  opened.push(workspace);
  return workspace;
}

/** Writes a new archive at `file` by renaming a complete temp file over it (a "replace"). */
function replaceFile(file: string, bytes: Uint8Array): void {
  const temp = `${file}.tmp${++counter}`;
  writeFileSync(temp, bytes);
  renameSync(temp, file);
}

function archiveOf(scripts: Record<string, string>): Buffer {
  return writeClassicArchive({ scripts });
}

async function staleOrText(run: () => string): Promise<string> {
  try {
    return run();
  } catch (error) {
    if (isPvfdocError(error) && error.code === 'STALE_WORKSPACE') return 'STALE_WORKSPACE';
    throw error;
  }
}

// The shared workspace contract (the same suite as folder workspaces), over archives holding the files
// as stored bytes (names keep their case; no stringtable.bin, so an empty tree is an empty workspace).
const contractFiles = new WeakMap<Workspace, string>();
testWorkspaceContract(
  'pvf-classic',
  async (files) => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, writeClassicArchive({ files, encoding: 'utf-8', keepCase: true }));
    const workspace = await open(file);
    contractFiles.set(workspace, file);
    return workspace;
  },
  {
    update: async (workspace, files) => {
      const file = contractFiles.get(workspace);
      if (file === undefined) throw new Error('unknown workspace');
      replaceFile(file, writeClassicArchive({ files, encoding: 'utf-8', keepCase: true }));
    },
  },
);

describe('classic workspace', () => {
  it('info: kind, version "" unless given, detected or given encoding, file count, revision', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'Script.pvf');
    writeFileSync(file, readFileSync(EXAMPLE_PVF));
    const workspace = await open(file);
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
    const given = await open(file, { pvfVersion: '70TW', encoding: 'CP936' });
    expect(given.info()).toMatchObject({ pvfVersion: '70TW', encoding: 'cp936', archiveOpen: true });
  });

  it('view: list, resolve, canonical text and bytes of example.pvf', async () => {
    const workspace = await open(EXAMPLE_PVF);
    const view = await workspace.view();
    expect(view.listDirectory('')).toEqual([
      { name: 'equipment', path: 'equipment', kind: 'directory', size: null },
      { name: 'n_string.lst', path: 'n_string.lst', kind: 'file', size: 2 },
      { name: 'stringtable.bin', path: 'stringtable.bin', kind: 'file', size: 51 },
    ]);
    expect(view.resolveFile('Equipment/SWORD.equ')).toBe('equipment/sword.equ');
    const text = view.readText('EQUIPMENT/sword.equ');
    expect(text).toEqual({ path: 'equipment/sword.equ', text: '#PVF_File\n\n[name]\n\t`Sword`\n\n[grade]\n\t3\n', textRevision: expect.stringMatching(/^[0-9a-f]{32}$/), isScript: true });
    expect(view.readText('equipment/equipment.lst')).toMatchObject({ text: '#PVF_File\n\n1\n`sword.equ`', isScript: true });
    expect(view.readText('stringtable.bin').isScript).toBe(false);
    expect(Buffer.from(view.readBytes('equipment/sword.equ')).toString('hex')).toBe('b0d0050000000007010000000502000000020300000000'.slice(0, 44));
    expect(await caughtAsync(async () => view.readText('../x'))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await caughtAsync(async () => view.readText('missing.equ'))).toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect(await caughtAsync(async () => view.listDirectory('n_string.lst'))).toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('a failed open still gives a workspace: archiveOpen false, the reason, NO_ARCHIVE; it opens once the file is fixed', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'Script.pvf');
    const workspace = await open(file);
    const info = workspace.info();
    expect(info).toMatchObject({ kind: 'pvf-classic', archiveOpen: false, fileCount: 0, revision: 1 });
    expect(info.error).toBe(`archive ${file} does not exist`);
    const error = await caughtAsync(() => workspace.view());
    expect(error.code).toBe('NO_ARCHIVE');
    expect(error.message).toContain('does not exist');
    // Still broken after another look: no revision churn.
    await caughtAsync(() => workspace.view());
    expect(workspace.info().revision).toBe(1);

    writeFileSync(file, readFileSync(EXAMPLE_PVF).subarray(0, 100));
    await caughtAsync(() => workspace.view());
    expect(workspace.info().error).toBe(`${file}: truncated: the file tree (152 bytes at offset 56) runs past the end of the file (100 bytes)`);

    replaceFile(file, readFileSync(EXAMPLE_PVF));
    const view = await workspace.view();
    expect(view.revision).toBe(2);
    expect(workspace.info()).toMatchObject({ archiveOpen: true, error: null, fileCount: 4 });
  });

  it('an nkpi archive, a damaged archive, a bad encoding: each reported in info().error', async () => {
    const nkpi = await open(NKPI_PVF);
    expect(nkpi.info().archiveOpen).toBe(false);
    expect(nkpi.info().error).toBe(
      `${NKPI_PVF}: this is an nkpi-family archive (pvfine 90US/90CN/110US), not a classic pvfUtility one (its header decrypts to the nkpi signature with the standard (90US) keys)`,
    );
    const dir = makeTempDir();
    const damaged = path.join(dir, 'damaged.pvf');
    const bytes = Buffer.from(readFileSync(EXAMPLE_PVF));
    bytes[100] = (bytes[100] as number) ^ 0xff;
    writeFileSync(damaged, bytes);
    expect((await open(damaged)).info().error).toContain(`${damaged}: tree CRC mismatch`);
    expect((await open(EXAMPLE_PVF, { encoding: 'nope' })).info().error).toBe('unknown text encoding "nope"');
  });

  it('replacing the archive bumps the revision; the old view keeps reading its own version', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, archiveOf({ 'a.equ': '[name]\n`old`', 'b.equ': '[name]\n`b`' }));
    const workspace = await open(file);
    const before = await workspace.view();
    expect(before.readText('a.equ').text).toBe('#PVF_File\n\n[name]\n\t`old`\n');
    expect(await workspace.view()).toBe(before);

    replaceFile(file, archiveOf({ 'a.equ': '[name]\n`new`', 'c.equ': '[name]\n`c`' }));
    const after = await workspace.view();
    expect(after.revision).toBe(before.revision + 1);
    expect(workspace.info().revision).toBe(after.revision);
    expect(after.readText('a.equ').text).toBe('#PVF_File\n\n[name]\n\t`new`\n');
    expect(after.resolveFile('b.equ')).toBeNull();
    // The old view reads the old version through its own handle, never the new one.
    expect(before.readText('b.equ').text).toBe('#PVF_File\n\n[name]\n\t`b`\n');
    expect(before.readText('a.equ').text).toBe('#PVF_File\n\n[name]\n\t`old`\n');
    expect(before.resolveFile('c.equ')).toBeNull();

    // Two versions later the oldest is closed: its view refuses instead of mixing.
    replaceFile(file, archiveOf({ 'a.equ': '[name]\n`third`' }));
    const third = await workspace.view();
    expect(third.revision).toBe(after.revision + 1);
    expect(['#PVF_File\n\n[name]\n\t`b`\n', 'STALE_WORKSPACE']).toContain(await staleOrText(() => before.readText('b.equ').text));
    const stale = await caughtAsync(async () => before.readBytes('b.equ'));
    expect(stale.code).toBe('STALE_WORKSPACE');
    expect(stale.data?.revision).toBe(third.revision);
    expect(after.readText('c.equ').text).toBe('#PVF_File\n\n[name]\n\t`c`\n');
  });

  it('rewriting the archive in place: reads through the old view fail STALE_WORKSPACE or give the old text, never the new', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, archiveOf({ 'a.equ': '[name]\n`old a`', 'b.equ': '[name]\n`old b`' }));
    const workspace = await open(file);
    const view = await workspace.view();
    expect(view.readText('a.equ').text).toContain('old a');
    // Same inode, new content; nobody called view() yet.
    writeFileSync(file, archiveOf({ 'a.equ': '[name]\n`new a, longer`', 'b.equ': '[name]\n`new b, longer`' }));
    expect(await staleOrText(() => view.readText('a.equ').text)).toContain('old a');
    const stale = await caughtAsync(async () => view.readText('b.equ'));
    expect(stale.code).toBe('STALE_WORKSPACE');
    // The read bumped the revision at once; view() reopens under it without a second bump.
    expect(stale.data?.revision).toBe(view.revision + 1);
    const next = await workspace.view();
    expect(next.revision).toBe(view.revision + 1);
    expect(next.readText('b.equ').text).toContain('new b, longer');
  });

  it('a deleted archive closes the workspace (NO_ARCHIVE) until it is back', async () => {
    const file = path.join(makeTempDir(), 'Script.pvf');
    writeFileSync(file, readFileSync(EXAMPLE_PVF));
    const workspace = await open(file);
    const view = await workspace.view();
    rmSync(file);
    expect((await caughtAsync(() => workspace.view())).code).toBe('NO_ARCHIVE');
    expect(workspace.info()).toMatchObject({ archiveOpen: false, revision: view.revision + 1 });
    // The old view still reads the unlinked file it opened.
    expect(view.readText('equipment/sword.equ').isScript).toBe(true);
    writeFileSync(file, readFileSync(EXAMPLE_PVF));
    expect((await workspace.view()).revision).toBe(view.revision + 2);
  });

  it('close: NO_ARCHIVE afterwards; old views refuse', async () => {
    const workspace = await open(EXAMPLE_PVF);
    const view: WorkspaceView = await workspace.view();
    await workspace.close();
    expect((await caughtAsync(() => workspace.view())).code).toBe('NO_ARCHIVE');
    expect(workspace.info()).toMatchObject({ archiveOpen: false, error: 'the workspace is closed' });
    expect((await caughtAsync(async () => view.readBytes('n_string.lst'))).code).toBe('STALE_WORKSPACE');
  });
});
