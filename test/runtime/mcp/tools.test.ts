/**
 * Every tool through a real SDK Client (InMemoryTransport): tools/list, each tool with real arguments
 * and its output checked against the tool's exported outputSchema, every error code once, and the
 * server still answering after each failure.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { loadCurrentBundle } from '../../../runtime/bundle/watch-current.js';
import { ERROR_META_KEY, READ_ONLY_ANNOTATIONS } from '../../../runtime/mcp/constants.js';
import type { Logger } from '../../../runtime/mcp/log.js';
import { INTERNAL_ERROR_TEXT } from '../../../runtime/mcp/tool-error.js';
import { ListFilesOutputSchema } from '../../../runtime/mcp/tools/list-files.js';
import { PvfAnnotationExplainOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-explain.js';
import { PvfAnnotationGetOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-get.js';
import { PvfAnnotationSearchOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-search.js';
import { ReadFileOutputSchema } from '../../../runtime/mcp/tools/read-file.js';
import { WorkspaceInfoOutputSchema } from '../../../runtime/mcp/tools/workspace-info.js';
import { openWorkspace } from '../../../runtime/workspace/open-workspace.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { buildSnapshot, callError, callOk, connect, connectBroken, eventually, SWORD_PATH, SWORD_TEXT, tempDir, textOf, writeWorkspace, type Connected } from './helpers.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let workspaceRoot: string;
let rulesRevision: string;
let workspaces: Map<string, Workspace>;
let conn: Connected;
const logs: string[] = [];
const log: Logger = (level, scope, message) => void logs.push(`${level} [${scope}] ${message}`);

beforeAll(async () => {
  tmp = await tempDir('mcp-tools');
  const snapshots = path.join(tmp.dir, 'snapshots');
  rulesRevision = await buildSnapshot(snapshots);
  workspaceRoot = path.join(tmp.dir, 'workspace');
  await writeWorkspace(workspaceRoot);
  const damagedArchive = path.join(tmp.dir, 'Script.pvf');
  await writeFile(damagedArchive, 'not a PVF archive at all');
  workspaces = new Map<string, Workspace>([
    ['main', await openDirectoryWorkspace({ workspaceId: 'main', name: 'main', root: workspaceRoot, pvfVersion: '110US' })],
    ['missing', await openDirectoryWorkspace({ workspaceId: 'missing', name: 'missing', root: path.join(tmp.dir, 'no-such-folder') })],
    ['damaged', await openWorkspace({ workspaceId: 'damaged', name: 'damaged', path: damagedArchive })],
  ]);
  conn = await connect({ rules: createRulesHolder(await loadCurrentBundle(snapshots)), workspaces, log });
});

afterAll(async () => {
  await conn?.close();
  for (const w of workspaces?.values() ?? []) await w.close();
  await tmp?.cleanup();
});

async function revisionOf(workspaceId: string): Promise<number> {
  const { out } = await callOk(conn.client, 'workspace_info', {}, WorkspaceInfoOutputSchema);
  const ws = out.workspaces.find((w) => w.workspaceId === workspaceId);
  if (!ws) throw new Error(`no workspace ${workspaceId}`);
  return ws.revision;
}

describe('tools/list', () => {
  it('lists the six tools, each read-only with all four hints and an output schema', async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['list_files', 'pvf_annotation_explain', 'pvf_annotation_get', 'pvf_annotation_search', 'read_file', 'workspace_info'].sort(),
    );
    for (const tool of tools) {
      expect(tool.annotations).toEqual(READ_ONLY_ANNOTATIONS);
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.title).toBeTruthy();
      expect(tool.description).toMatch(/Errors/);
    }
  });
});

describe('workspace tools', () => {
  it('workspace_info reports the rules revision, versions and each workspace, open or not', async () => {
    const { out, text } = await callOk(conn.client, 'workspace_info', {}, WorkspaceInfoOutputSchema);
    expect(out.rulesRevision).toBe(rulesRevision);
    expect(out.rules).toEqual({ status: 'ok', lastReloadError: null });
    expect(out.supportedVersions).toEqual(expect.arrayContaining(['110US', '90US', '90CN']));
    const main = out.workspaces.find((w) => w.workspaceId === 'main');
    expect(main).toMatchObject({ kind: 'directory', pvfVersion: '110US', archiveOpen: true, error: null, encoding: 'utf-8' });
    expect(main?.fileCount).toBe(3);
    const missing = out.workspaces.find((w) => w.workspaceId === 'missing');
    expect(missing?.archiveOpen).toBe(false);
    expect(missing?.error).toMatch(/does not exist/);
    expect(text).toContain(rulesRevision);
  });

  it('serves a Script.pvf path as a classic archive workspace, not open when it cannot be read', async () => {
    const { out } = await callOk(conn.client, 'workspace_info', {}, WorkspaceInfoOutputSchema);
    const damaged = out.workspaces.find((w) => w.workspaceId === 'damaged');
    expect(damaged).toMatchObject({ kind: 'pvf-classic', archiveOpen: false });
    expect(damaged?.error).toBeTruthy();
    expect((await callError(conn.client, 'list_files', { workspaceId: 'damaged' })).code).toBe('NO_ARCHIVE');
  });

  it('list_files lists one level, folders first, and pages with a cursor', async () => {
    const top = await callOk(conn.client, 'list_files', { workspaceId: 'main' }, ListFilesOutputSchema);
    expect(top.out.entries.map((e) => [e.path, e.kind])).toEqual([
      ['equipment', 'directory'],
      ['etc', 'directory'],
    ]);
    const first = await callOk(conn.client, 'list_files', { workspaceId: 'main', path: 'equipment', limit: 1 }, ListFilesOutputSchema);
    expect(first.out.entries).toEqual([{ name: 'character', path: 'equipment/character', kind: 'directory', size: null }]);
    expect(first.out.totalEntries).toBe(2);
    expect(first.out.nextCursor).not.toBeNull();
    const second = await callOk(conn.client, 'list_files', { workspaceId: 'main', path: 'equipment', limit: 1, cursor: first.out.nextCursor }, ListFilesOutputSchema);
    expect(second.out.entries.map((e) => e.path)).toEqual(['equipment/equipment.str']);
    expect(second.out.nextCursor).toBeNull();
    const deep = await callOk(conn.client, 'list_files', { workspaceId: 'main', path: 'Equipment/Character/' }, ListFilesOutputSchema);
    expect(deep.out.entries[0]).toMatchObject({ path: SWORD_PATH, kind: 'file', size: Buffer.byteLength(SWORD_TEXT) });
  });

  it('read_file returns the canonical text (LF line ends) whole or by lines, with the offset of the slice', async () => {
    const canonical = SWORD_TEXT.replaceAll('\r\n', '\n');
    const whole = await callOk(conn.client, 'read_file', { workspaceId: 'main', filePath: SWORD_PATH.toLowerCase() }, ReadFileOutputSchema);
    expect(whole.out).toMatchObject({ filePath: SWORD_PATH, text: canonical, startLine: 1, endLine: 15, lineCount: 15, startOffset: 0, truncated: false });
    const part = await callOk(conn.client, 'read_file', { workspaceId: 'main', filePath: SWORD_PATH, startLine: 6, endLine: 7 }, ReadFileOutputSchema);
    expect(part.out.text).toBe('[rarity]\n\t4\n');
    expect(part.out.startOffset).toBe(canonical.indexOf('[rarity]'));
    expect(part.out.textRevision).toBe(whole.out.textRevision);
    expect(part.text).toContain('[rarity]');
  });

  it('read_file stops at a line boundary under the byte cap and says where to continue', async () => {
    const { out } = await callOk(conn.client, 'read_file', { workspaceId: 'main', filePath: 'etc/huge.txt' }, ReadFileOutputSchema);
    expect(out).toMatchObject({ text: 'short line\n', startLine: 1, endLine: 1, lineCount: 4, truncated: true });
    const after = await callOk(conn.client, 'read_file', { workspaceId: 'main', filePath: 'etc/huge.txt', startLine: 3 }, ReadFileOutputSchema);
    expect(after.out).toMatchObject({ text: 'last\n', startLine: 3, endLine: 4, truncated: false });
  });
});

describe('annotation tools', () => {
  it('pvf_annotation_search resolves pvfVersion "current" through the workspace', async () => {
    const { out, text } = await callOk(
      conn.client,
      'pvf_annotation_search',
      { workspaceId: 'main', filePath: SWORD_PATH, section: '[rarity]' },
      PvfAnnotationSearchOutputSchema,
    );
    expect(out.rulesRevision).toBe(rulesRevision);
    expect(out.context).toEqual({ workspaceId: 'main', pvfVersion: '110US', filePath: SWORD_PATH.toLowerCase() });
    expect(out.items.length).toBeGreaterThan(0);
    expect(out.items.every((i) => i.section === 'rarity' && i.applicability === 'matched')).toBe(true);
    expect(text).toContain(out.items[0]?.documentId ?? '?');
  });

  it('pvf_annotation_get returns the document a search found and looks up one enum value', async () => {
    const search = await callOk(conn.client, 'pvf_annotation_search', { pvfVersion: '110US', section: 'rarity', annotationTypes: ['enum'], extensions: ['.equ'] }, PvfAnnotationSearchOutputSchema);
    const documentId = search.out.items[0]?.documentId ?? '';
    const { out, text } = await callOk(conn.client, 'pvf_annotation_get', { documentId, rulesRevision, value: '4', valuesLimit: 2 }, PvfAnnotationGetOutputSchema);
    expect(out.document.documentId).toBe(documentId);
    expect(out.valueLookup).toEqual({ key: '4', found: true, label: '史诗' });
    expect(out.values).toHaveLength(2);
    expect(out.valuesNextCursor).not.toBeNull();
    expect(text).toContain('value 4 = 史诗');
  });

  it('pvf_annotation_explain explains the real file, with ranges into the read_file text', async () => {
    const revision = await revisionOf('main');
    const { out, text } = await callOk(
      conn.client,
      'pvf_annotation_explain',
      { workspaceId: 'main', expectedRevision: revision, filePath: SWORD_PATH, rulesRevision },
      PvfAnnotationExplainOutputSchema,
    );
    expect(out).toMatchObject({ contentSource: 'workspace', workspaceId: 'main', revision, rulesRevision, filePath: SWORD_PATH, pvfVersion: '110US' });
    const read = await callOk(conn.client, 'read_file', { workspaceId: 'main', filePath: SWORD_PATH }, ReadFileOutputSchema);
    expect(out.textRevision).toBe(read.out.textRevision);
    const rarity = out.annotations.find((a) => a.section === 'rarity' && a.tokenIndex === 0);
    expect(rarity).toMatchObject({ value: '4', valueLabel: '史诗', start: { line: 7, column: 2 } });
    expect(read.out.text.slice(rarity?.range.start, rarity?.range.end)).toBe('4');
    expect(text).toMatch(/7:2 \[rarity\]#0\.0 \S+ 4 = 史诗/);
  });

  it('pvf_annotation_explain pages with a cursor bound to the request', async () => {
    const revision = await revisionOf('main');
    const base = { workspaceId: 'main', expectedRevision: revision, filePath: SWORD_PATH };
    const all = await callOk(conn.client, 'pvf_annotation_explain', base, PvfAnnotationExplainOutputSchema);
    const first = await callOk(conn.client, 'pvf_annotation_explain', { ...base, limit: 1 }, PvfAnnotationExplainOutputSchema);
    expect(first.out.annotations).toHaveLength(1);
    expect(first.out.nextCursor).not.toBeNull();
    const second = await callOk(conn.client, 'pvf_annotation_explain', { ...base, limit: 1, cursor: first.out.nextCursor }, PvfAnnotationExplainOutputSchema);
    expect(second.out.annotations[0]).toEqual(all.out.annotations[1]);
  });
});

describe('errors', () => {
  it('returns every error code as an isError result with the code in the text and _meta, and keeps serving', async () => {
    const revision = await revisionOf('main');
    const search = await callOk(conn.client, 'pvf_annotation_search', { pvfVersion: 'all', limit: 1 }, PvfAnnotationSearchOutputSchema);
    const cursor = search.out.nextCursor ?? '';
    const tampered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    const cases: [string, string, Record<string, unknown>][] = [
      ['NO_ARCHIVE', 'pvf_annotation_search', { workspaceId: 'missing', section: 'rarity' }],
      ['NO_ARCHIVE', 'read_file', { workspaceId: 'missing', filePath: SWORD_PATH }],
      ['INVALID_VERSION', 'pvf_annotation_search', { pvfVersion: '999XX' }],
      ['STALE_RULES', 'pvf_annotation_get', { documentId: search.out.items[0]?.documentId, rulesRevision: '0123456789abcdef0123' }],
      ['INVALID_CURSOR', 'pvf_annotation_search', { pvfVersion: 'all', limit: 1, cursor: tampered }],
      ['INVALID_CURSOR', 'pvf_annotation_search', { pvfVersion: 'all', limit: 1, query: 'other', cursor }],
      ['STALE_WORKSPACE', 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: revision + 7, filePath: SWORD_PATH }],
      ['WORKSPACE_NOT_FOUND', 'read_file', { workspaceId: 'nope', filePath: SWORD_PATH }],
      ['WORKSPACE_NOT_FOUND', 'pvf_annotation_search', { workspaceId: 'nope' }],
      ['FILE_NOT_FOUND', 'read_file', { workspaceId: 'main', filePath: 'equipment/none.equ' }],
      ['FILE_NOT_FOUND', 'list_files', { workspaceId: 'main', path: 'no/such/folder' }],
      ['NOT_A_SCRIPT', 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: revision, filePath: 'equipment/equipment.str' }],
      ['DOCUMENT_NOT_FOUND', 'pvf_annotation_get', { documentId: 'no-such-document' }],
      ['RESPONSE_TOO_LARGE', 'read_file', { workspaceId: 'main', filePath: 'etc/huge.txt', startLine: 2 }],
      ['INVALID_ARGUMENT', 'pvf_annotation_search', { pvfVersion: 'all', pathKind: 'directory' }],
      ['INVALID_ARGUMENT', 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: revision, filePath: SWORD_PATH, section: 'rarity', tokenIndex: 0 }],
      ['INVALID_ARGUMENT', 'read_file', { workspaceId: 'main', filePath: '../outside.equ' }],
      ['INVALID_ARGUMENT', 'read_file', { workspaceId: 'main', filePath: SWORD_PATH, startLine: 99 }],
    ];
    const seen = new Set<string>();
    for (const [code, tool, args] of cases) {
      const error = await callError(conn.client, tool, args);
      expect(error.code, `${tool} ${JSON.stringify(args)}: ${error.text}`).toBe(code);
      const meta = error.result._meta?.[ERROR_META_KEY] as { message: string; hint: string | null } | undefined;
      expect(meta?.message).toBeTruthy();
      expect(meta?.hint).toBeTruthy();
      seen.add(code);
      await callOk(conn.client, 'workspace_info', {}, WorkspaceInfoOutputSchema);
    }
    expect([...seen].sort()).toEqual(
      ['DOCUMENT_NOT_FOUND', 'FILE_NOT_FOUND', 'INVALID_ARGUMENT', 'INVALID_CURSOR', 'INVALID_VERSION', 'NOT_A_SCRIPT', 'NO_ARCHIVE', 'RESPONSE_TOO_LARGE', 'STALE_RULES', 'STALE_WORKSPACE', 'WORKSPACE_NOT_FOUND'].sort(),
    );
  });

  it('puts the error data (e.g. supported versions) in the text for text-only clients', async () => {
    const error = await callError(conn.client, 'pvf_annotation_search', { pvfVersion: '999XX' });
    expect(error.text).toMatch(/^INVALID_VERSION: unknown pvfVersion "999XX" Use one of/);
    expect(error.text).toMatch(/\ndata: \{"supportedVersions":\[/);
  });

  it('refuses wrongly typed and unknown arguments with isError, then keeps serving', async () => {
    for (const [tool, args] of [
      ['pvf_annotation_search', { limit: 'ten' }],
      ['pvf_annotation_search', { limit: 0 }],
      ['pvf_annotation_get', {}],
      ['pvf_annotation_explain', { workspaceId: 'main', expectedRevision: '1', filePath: SWORD_PATH }],
      ['read_file', { workspaceId: 'main', filePath: SWORD_PATH, startLine: 1.5 }],
      ['list_files', { workspaceId: 'main', sectionName: 'typo' }],
      ['workspace_info', { unexpected: true }],
    ] as const) {
      const error = await callError(conn.client, tool, args);
      expect(error.code).toBeNull();
      expect(error.text).toMatch(/Input validation error/);
      await callOk(conn.client, 'workspace_info', {}, WorkspaceInfoOutputSchema);
    }
  });

  it('reports a list_files cursor from before a content change as STALE_WORKSPACE', async () => {
    const first = await callOk(conn.client, 'list_files', { workspaceId: 'main', path: 'equipment', limit: 1 }, ListFilesOutputSchema);
    await writeFile(path.join(workspaceRoot, 'equipment/added.equ'), '[name]\n`x`\n');
    const error = await eventually(async () => {
      const result = await conn.client.callTool({ name: 'list_files', arguments: { workspaceId: 'main', path: 'equipment', limit: 1, cursor: first.out.nextCursor } });
      return result.isError ? result : undefined;
    }, 'the workspace revision to change');
    expect(textOf(error as CallToolResult)).toMatch(/^STALE_WORKSPACE: /);
  });

  it('turns an unexpected exception into a generic failure without a code and logs its stack', async () => {
    const { conn: other, captured } = await connectBroken(createRulesHolder(await loadCurrentBundle(path.join(tmp.dir, 'snapshots'))));
    try {
      const error = await callError(other.client, 'read_file', { workspaceId: 'broken', filePath: 'a.equ' });
      expect(error.code).toBeNull();
      expect(error.text).toBe(INTERNAL_ERROR_TEXT);
      expect(error.text).not.toContain('boom');
      expect(captured.join('\n')).toMatch(/error \[mcp\] unexpected failure in a tool \(a bug\):\nTypeError: boom in view\n\s+at /);
      await callOk(other.client, 'pvf_annotation_search', { pvfVersion: 'all', limit: 1 }, PvfAnnotationSearchOutputSchema);
    } finally {
      await other.close();
    }
  });
});
