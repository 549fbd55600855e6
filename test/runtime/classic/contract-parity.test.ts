/**
 * Contract parity (issue 4, "Must show"): the same scripts as a classic archive and as a folder holding
 * that archive's canonical texts give the same `list_files`, `read_file` and `explain` results, through
 * the library (workspace views and explainFile) and through the MCP server with a real SDK Client.
 * The scripts are the real samples plus `.lst` registries and a `.str` table, so references, names and
 * string links resolve; the rules are rules/builtin.
 *
 * Compared: full outputs minus what names the workspace kind or its state (workspaceId, kind,
 * revision; cursors carry the revision, so only whether there is a next page), plus two documented
 * kind differences:
 * - `size` is the bytes as stored: a compiled script's tokens (and, in a legacy code page archive, a
 *   text file's bytes in that code page) against the folder's UTF-8 text; every other size is equal;
 * - `encoding` follows the archive's;
 * - an archive reads its `stringtable.bin` as the listing of its strings (index, text); a folder holding
 *   those bytes reads them as text. Neither calls it a script; the bytes are the same.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClassicArchiveBytes, type ClassicArchive } from '../../../runtime/classic/classic-archive.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { explainFile } from '../../../runtime/explain/explain-file.js';
import type { ExplainInput, ExplainOutput } from '../../../runtime/explain/explain-schema.js';
import { classicDriver } from '../../../runtime/workspace/archive-drivers.js';
import { createArchiveWorkspace } from '../../../runtime/workspace/archive-workspace.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace, WorkspaceEntry, WorkspaceView } from '../../../runtime/workspace/workspace.js';
import { connectMcp, type McpConnection } from '../../support/mcp-client.js';
import { makeTempDir, removeTempDirs } from './helpers.js';
import { buildSampleArchive, builtinBundle, LINKED_EQU, writeFolderOf } from './sample-workspace.js';

const BINARY = new Set(['stringtable.bin']);
const VERSION = '90US';

afterAll(() => removeTempDirs());

/** Drops the fields that name the kind or its state (a workspace's `kind`, not an entry's); cursors become "has a next page". */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const isWorkspace = 'archiveOpen' in value;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'workspaceId' || key === 'revision' || (key === 'kind' && isWorkspace)) continue;
    out[key] = key === 'nextCursor' ? v !== null : strip(v);
  }
  return out;
}

interface Pair {
  encoding: string;
  archive: ClassicArchive;
  files: string[];
  /** Compiled scripts (their sizes differ by kind). */
  compiled: Set<string>;
  pvf: Workspace;
  folder: Workspace;
}

async function openPair(encoding: string): Promise<Pair> {
  const dir = makeTempDir();
  const bytes = buildSampleArchive(encoding);
  const file = path.join(dir, 'Script.pvf');
  writeFileSync(file, bytes);
  const archive = openClassicArchiveBytes(bytes, 'Script.pvf');
  const root = path.join(dir, 'folder');
  const files = writeFolderOf(archive, root);
  const compiled = new Set(files.filter((f) => archive.isCompiled(f, archive.readFile(f))));
  // Same workspaceId on both sides, so cursors and messages match too.
  const pvf = await createArchiveWorkspace(classicDriver, { workspaceId: 'main', name: 'main', path: file, pvfVersion: VERSION, reader: {} });
  const folder = await openDirectoryWorkspace({ workspaceId: 'main', name: 'main', root, pvfVersion: VERSION });
  return { encoding, archive, files, compiled, pvf, folder };
}

/** Every folder listing of a view, depth first. */
function listAll(view: WorkspaceView): Record<string, WorkspaceEntry[]> {
  const out: Record<string, WorkspaceEntry[]> = {};
  const walk = (dir: string): void => {
    const entries = view.listDirectory(dir);
    out[dir] = entries;
    for (const e of entries) if (e.kind === 'directory') walk(e.path);
  };
  walk('');
  return out;
}

/** All pages of an explanation, merged (annotations and warnings of every page, in order). */
async function explainAll(bundle: Bundle, workspace: Workspace, input: ExplainInput): Promise<{ pages: number; merged: ExplainOutput }> {
  let page = await explainFile({ bundle, workspace, input });
  const annotations = [...page.annotations];
  let pages = 1;
  while (page.nextCursor !== null) {
    page = await explainFile({ bundle, workspace, input: { ...input, cursor: page.nextCursor } });
    annotations.push(...page.annotations);
    pages++;
  }
  return { pages, merged: { ...page, annotations, nextCursor: null } };
}

describe.each(['utf-8', 'cp936'])('the samples as a %s archive and as its folder', (encoding) => {
  let bundle: Bundle;
  let pair: Pair;
  let pvfView: WorkspaceView;
  let folderView: WorkspaceView;
  let scripts: string[];

  beforeAll(async () => {
    bundle = await builtinBundle();
    pair = await openPair(encoding);
    pvfView = await pair.pvf.view();
    folderView = await pair.folder.view();
    scripts = pair.files.filter((f) => pvfView.readText(f).isScript);
  });

  afterAll(async () => {
    await pair.pvf.close();
    await pair.folder.close();
  });

  it('the archive holds every sample, registry and table, and the folder the same files', () => {
    expect(pair.archive.encoding.encoding).toBe(encoding);
    expect(pair.files).toContain(LINKED_EQU);
    expect(pair.files).toContain('stringtable.bin');
    expect(scripts.length).toBeGreaterThanOrEqual(13);
    expect(pair.pvf.info()).toMatchObject({ kind: 'pvf-classic', archiveOpen: true, fileCount: pair.files.length, pvfVersion: VERSION });
    expect(pair.folder.info()).toMatchObject({ kind: 'directory', archiveOpen: true, fileCount: pair.files.length, pvfVersion: VERSION });
  });

  describe('through the library', () => {
    it('workspace info is the same but for kind, revision and (for a legacy code page) encoding', () => {
      const a = strip(pair.pvf.info()) as Record<string, unknown>;
      const b = strip(pair.folder.info()) as Record<string, unknown>;
      expect(a.encoding).toBe(encoding);
      expect(b.encoding).toBe('utf-8');
      expect({ ...a, encoding: null }).toEqual({ ...b, encoding: null });
    });

    it('every folder lists the same entries (compiled scripts: size = compiled bytes vs text bytes)', () => {
      const a = listAll(pvfView);
      const b = listAll(folderView);
      expect(Object.keys(a)).toEqual(Object.keys(b));
      for (const [dir, entries] of Object.entries(a)) {
        const other = b[dir] ?? [];
        expect(entries.map((e) => [e.name, e.path, e.kind]), dir).toEqual(other.map((e) => [e.name, e.path, e.kind]));
        entries.forEach((e, i) => {
          const f = other[i] as WorkspaceEntry;
          if (e.kind === 'file' && (pair.compiled.has(e.path) || (encoding !== 'utf-8' && !BINARY.has(e.path)))) {
            // Stored bytes: compiled tokens, or text in the archive's code page; the folder holds UTF-8 text.
            expect(e.size).toBe(pair.archive.file(e.path).size);
            expect(f.size).toBe(Buffer.byteLength(pvfView.readText(e.path).text));
          } else {
            expect(e.size, e.path).toBe(f.size);
          }
        });
      }
    });

    it('every file reads as the same text, textRevision and isScript; the same bytes for non-scripts', () => {
      for (const file of pair.files) {
        const a = pvfView.readText(file);
        const b = folderView.readText(file);
        expect(a.path).toBe(b.path);
        expect(a.isScript, file).toBe(b.isScript);
        if (BINARY.has(file)) {
          expect(a.text.split('\n', 1)[0]).toBe(`#stringtable.bin: ${(pair.archive.stringTable() as { table: { count: number } }).table.count} strings (index, text)`);
          expect(Buffer.from(pvfView.readBytes(file)).equals(Buffer.from(folderView.readBytes(file))), file).toBe(true);
          continue;
        }
        expect(a.text, file).toBe(b.text);
        expect(a.textRevision, file).toBe(b.textRevision);
        if (!pair.compiled.has(file) && encoding === 'utf-8') expect(Buffer.from(pvfView.readBytes(file)).equals(Buffer.from(folderView.readBytes(file))), file).toBe(true);
      }
      expect(pvfView.resolveFile('EQUIPMENT/Equipment.LST')).toBe(folderView.resolveFile('EQUIPMENT/Equipment.LST'));
      expect(pvfView.resolveFile('no/such.equ')).toBe(folderView.resolveFile('no/such.equ'));
    });

    it('every script explains the same: all pages, every annotation, reference, placeholder and warning', async () => {
      let annotations = 0;
      for (const file of scripts) {
        const inputA: ExplainInput = { workspaceId: 'main', expectedRevision: pvfView.revision, filePath: file, limit: 25 };
        const inputB: ExplainInput = { ...inputA, expectedRevision: folderView.revision };
        const a = await explainAll(bundle, pair.pvf, inputA);
        const b = await explainAll(bundle, pair.folder, inputB);
        expect(a.pages, file).toBe(b.pages);
        expect(strip(a.merged), file).toEqual(strip(b.merged));
        annotations += a.merged.annotations.length;
      }
      expect(annotations).toBeGreaterThan(200);
    });

    it('filtered explanations agree too (section, occurrence, lines)', async () => {
      const cases: Omit<ExplainInput, 'workspaceId' | 'expectedRevision'>[] = [
        { filePath: 'equipment/character/fighter/weapon/102010612.equ', section: 'skill data up' },
        { filePath: 'equipment/character/fighter/weapon/102010612.equ', section: 'layer variation', occurrence: 1 },
        { filePath: LINKED_EQU, startLine: 3, endLine: 12 },
        { filePath: 'skill/fighter/earthbreak.skl', section: 'command', occurrence: 0, tokenIndex: 2 },
      ];
      for (const c of cases) {
        const a = await explainFile({ bundle, workspace: pair.pvf, input: { ...c, workspaceId: 'main', expectedRevision: pvfView.revision } });
        const b = await explainFile({ bundle, workspace: pair.folder, input: { ...c, workspaceId: 'main', expectedRevision: folderView.revision } });
        expect(strip(a), JSON.stringify(c)).toEqual(strip(b));
      }
    });
  });

  describe('through the MCP server (real SDK client)', () => {
    let mcpPvf: McpConnection;
    let mcpFolder: McpConnection;

    beforeAll(async () => {
      mcpPvf = await connectMcp(bundle, new Map([['main', pair.pvf]]));
      mcpFolder = await connectMcp(bundle, new Map([['main', pair.folder]]));
    });

    afterAll(async () => {
      await mcpPvf.close();
      await mcpFolder.close();
    });

    /** Compiled scripts, and text in a legacy code page, are stored as other bytes than the folder's UTF-8 text. */
    const sizeDiffers = (file: string) => pair.compiled.has(file) || (encoding !== 'utf-8' && !BINARY.has(file));

    /** The same call on both servers: [archive, folder] structured outputs. */
    async function both(tool: string, args: Record<string, unknown>): Promise<[Record<string, unknown>, Record<string, unknown>]> {
      return [await mcpPvf.call(tool, args), await mcpFolder.call(tool, args)];
    }

    it('workspace_info: the same workspace but for kind, revision and encoding', async () => {
      const [a, b] = await both('workspace_info', {});
      const [wa, wb] = [(a.workspaces as Record<string, unknown>[])[0], (b.workspaces as Record<string, unknown>[])[0]];
      expect(wa).toMatchObject({ kind: 'pvf-classic', encoding, archiveOpen: true, error: null });
      expect(wb).toMatchObject({ kind: 'directory', encoding: 'utf-8' });
      expect(wa?.warnings).toBeUndefined();
      expect(strip({ ...a, workspaces: [{ ...wa, encoding: null }] })).toEqual(strip({ ...b, workspaces: [{ ...wb, encoding: null }] }));
    });

    it('list_files: every folder, paged, the same entries and pages', async () => {
      const pending = [''];
      let folders = 0;
      while (pending.length > 0) {
        const dir = pending.pop() as string;
        folders++;
        let cursors: [string | undefined, string | undefined] = [undefined, undefined];
        for (;;) {
          const a = await mcpPvf.call('list_files', { workspaceId: 'main', path: dir, limit: 2, ...(cursors[0] ? { cursor: cursors[0] } : {}) });
          const b = await mcpFolder.call('list_files', { workspaceId: 'main', path: dir, limit: 2, ...(cursors[1] ? { cursor: cursors[1] } : {}) });
          const sizeless = (out: Record<string, unknown>) => ({
            ...out,
            entries: (out.entries as WorkspaceEntry[]).map((e) => ({ ...e, size: e.kind === 'file' && sizeDiffers(e.path) ? 'as stored' : e.size })),
          });
          expect(strip(sizeless(a)), dir).toEqual(strip(sizeless(b)));
          for (const e of a.entries as WorkspaceEntry[]) if (e.kind === 'directory') pending.push(e.path);
          if (a.nextCursor === null) break;
          cursors = [a.nextCursor as string, b.nextCursor as string];
        }
      }
      expect(folders).toBeGreaterThanOrEqual(8);
    });

    it('read_file: every file whole and a line range, the same text and offsets', async () => {
      for (const file of pair.files) {
        if (BINARY.has(file)) {
          const head = await mcpPvf.call('read_file', { workspaceId: 'main', filePath: file, endLine: 2 });
          expect(head.text).toMatch(/^#stringtable\.bin: \d+ strings \(index, text\)\n0\t`[^\n]*`\n$/);
          continue;
        }
        const [a, b] = await both('read_file', { workspaceId: 'main', filePath: file.toUpperCase() });
        expect(strip(a), file).toEqual(strip(b));
        const [ra, rb] = await both('read_file', { workspaceId: 'main', filePath: file, startLine: 3, endLine: 9 });
        expect(strip(ra), file).toEqual(strip(rb));
      }
    });

    it('pvf_annotation_explain: every script, every page, the same annotations', async () => {
      const revisionOf = async (conn: McpConnection) =>
        ((await conn.call('workspace_info', {})).workspaces as { revision: number }[])[0]?.revision ?? -1;
      const [revA, revB] = [await revisionOf(mcpPvf), await revisionOf(mcpFolder)];
      let pages = 0;
      for (const file of scripts) {
        let cursors: [string | undefined, string | undefined] = [undefined, undefined];
        for (;;) {
          const a = await mcpPvf.call('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: revA, filePath: file, ...(cursors[0] ? { cursor: cursors[0] } : {}) });
          const b = await mcpFolder.call('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: revB, filePath: file, ...(cursors[1] ? { cursor: cursors[1] } : {}) });
          expect(strip(a), file).toEqual(strip(b));
          pages++;
          if (a.nextCursor === null) break;
          cursors = [a.nextCursor as string, b.nextCursor as string];
        }
      }
      expect(pages).toBeGreaterThan(scripts.length);
    });

    it('the same errors: a missing file, a non-script, a stale revision', async () => {
      const cases: [string, Record<string, unknown>][] = [
        ['read_file', { workspaceId: 'main', filePath: 'no/such.equ' }],
        ['list_files', { workspaceId: 'main', path: 'no/such/folder' }],
        ['pvf_annotation_explain', { workspaceId: 'main', expectedRevision: 1, filePath: 'equipment/equipment.kor.str' }],
        ['pvf_annotation_explain', { workspaceId: 'main', expectedRevision: 1, filePath: '../x.equ' }],
      ];
      // The code and the data agree; the message may name the kind ("not in the archive" / "workspace").
      const codeAndData = (text: string) => [text.slice(0, text.indexOf(':')), text.split('\n').filter((line) => line.startsWith('data:'))];
      for (const [tool, args] of cases) expect(codeAndData(await mcpPvf.fail(tool, args)), tool).toEqual(codeAndData(await mcpFolder.fail(tool, args)));
      const stale = { workspaceId: 'main', expectedRevision: 99, filePath: LINKED_EQU };
      expect((await mcpPvf.fail('pvf_annotation_explain', stale)).split(':')[0]).toBe('STALE_WORKSPACE');
      expect((await mcpFolder.fail('pvf_annotation_explain', stale)).split(':')[0]).toBe('STALE_WORKSPACE');
    });
  });
});
