/**
 * The workspace contract (runtime/workspace/workspace.ts) as a reusable suite: every workspace kind
 * (folder now, classic and nkpi archives later) runs the same checks on listing, reading, paths,
 * errors, revisions and view consistency.
 *
 * `open(files)` must return a workspace holding exactly `files` (archive path → content; strings are
 * text, Uint8Arrays raw bytes). Text content here is ASCII, so a kind with a legacy code page reads it
 * the same. With `update`, the suite also checks that a content change bumps the revision and that a
 * view never mixes the two states.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { errorCode, pollUntil, type FileTree } from './helpers.js';

export interface WorkspaceContractOptions {
  /** Replaces the content of a workspace made by `open` with `files` (as the kind's users would). */
  update?: (workspace: Workspace, files: FileTree) => Promise<void>;
}

const IMAGE_BYTES = Uint8Array.from([0x4e, 0x65, 0x6f, 0x00, 0x01, 0x02, 0xff, 0x00]);

export const CONTRACT_FILES: FileTree = {
  'Equipment/Character/Sword.equ': '[name]\r\n`Sword`\r\n\r\n[rarity]\r\n\t4\r\n',
  'Equipment/Character/SwordLF.equ': '[name]\n`Sword`\n\n[rarity]\n\t4\n',
  'Equipment/equipment.lst': '1\t`character/sword.equ`\n2\t`character/swordlf.equ`\n',
  'etc/cr.etc': '[a]\r1\r2\r',
  'etc/data.bin': Uint8Array.from([1, 2, 3, 0, 4]),
  'etc/nul.equ': '[name]\u0000`x`\n',
  'sprite/a.img': IMAGE_BYTES,
  'stackable/potion.stk': '[name]\n`Potion`\n[rarity]\n1\n',
  'strings/equipment.kor.str': 'name_1>Sword\n',
  'readme.unknown': 'plain words\n',
  'Top.lst': '',
};

export function testWorkspaceContract(name: string, open: (files: FileTree) => Promise<Workspace>, options: WorkspaceContractOptions = {}): void {
  describe(`workspace contract: ${name}`, () => {
    const opened: Workspace[] = [];
    const openTracked = async (files: FileTree) => {
      const workspace = await open(files);
      opened.push(workspace);
      return workspace;
    };
    let shared: Promise<Workspace> | undefined;
    const sharedWorkspace = () => (shared ??= openTracked(CONTRACT_FILES));

    afterAll(async () => {
      for (const workspace of opened) await workspace.close();
    });

    it('info describes an open workspace at the view revision', async () => {
      const workspace = await sharedWorkspace();
      const view = await workspace.view();
      const info = workspace.info();
      expect(info.workspaceId).toBe(workspace.workspaceId);
      expect(['directory', 'pvf-classic', 'pvf-nkpi']).toContain(info.kind);
      expect(info.archiveOpen).toBe(true);
      expect(info.error).toBeNull();
      expect(info.fileCount).toBe(Object.keys(CONTRACT_FILES).length);
      expect(Number.isInteger(info.revision) && info.revision >= 1).toBe(true);
      expect(info.revision).toBe(view.revision);
      expect(typeof info.encoding).toBe('string');
      expect(typeof info.pvfVersion).toBe('string');
    });

    it('lists one level: folders first, then files, each by name', async () => {
      const view = await (await sharedWorkspace()).view();
      const root = view.listDirectory('');
      expect(root.map((e) => `${e.kind[0]}:${e.path}`)).toEqual([
        'd:Equipment',
        'd:etc',
        'd:sprite',
        'd:stackable',
        'd:strings',
        'f:readme.unknown',
        'f:Top.lst',
      ]);
      expect(root.find((e) => e.name === 'Equipment')?.size).toBeNull();
      expect(root.find((e) => e.name === 'Top.lst')?.size).toBe(0);
      expect(view.listDirectory('.')).toEqual(root);
    });

    it('lists a folder case-insensitively, with stored names, paths and sizes', async () => {
      const view = await (await sharedWorkspace()).view();
      const entries = view.listDirectory('EQUIPMENT');
      expect(entries).toEqual([
        { name: 'Character', path: 'Equipment/Character', kind: 'directory', size: null },
        { name: 'equipment.lst', path: 'Equipment/equipment.lst', kind: 'file', size: expect.any(Number) },
      ]);
      expect(view.listDirectory('equipment\\character').map((e) => e.name)).toEqual(['Sword.equ', 'SwordLF.equ']);
      expect(view.listDirectory('sprite')).toEqual([{ name: 'a.img', path: 'sprite/a.img', kind: 'file', size: IMAGE_BYTES.length }]);
    });

    it('FILE_NOT_FOUND for an unknown folder or a file listed as a folder', async () => {
      const view = await (await sharedWorkspace()).view();
      expect(await errorCode(() => view.listDirectory('nope'))).toBe('FILE_NOT_FOUND');
      expect(await errorCode(() => view.listDirectory('Top.lst'))).toBe('FILE_NOT_FOUND');
      expect(await errorCode(() => view.listDirectory('Equipment/nope'))).toBe('FILE_NOT_FOUND');
    });

    it('resolves paths case-insensitively to the stored path; folders and unknown files are null', async () => {
      const view = await (await sharedWorkspace()).view();
      expect(view.resolveFile('equipment/character/sword.EQU')).toBe('Equipment/Character/Sword.equ');
      expect(view.resolveFile('Equipment\\Character\\Sword.equ')).toBe('Equipment/Character/Sword.equ');
      expect(view.resolveFile('./Equipment//Character/./Sword.equ')).toBe('Equipment/Character/Sword.equ');
      expect(view.resolveFile('top.LST')).toBe('Top.lst');
      expect(view.resolveFile('Equipment/Character')).toBeNull();
      expect(view.resolveFile('missing.equ')).toBeNull();
      expect(view.resolveFile('')).toBeNull();
    });

    it('refuses "..", absolute paths and drive letters with INVALID_ARGUMENT everywhere', async () => {
      const view = await (await sharedWorkspace()).view();
      const bad = ['../Top.lst', 'Equipment/../Top.lst', '..', '/Top.lst', '\\Top.lst', '//server/share/x', 'C:\\Top.lst', 'C:/Top.lst', 'c:Top.lst', 'a\u0000b'];
      for (const path of bad) {
        expect(await errorCode(() => view.resolveFile(path)), path).toBe('INVALID_ARGUMENT');
        expect(await errorCode(() => view.readText(path)), path).toBe('INVALID_ARGUMENT');
        expect(await errorCode(() => view.readBytes(path)), path).toBe('INVALID_ARGUMENT');
        expect(await errorCode(() => view.listDirectory(path)), path).toBe('INVALID_ARGUMENT');
      }
    });

    it('reads canonical text: CRLF and lone CR become \\n; textRevision hashes the canonical text', async () => {
      const view = await (await sharedWorkspace()).view();
      const crlf = view.readText('equipment/character/sword.equ');
      const lf = view.readText('Equipment/Character/SwordLF.equ');
      expect(crlf.path).toBe('Equipment/Character/Sword.equ');
      expect(crlf.text).toBe('[name]\n`Sword`\n\n[rarity]\n\t4\n');
      expect(crlf.text).not.toContain('\r');
      expect(crlf.textRevision).toBe(lf.textRevision);
      expect(crlf.textRevision).toMatch(/^[0-9a-f]{8,64}$/);
      expect(view.readText('etc/cr.etc').text).toBe('[a]\n1\n2\n');
      expect(view.readText('stackable/potion.stk').textRevision).not.toBe(crlf.textRevision);
      expect(view.readText('Top.lst').text).toBe('');
      // Reading twice gives the same answer.
      expect(view.readText('equipment/character/sword.equ')).toEqual(crlf);
    });

    it('isScript: true for script and unknown text, false for .str, binaries and NUL bytes', async () => {
      const view = await (await sharedWorkspace()).view();
      expect(view.readText('Equipment/Character/Sword.equ').isScript).toBe(true);
      expect(view.readText('Equipment/equipment.lst').isScript).toBe(true);
      expect(view.readText('readme.unknown').isScript).toBe(true);
      expect(view.readText('Top.lst').isScript).toBe(true);
      expect(view.readText('strings/equipment.kor.str').isScript).toBe(false);
      expect(view.readText('sprite/a.img').isScript).toBe(false);
      expect(view.readText('etc/data.bin').isScript).toBe(false);
      expect(view.readText('etc/nul.equ').isScript).toBe(false);
    });

    it('reads raw bytes', async () => {
      const view = await (await sharedWorkspace()).view();
      expect(Buffer.from(view.readBytes('SPRITE/A.IMG'))).toEqual(Buffer.from(IMAGE_BYTES));
    });

    it('FILE_NOT_FOUND for reads of absent files and folders', async () => {
      const view = await (await sharedWorkspace()).view();
      expect(await errorCode(() => view.readText('missing.equ'))).toBe('FILE_NOT_FOUND');
      expect(await errorCode(() => view.readBytes('missing.equ'))).toBe('FILE_NOT_FOUND');
      expect(await errorCode(() => view.readText('Equipment'))).toBe('FILE_NOT_FOUND');
      expect(await errorCode(() => view.readText(''))).toBe('FILE_NOT_FOUND');
    });

    it('keeps its revision while nothing changes', async () => {
      const workspace = await sharedWorkspace();
      const a = await workspace.view();
      const b = await workspace.view();
      expect(b.revision).toBe(a.revision);
      expect(b.readText('Top.lst').textRevision).toBe(a.readText('Top.lst').textRevision);
      expect(workspace.info().revision).toBe(a.revision);
    });

    it('an empty workspace lists an empty root', async () => {
      const workspace = await openTracked({});
      const view = await workspace.view();
      expect(view.listDirectory('')).toEqual([]);
      expect(workspace.info().fileCount).toBe(0);
    });

    const update = options.update;
    if (update) {
      it('a content change bumps the revision; a view never mixes two states', async () => {
        const workspace = await openTracked({ 'a.equ': '[name]\n`old`\n', 'b.equ': '[name]\n`b`\n' });
        const before = await workspace.view();
        const oldText = before.readText('a.equ').text;
        await update(workspace, { 'a.equ': '[name]\n`new content`\n', 'c.equ': '[name]\n`c`\n' });
        const after = await pollUntil(async () => {
          const view = await workspace.view();
          return view.revision > before.revision ? view : undefined;
        }, 10_000, 'a revision bump');
        expect(workspace.info().revision).toBe(after.revision);
        expect(after.readText('a.equ').text).toBe('[name]\n`new content`\n');
        expect(after.resolveFile('c.equ')).toBe('c.equ');
        expect(after.resolveFile('b.equ')).toBeNull();
        // The old view answers with its own state or refuses; never with the new text.
        let oldRead: string | { code: string; revision: unknown };
        try {
          oldRead = before.readText('a.equ').text;
        } catch (error) {
          const e = error as { code: string; data?: { revision?: unknown } };
          oldRead = { code: e.code, revision: e.data?.revision };
        }
        if (typeof oldRead === 'string') expect(oldRead).toBe(oldText);
        else {
          expect(oldRead.code).toBe('STALE_WORKSPACE');
          expect(oldRead.revision).toBeGreaterThanOrEqual(after.revision);
        }
      });
    }
  });
}
