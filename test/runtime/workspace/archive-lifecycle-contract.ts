/**
 * The lifecycle every archive workspace shares (runtime/workspace/archive-workspace.ts), as one suite
 * run for every driver: revisions on replace, consistent old views, rewrites in place, a deleted
 * file, failed opens that are not retried until the file changes, and close.
 *
 * `write(scripts)` returns the bytes of an archive of this format holding `scripts` (path → script
 * text). Its texts must read back containing each script's quoted words; when a format keeps chunks,
 * it must store each file apart, so one file is still unread when the archive changes.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPvfdocError } from '../../../runtime/errors.js';
import { caught, caughtAsync } from '../../support/caught.js';
import { createArchiveWorkspace, type ArchiveDriver } from '../../../runtime/workspace/archive-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { makeTempDir, removeTempDirs } from '../classic/helpers.js';

export interface ArchiveLifecycleOptions<Options> {
  driver: ArchiveDriver<Options>;
  reader: Options;
  write: (scripts: Record<string, string>) => Uint8Array;
  /** A readable archive of this format on disk (opened, deleted, put back). */
  sample: string;
  /** A path inside `sample`. */
  samplePath: string;
  /**
   * Whether a view of a replaced (renamed-over) file still reads all of it. Otherwise its reads may
   * also fail STALE_WORKSPACE (a reader that checks its handle sees the unlinked file's ctime change).
   */
  replacedStaysReadable: boolean;
}

export function testArchiveLifecycle<Options>(name: string, options: ArchiveLifecycleOptions<Options>): void {
  describe(`archive lifecycle: ${name}`, () => {
    const opened: Workspace[] = [];
    let counter = 0;
    afterAll(async () => {
      for (const workspace of opened) await workspace.close();
      removeTempDirs();
    });
    const open = async (file: string): Promise<Workspace> => {
      const workspace = await createArchiveWorkspace(options.driver, { workspaceId: `${name}-${++counter}`, name: 'test archive', path: file, reader: options.reader });
      opened.push(workspace);
      return workspace;
    };
    const replaceFile = (file: string, bytes: Uint8Array): void => {
      const temp = `${file}.tmp${++counter}`;
      writeFileSync(temp, bytes);
      renameSync(temp, file);
    };

    it('replacing the archive bumps the revision; the old view keeps reading its own version', async () => {
      const file = path.join(makeTempDir(), 'Script.pvf');
      writeFileSync(file, options.write({ 'a.equ': '[name]\n`old`', 'b.equ': '[name]\n`b`' }));
      const workspace = await open(file);
      const before = await workspace.view();
      expect(before.readText('a.equ').text).toContain('`old`');
      expect(await workspace.view()).toBe(before);

      replaceFile(file, options.write({ 'a.equ': '[name]\n`new`', 'c.equ': '[name]\n`c`' }));
      const after = await workspace.view();
      expect(after.revision).toBe(before.revision + 1);
      expect(workspace.info().revision).toBe(after.revision);
      expect(after.readText('a.equ').text).toContain('`new`');
      expect(after.resolveFile('b.equ')).toBeNull();
      expect(after.readText('c.equ').text).toContain('`c`');
      // The old view reads the old version through its own handle (or refuses), never the new one.
      const oldRead = (p: string) => (options.replacedStaysReadable ? before.readText(p).text : staleOr(() => before.readText(p).text));
      expect(oldRead('b.equ')).toMatch(options.replacedStaysReadable ? /`b`/ : /`b`|^STALE_WORKSPACE$/);
      expect(oldRead('a.equ')).toMatch(options.replacedStaysReadable ? /`old`/ : /`old`|^STALE_WORKSPACE$/);
      expect(before.resolveFile('c.equ')).toBeNull();

      // Two versions later the oldest is closed: its view refuses instead of mixing.
      replaceFile(file, options.write({ 'a.equ': '[name]\n`third`' }));
      const third = await workspace.view();
      expect(third.revision).toBe(after.revision + 1);
      const oldB = staleOr(() => before.readText('b.equ').text);
      expect(oldB === 'STALE_WORKSPACE' || oldB.includes('`b`')).toBe(true);
      const stale = caught(() => before.readBytes('b.equ'));
      expect(stale.code).toBe('STALE_WORKSPACE');
      expect(stale.data?.['revision']).toBe(third.revision);
      // The version before the current one stays open.
      const lastRead = options.replacedStaysReadable ? after.readText('c.equ').text : staleOr(() => after.readText('c.equ').text);
      expect(lastRead).toMatch(options.replacedStaysReadable ? /`c`/ : /`c`|^STALE_WORKSPACE$/);
    });

    it('rewriting the archive in place: the old view gives old text or STALE_WORKSPACE, never the new', async () => {
      const file = path.join(makeTempDir(), 'Script.pvf');
      writeFileSync(file, options.write({ 'a.equ': '[name]\n`old a`', 'b.equ': '[name]\n`old b`' }));
      const workspace = await open(file);
      const view = await workspace.view();
      expect(view.readText('a.equ').text).toContain('old a');
      // Same inode, new content; nobody called view() yet.
      writeFileSync(file, options.write({ 'a.equ': '[name]\n`new a, longer`', 'b.equ': '[name]\n`new b, longer`' }));
      const oldA = staleOr(() => view.readText('a.equ').text);
      expect(oldA === 'STALE_WORKSPACE' || oldA.includes('old a')).toBe(true);
      const stale = caught(() => view.readText('b.equ'));
      expect(stale.code).toBe('STALE_WORKSPACE');
      // The read bumped the revision at once; view() reopens under it without a second bump.
      expect(stale.data?.['revision']).toBe(view.revision + 1);
      const next = await workspace.view();
      expect(next.revision).toBe(view.revision + 1);
      expect(next.readText('b.equ').text).toContain('new b, longer');
    });

    it('a missing file: archiveOpen false with the reason, NO_ARCHIVE, no revision churn; it opens once the file appears', async () => {
      const file = path.join(makeTempDir(), 'Script.pvf');
      const workspace = await open(file);
      expect(workspace.info()).toMatchObject({ kind: options.driver.kind, archiveOpen: false, fileCount: 0, revision: 1, error: `archive ${file} does not exist` });
      const error = await caughtAsync(() => workspace.view());
      expect(error.code).toBe('NO_ARCHIVE');
      expect(error.message).toContain('does not exist');
      expect(error.hint).toContain(options.driver.expects);
      await caughtAsync(() => workspace.view());
      expect(workspace.info().revision).toBe(1);
      // A damaged file is reported and not retried until it changes.
      writeFileSync(file, options.write({ 'a.equ': '[name]\n`a`' }).subarray(0, 60));
      await caughtAsync(() => workspace.view());
      const damaged = workspace.info();
      expect(damaged.archiveOpen).toBe(false);
      expect(damaged.error).not.toContain('does not exist');
      await caughtAsync(() => workspace.view());
      expect(workspace.info().revision).toBe(damaged.revision);

      replaceFile(file, options.write({ 'a.equ': '[name]\n`a`' }));
      const view = await workspace.view();
      expect(view.revision).toBe(2);
      expect(workspace.info()).toMatchObject({ archiveOpen: true, error: null });
      expect(view.readText('a.equ').text).toContain('`a`');
    });

    it('a deleted archive closes the workspace (NO_ARCHIVE) until it is back; close() makes old views refuse', async () => {
      const file = path.join(makeTempDir(), 'Script.pvf');
      writeFileSync(file, readFileSync(options.sample));
      const workspace = await open(file);
      const view = await workspace.view();
      rmSync(file);
      expect((await caughtAsync(() => workspace.view())).code).toBe('NO_ARCHIVE');
      expect(workspace.info()).toMatchObject({ archiveOpen: false, revision: view.revision + 1 });
      // The old view still reads the unlinked file it opened.
      expect(view.readText(options.samplePath).text.length).toBeGreaterThan(0);
      writeFileSync(file, readFileSync(options.sample));
      const back = await workspace.view();
      expect(back.revision).toBe(view.revision + 2);
      await workspace.close();
      expect((await caughtAsync(() => workspace.view())).code).toBe('NO_ARCHIVE');
      expect(workspace.info()).toMatchObject({ archiveOpen: false, error: 'the workspace is closed' });
      expect(caught(() => back.readBytes(options.samplePath)).code).toBe('STALE_WORKSPACE');
    });
  });
}

function staleOr(run: () => string): string {
  try {
    return run();
  } catch (error) {
    if (isPvfdocError(error) && error.code === 'STALE_WORKSPACE') return 'STALE_WORKSPACE';
    throw error;
  }
}
