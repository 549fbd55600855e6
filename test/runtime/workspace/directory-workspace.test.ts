import { appendFileSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import { MAX_FILE_READ_BYTES } from '../../../runtime/workspace/workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { caught, errorCode, makeTempDir, openFolder, pollUntil, removeTempDirs, writeTree, type FileTree } from './helpers.js';
import { testWorkspaceContract } from './workspace-contract.js';

const roots = new WeakMap<Workspace, string>();
const opened: Workspace[] = [];

async function open(files: FileTree, options: { pvfVersion?: string } = {}): Promise<{ workspace: Workspace; root: string }> {
  const result = await openFolder(files, options);
  roots.set(result.workspace, result.root);
  opened.push(result.workspace);
  return result;
}

afterAll(async () => {
  for (const workspace of opened) await workspace.close();
  removeTempDirs();
});

testWorkspaceContract('directory', async (files) => (await open(files)).workspace, {
  update: async (workspace, files) => {
    const root = roots.get(workspace);
    if (root === undefined) throw new Error('unknown workspace');
    for (const name of readdirSync(root)) rmSync(path.join(root, name), { recursive: true, force: true });
    writeTree(root, files);
  },
});

/** The next revision after `before`, waiting (bounded) for the watcher. */
async function nextRevision(workspace: Workspace, before: number) {
  return pollUntil(async () => {
    const view = await workspace.view();
    return view.revision > before ? view : undefined;
  }, 10_000, `a revision after ${before}`);
}

describe('folder workspace', () => {
  it('info: kind directory, utf-8, the pvfVersion option, revision 1 at start', async () => {
    const { workspace } = await open({ 'a.equ': '[name]\n`a`\n' }, { pvfVersion: '90US' });
    expect(workspace.info()).toMatchObject({ kind: 'directory', encoding: 'utf-8', pvfVersion: '90US', revision: 1, fileCount: 1, archiveOpen: true, error: null, name: 'test' });
    const { workspace: other } = await open({});
    expect(other.info().pvfVersion).toBe('');
  });

  it('warns when the archive sits one level down (a Script/ folder, or several archives side by side), naming the folders to open', async () => {
    const nested = await open({ 'Script/equipment/a.equ': '[rarity]\n\t1\n', 'Script/etc/x.etc': '', 'readme.txt': 'x' });
    const [warning] = nested.workspace.info().warnings ?? [];
    // Named as written on disk: on a case-sensitive disk only that spelling opens it.
    expect(warning).toContain('one level down, in Script/');
    expect(warning).toContain('--workspace <name>=<this folder>/Script)');
    const two = await open({ 'a/equipment/x.equ': '', 'a/skill/y.skl': '', 'b/etc/z.etc': '', 'b/monster/m.mob': '' });
    expect(two.workspace.info().warnings?.[0]).toContain('in a/, b/:');
    // The archive at the root (or a folder with one archive-like subfolder only) gets no warning.
    for (const files of [{ 'equipment/a.equ': '', 'Script/etc/x.etc': '', 'Script/skill/y.skl': '' }, { 'Script/etc/x.etc': '' }, { 'notes/a.txt': '' }]) {
      expect((await open(files)).workspace.info().warnings).toBeUndefined();
    }
  });

  it('bumps the revision after a file write, and shows the new text', async () => {
    const { workspace, root } = await open({ 'equipment/a.equ': '[name]\n`old`\n' });
    const before = await workspace.view();
    writeFileSync(path.join(root, 'equipment/a.equ'), '[name]\n`new`\n');
    const after = await nextRevision(workspace, before.revision);
    expect(after.revision).toBe(before.revision + 1);
    expect(after.readText('equipment/a.equ').text).toBe('[name]\n`new`\n');
  });

  it('bumps the revision when a file or folder is added, and counts it', async () => {
    const { workspace, root } = await open({ 'a.equ': 'x' });
    const before = await workspace.view();
    writeTree(root, { 'new/folder/b.equ': 'y' });
    const after = await pollUntil(async () => {
      const view = await workspace.view();
      return view.resolveFile('new/folder/b.equ') !== null ? view : undefined;
    }, 10_000, 'the new file');
    expect(after.revision).toBeGreaterThan(before.revision);
    expect(workspace.info().fileCount).toBe(2);
    expect(after.listDirectory('new').map((e) => e.name)).toEqual(['folder']);
  });

  it('a read through a view of a file changed since indexing is STALE_WORKSPACE, counted once', async () => {
    const { workspace, root } = await open({ 'a.equ': '[name]\n`a`\n', 'b.equ': '[name]\n`b`\n' });
    const view = await workspace.view();
    // Written and read without yielding: the watcher cannot have reported it yet.
    appendFileSync(path.join(root, 'a.equ'), '[rarity]\n4\n');
    const error = await caught(() => view.readText('a.equ'));
    expect(error.code).toBe('STALE_WORKSPACE');
    expect(error.data?.revision).toBe(view.revision + 1);
    expect(workspace.info().revision).toBe(view.revision + 1);
    // Unchanged files still read through the old view (they reflect its revision).
    expect(view.readText('b.equ').text).toBe('[name]\n`b`\n');
    const next = await workspace.view();
    expect(next.revision).toBe(view.revision + 1);
    expect(next.readText('a.equ').text).toBe('[name]\n`a`\n[rarity]\n4\n');
    expect(await errorCode(() => view.readBytes('a.equ'))).toBe('STALE_WORKSPACE');
  });

  it('a deleted file read through an old view is STALE_WORKSPACE', async () => {
    const { workspace, root } = await open({ 'a.equ': 'x', 'b.equ': 'y' });
    const view = await workspace.view();
    rmSync(path.join(root, 'a.equ'));
    expect(await errorCode(() => view.readText('a.equ'))).toBe('STALE_WORKSPACE');
    expect((await workspace.view()).resolveFile('a.equ')).toBeNull();
  });

  it('a cached text is still checked against the disk', async () => {
    const { workspace, root } = await open({ 'a.equ': '[name]\n`a`\n' });
    const view = await workspace.view();
    expect(view.readText('a.equ').text).toBe('[name]\n`a`\n');
    writeFileSync(path.join(root, 'a.equ'), '[name]\n`changed, longer`\n');
    expect(await errorCode(() => view.readText('a.equ'))).toBe('STALE_WORKSPACE');
  });

  it('never follows symlinks out of the root; symlinks inside the root work', async () => {
    const outside = makeTempDir('pvfdoc-outside-');
    writeTree(outside, { 'secret.equ': '[name]\n`secret`\n', 'dir/inner.equ': 'x' });
    const { workspace, root } = await open({ 'real/a.equ': '[name]\n`a`\n' });
    symlinkSync(path.join(outside, 'secret.equ'), path.join(root, 'escape.equ'));
    symlinkSync(path.join(outside, 'dir'), path.join(root, 'escapedir'), 'dir');
    symlinkSync(path.join(root, 'real', 'a.equ'), path.join(root, 'inside.equ'));
    const view = await pollUntil(async () => {
      const v = await workspace.view();
      return v.resolveFile('inside.equ') !== null ? v : undefined;
    }, 10_000, 'the inside symlink');
    expect(view.resolveFile('escape.equ')).toBeNull();
    expect(view.resolveFile('escapedir/inner.equ')).toBeNull();
    expect(view.listDirectory('').map((e) => e.name)).toEqual(['real', 'inside.equ']);
    expect(view.readText('inside.equ').text).toBe('[name]\n`a`\n');
    expect(await errorCode(() => view.readText('escape.equ'))).toBe('FILE_NOT_FOUND');
  });

  it('a folder swapped for a symlink out of the root after indexing is never read', async () => {
    const outside = makeTempDir('pvfdoc-outside-');
    writeTree(outside, { 'a.equ': '[name]\n`outside`\n' });
    const { workspace, root } = await open({ 'sub/a.equ': '[name]\n`inside`\n' });
    const view = await workspace.view();
    rmSync(path.join(root, 'sub'), { recursive: true });
    symlinkSync(outside, path.join(root, 'sub'), 'dir');
    expect(await errorCode(() => view.readText('sub/a.equ'))).toBe('STALE_WORKSPACE');
  });

  it(`refuses files over ${MAX_FILE_READ_BYTES} bytes by their size with RESPONSE_TOO_LARGE`, async () => {
    const { workspace } = await open({ 'big.equ': Buffer.alloc(MAX_FILE_READ_BYTES + 1, 0x31), 'small.equ': '1' });
    const view = await workspace.view();
    expect(view.listDirectory('').find((e) => e.name === 'big.equ')?.size).toBe(MAX_FILE_READ_BYTES + 1);
    const error = await caught(() => view.readText('big.equ'));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.data).toMatchObject({ size: MAX_FILE_READ_BYTES + 1, limit: MAX_FILE_READ_BYTES });
    expect(await errorCode(() => view.readBytes('big.equ'))).toBe('RESPONSE_TOO_LARGE');
  });

  it('a missing folder gives archiveOpen false and NO_ARCHIVE, and opens once it exists', async () => {
    const parent = makeTempDir();
    const root = path.join(parent, 'later');
    const workspace = await openDirectoryWorkspace({ workspaceId: 'late', name: 'late', root });
    opened.push(workspace);
    expect(workspace.info()).toMatchObject({ archiveOpen: false, fileCount: 0, revision: 1 });
    expect(workspace.info().error).toContain('does not exist');
    const error = await caught(() => workspace.view());
    expect(error.code).toBe('NO_ARCHIVE');
    expect(error.hint).toBeTruthy();
    mkdirSync(root);
    writeFileSync(path.join(root, 'a.equ'), '[name]\n`a`\n');
    const view = await workspace.view();
    expect(view.revision).toBe(2);
    expect(workspace.info()).toMatchObject({ archiveOpen: true, error: null, fileCount: 1 });
    expect(view.readText('a.equ').text).toBe('[name]\n`a`\n');
  });

  it('a path that is a file, not a folder, does not open', async () => {
    const parent = makeTempDir();
    writeFileSync(path.join(parent, 'file'), 'x');
    const workspace = await openDirectoryWorkspace({ workspaceId: 'f', name: 'f', root: path.join(parent, 'file') });
    opened.push(workspace);
    expect(workspace.info().archiveOpen).toBe(false);
    expect(await errorCode(() => workspace.view())).toBe('NO_ARCHIVE');
  });

  it('close() stops it: view() is NO_ARCHIVE afterwards', async () => {
    const { workspace } = await open({ 'a.equ': 'x' });
    await workspace.view();
    await workspace.close();
    expect(await errorCode(() => workspace.view())).toBe('NO_ARCHIVE');
    expect(workspace.info().archiveOpen).toBe(false);
  });

  it('reads UTF-8 with a BOM dropped, Chinese and emoji names and text; invalid UTF-8 becomes U+FFFD', async () => {
    const { workspace } = await open({
      '装备/剑😀.equ': '\uFEFF[name]\r\n`苍穹😀`\r\n',
      'bad.equ': Buffer.concat([Buffer.from('[name]\n`'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('`\n')]),
    });
    const view = await workspace.view();
    expect(view.listDirectory('').map((e) => e.name)).toEqual(['装备', 'bad.equ']);
    const text = view.readText('装备/剑😀.EQU');
    expect(text.path).toBe('装备/剑😀.equ');
    expect(text.text).toBe('[name]\n`苍穹😀`\n');
    const bad = view.readText('bad.equ');
    expect(bad.text).toContain('\uFFFD');
    expect(bad.isScript).toBe(true);
  });

  it('case collisions: the first name in code-unit order wins', async () => {
    const { workspace } = await open({ 'A.equ': 'upper', 'a.equ': 'lower' });
    const view = await workspace.view();
    expect(view.resolveFile('a.equ')).toBe('A.equ');
    expect(view.readText('a.EQU').text).toBe('upper');
    expect(workspace.info().fileCount).toBe(1);
    expect(view.listDirectory('').map((e) => e.name)).toEqual(['A.equ']);
  });

  it('skips dot folders and dot files (.git, .vscode)', async () => {
    const { workspace } = await open({ '.git/config': 'x', '.hidden.equ': 'x', 'a.equ': 'x' });
    const view = await workspace.view();
    expect(view.listDirectory('').map((e) => e.name)).toEqual(['a.equ']);
    expect(view.resolveFile('.git/config')).toBeNull();
  });

  it('returns the same view object while nothing changes (per-view caches survive)', async () => {
    const { workspace } = await open({ 'a.equ': 'x' });
    expect(await workspace.view()).toBe(await workspace.view());
  });
});

describe('folder workspace: a large file read in steps', () => {
  it('gives the text and textRevision readText gives, yielding while it decodes', async () => {
    // 9 MB of CRLF script with multi-byte characters: more than two decode steps of 4 MiB.
    const text = '[name]\r\n`苍穹幕落 😀`\r\n[rarity]\r\n\t4\r\n'.repeat(220_000);
    const files: FileTree = { 'equipment/big.equ': text };
    const stepped = await openFolder(files);
    const plain = await openFolder(files);
    try {
      const view = await stepped.workspace.view();
      expect(view.readTextSteps).toBeDefined();
      const steps = view.readTextSteps?.('equipment/big.equ');
      let yields = 0;
      let step = steps?.next();
      for (; step !== undefined && !step.done; step = steps?.next()) yields++;
      expect(yields).toBeGreaterThanOrEqual(4);
      const whole = (await plain.workspace.view()).readText('equipment/big.equ');
      expect(step?.value).toEqual(whole);
      expect(whole.text).toBe(text.replaceAll('\r\n', '\n'));
    } finally {
      await stepped.workspace.close();
      await plain.workspace.close();
    }
  });
});
