/**
 * Bad input through the server (issue "Bad input"): unknown workspace, missing file, `..` and absolute
 * paths, a non-script file, binary junk in a script file, an unterminated string, a stray closing tag,
 * a 50 MB file, arguments of the wrong type or out of range, a cursor of another tool or query. Each
 * gets its error code (or a warning), never a crash, a hang or an unbounded response, and after each
 * one a good request still succeeds: the server keeps serving.
 */
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { loadCurrentBundle } from '../../../runtime/bundle/watch-current.js';
import { MAX_EXPLAIN_WARNING_MESSAGE, MAX_EXPLAIN_WARNINGS } from '../../../runtime/explain/explain-file.js';
import { MAX_EXPLAIN_RESPONSE_BYTES, type ExplainOutput } from '../../../runtime/explain/explain-schema.js';
import { ERROR_META_KEY } from '../../../runtime/mcp/constants.js';
import { ListFilesOutputSchema } from '../../../runtime/mcp/tools/list-files.js';
import { PvfAnnotationExplainOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-explain.js';
import { PvfAnnotationGetOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-get.js';
import { PvfAnnotationSearchOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-search.js';
import { WorkspaceInfoOutputSchema } from '../../../runtime/mcp/tools/workspace-info.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import { MAX_FILE_READ_BYTES } from '../../../runtime/workspace/workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { buildSnapshot, callError, callOk, connect, tempDir, textOf, type Connected } from './helpers.js';
import { protocolWorkspaceFiles, SWORD, writeFiles, writeProtocolLayers } from './protocol-fixture.js';

const FIFTY_MB = 50 * 1024 * 1024;

let tmp: Awaited<ReturnType<typeof tempDir>>;
let root: string;
let workspace: Workspace;
let conn: Connected;

/** Pseudo-random bytes (fixed seed) without NUL and never valid UTF-8 for long. */
function junkBytes(length: number, withNul: boolean): Buffer {
  const out = Buffer.alloc(length);
  let x = 0x2545f491;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const b = (x >>> 0) & 0xff;
    out[i] = withNul ? b : b === 0 ? 0xff : b;
  }
  return out;
}

beforeAll(async () => {
  tmp = await tempDir('mcp-bad-input');
  const layers = await writeProtocolLayers(path.join(tmp.dir, 'layers'));
  const snapshots = path.join(tmp.dir, 'snapshots');
  await buildSnapshot(snapshots, [layers.base, layers.user]);
  root = path.join(tmp.dir, 'workspace');
  await writeFiles(root, {
    ...protocolWorkspaceFiles(),
    'sprite/icon.img': Uint8Array.from([0x4e, 0x65, 0x6f, 0x70, 0, 1, 2, 3]),
    'etc/nul.equ': Buffer.concat([Buffer.from('[name]\n\t`x`\n'), junkBytes(4096, true)]),
    'etc/junk.equ': Buffer.concat([Buffer.from('[rarity]\n\t4\n'), junkBytes(64 * 1024, false)]),
    'etc/unterminated.equ': '[name]\n\t`never closed\n[rarity]\n\t4\n',
    'etc/stray.equ': '[name]\n\t`x`\n[/price]\n[rarity]\n\t4\n',
    'etc/many-strays.equ': '[/x]\n'.repeat(5000),
    // Tags may run across lines up to the next ]: stray tags with names of 200 KB each.
    'etc/long-strays.equ': `[name]\n\t\`x\`\n[/${'长'.repeat(200 * 1024)}]\n[/${'y'.repeat(200 * 1024)}]\n[rarity]\n\t4\n`,
  });
  // Written once: a real 50 MB script file (not sparse), over the 32 MiB read limit.
  const handle = await open(path.join(root, 'etc/huge.equ'), 'w');
  try {
    const chunk = Buffer.alloc(4 * 1024 * 1024, '[rarity]\n\t4\n');
    for (let written = 0; written < FIFTY_MB; written += chunk.length) await handle.write(chunk, 0, Math.min(chunk.length, FIFTY_MB - written));
  } finally {
    await handle.close();
  }
  await writeFile(path.join(tmp.dir, 'outside.equ'), '[name]\n\t`outside the workspace`\n');
  workspace = await openDirectoryWorkspace({ workspaceId: 'main', name: 'main', root, pvfVersion: '110US' });
  conn = await connect({ rules: createRulesHolder(await loadCurrentBundle(snapshots)), workspaces: new Map([['main', workspace]]) });
});

afterAll(async () => {
  await conn?.close();
  await workspace?.close();
  await (tmp as typeof tmp | undefined)?.cleanup();
});

async function revision(): Promise<number> {
  const { out } = await callOk(conn.client, 'workspace_info', {}, WorkspaceInfoOutputSchema);
  return out.workspaces[0]?.revision ?? -1;
}

/** The server still answers: workspace info, a search and an explain of a good file. */
async function stillServing(): Promise<void> {
  const rev = await revision();
  await callOk(conn.client, 'pvf_annotation_search', { workspaceId: 'main', section: 'rarity' }, PvfAnnotationSearchOutputSchema);
  const { out } = await callOk(conn.client, 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: rev, filePath: SWORD, section: 'name' }, PvfAnnotationExplainOutputSchema);
  expect(out.annotations[0]?.value).toBe('苍穹之剑😀');
}

function bytesOf(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result));
}

/** A bad request: the code it must fail with (null = refused by the input schema), and a bounded answer. */
async function expectRefused(tool: string, args: Record<string, unknown>, code: string | null): Promise<CallToolResult> {
  const error = await callError(conn.client, tool, args);
  expect(error.code, `${tool} ${JSON.stringify(args).slice(0, 200)}: ${error.text.slice(0, 300)}`).toBe(code);
  if (code === null) expect(error.text).toMatch(/Input validation error/);
  else expect((error.result._meta?.[ERROR_META_KEY] as { hint: string | null } | undefined)?.hint).toBeTruthy();
  expect(bytesOf(error.result)).toBeLessThan(16 * 1024);
  await stillServing();
  return error.result;
}

async function explainOk(filePath: string, extra: Record<string, unknown> = {}): Promise<ExplainOutput> {
  const { out } = await callOk(conn.client, 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: await revision(), filePath, limit: 100, ...extra }, PvfAnnotationExplainOutputSchema);
  expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(MAX_EXPLAIN_RESPONSE_BYTES);
  return out;
}

describe('bad input through the server', () => {
  it('unknown workspace: WORKSPACE_NOT_FOUND with the open workspace ids', async () => {
    const rev = await revision();
    const result = await expectRefused('pvf_annotation_explain', { workspaceId: 'nope', expectedRevision: rev, filePath: SWORD }, 'WORKSPACE_NOT_FOUND');
    expect((result._meta?.[ERROR_META_KEY] as { data: unknown }).data).toEqual({ workspaceIds: ['main'] });
    await expectRefused('read_file', { workspaceId: 'nope', filePath: SWORD }, 'WORKSPACE_NOT_FOUND');
    await expectRefused('list_files', { workspaceId: 'Main' }, 'WORKSPACE_NOT_FOUND');
    await expectRefused('pvf_annotation_search', { workspaceId: 'nope', pvfVersion: 'current' }, 'WORKSPACE_NOT_FOUND');
  });

  it('missing file or folder: FILE_NOT_FOUND', async () => {
    const rev = await revision();
    await expectRefused('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: rev, filePath: 'equipment/character/none.equ' }, 'FILE_NOT_FOUND');
    await expectRefused('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: rev, filePath: 'equipment/character' }, 'FILE_NOT_FOUND');
    await expectRefused('read_file', { workspaceId: 'main', filePath: 'equipment/none.equ' }, 'FILE_NOT_FOUND');
    await expectRefused('list_files', { workspaceId: 'main', path: 'no/such/folder' }, 'FILE_NOT_FOUND');
    await expectRefused('list_files', { workspaceId: 'main', path: SWORD }, 'FILE_NOT_FOUND');
  });

  it('a path with ".." or an absolute path: INVALID_ARGUMENT, nothing outside the workspace is read', async () => {
    const rev = await revision();
    const outside = path.join(tmp.dir, 'outside.equ');
    const inside = path.join(root, SWORD);
    for (const filePath of ['../outside.equ', 'equipment/../../outside.equ', '..\\outside.equ', outside, inside, '/etc/passwd', 'C:\\Windows\\win.ini', 'c:outside.equ', '\\\\server\\share\\a.equ', 'equipment\u0000.equ']) {
      const explained = await expectRefused('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: rev, filePath }, 'INVALID_ARGUMENT');
      expect(textOf(explained)).not.toContain('outside the workspace');
      const read = await expectRefused('read_file', { workspaceId: 'main', filePath }, 'INVALID_ARGUMENT');
      expect(textOf(read)).not.toContain('outside the workspace');
    }
    await expectRefused('list_files', { workspaceId: 'main', path: '..' }, 'INVALID_ARGUMENT');
    await expectRefused('list_files', { workspaceId: 'main', path: tmp.dir }, 'INVALID_ARGUMENT');
  });

  it('a file that is not script text: NOT_A_SCRIPT', async () => {
    const rev = await revision();
    for (const filePath of ['equipment/equipment.kor.str', 'sprite/icon.img']) {
      await expectRefused('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: rev, filePath }, 'NOT_A_SCRIPT');
    }
  });

  it('binary junk in a script file: NOT_A_SCRIPT with NUL bytes, else explained with an encoding warning', async () => {
    const rev = await revision();
    await expectRefused('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: rev, filePath: 'etc/nul.equ' }, 'NOT_A_SCRIPT');
    const out = await explainOk('etc/junk.equ');
    expect(out.warnings[0]).toMatchObject({ code: 'INVALID_TEXT_ENCODING' });
    expect(out.warnings.length).toBeLessThanOrEqual(MAX_EXPLAIN_WARNINGS);
    expect(out.annotations.find((a) => a.section === 'rarity' && a.tokenIndex === 0)).toMatchObject({ value: '4', valueLabel: '史诗(用户)' });
    // Every page of it, each bounded.
    let cursor = out.nextCursor;
    for (let pages = 0; cursor !== null && pages < 200; pages++) cursor = (await explainOk('etc/junk.equ', { cursor })).nextCursor;
    expect(cursor).toBeNull();
    await stillServing();
  });

  it('an unterminated string: a warning with its position, the rest still explained', async () => {
    const out = await explainOk('etc/unterminated.equ');
    expect(out.warnings.map((w) => [w.code, w.start])).toEqual([['UNTERMINATED_STRING', { line: 2, column: 2 }]]);
    // The string runs to the end of the text, swallowing [rarity]: the name token covers it, nothing is invented.
    const name = out.annotations.find((a) => a.section === 'name');
    expect(name?.end).toEqual({ line: 5, column: 1 });
    expect(out.annotations.some((a) => a.section === 'rarity')).toBe(false);
    await stillServing();
  });

  it('a stray closing tag: a warning with its position, the sections after it explained', async () => {
    const out = await explainOk('etc/stray.equ');
    expect(out.warnings.map((w) => [w.code, w.start, w.end])).toEqual([['STRAY_CLOSING_TAG', { line: 3, column: 1 }, { line: 3, column: 9 }]]);
    expect(out.annotations.find((a) => a.section === 'rarity' && a.tokenIndex === 0)).toMatchObject({ value: '4' });
    // Thousands of them: the warnings are capped, the response stays small.
    const many = await explainOk('etc/many-strays.equ');
    expect(many.warnings).toHaveLength(MAX_EXPLAIN_WARNINGS);
    expect(many.warnings.at(-1)?.code).toBe('EXPLAIN_WARNINGS_TRUNCATED');
    expect(Buffer.byteLength(JSON.stringify(many))).toBeLessThan(64 * 1024);
    // Warnings quoting huge tag names are cut; the file is still explained within a small response.
    const long = await callOk(conn.client, 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: await revision(), filePath: 'etc/long-strays.equ' }, PvfAnnotationExplainOutputSchema);
    expect(Buffer.byteLength(JSON.stringify(long.out)) + Buffer.byteLength(long.text)).toBeLessThan(16 * 1024);
    expect(long.out.warnings.map((w) => [w.code, w.start?.line, w.message.length <= MAX_EXPLAIN_WARNING_MESSAGE, w.message.endsWith('…')])).toEqual([
      ['STRAY_CLOSING_TAG', 3, true, true],
      ['STRAY_CLOSING_TAG', 4, true, true],
    ]);
    expect(long.out.annotations.map((a) => [a.section, a.value])).toEqual([
      ['name', 'x'],
      ['rarity', '4'],
    ]);
    await stillServing();
  });

  it('a 50 MB file: RESPONSE_TOO_LARGE at once, listed with its size', async () => {
    const rev = await revision();
    const explained = await expectRefused('pvf_annotation_explain', { workspaceId: 'main', expectedRevision: rev, filePath: 'etc/huge.equ' }, 'RESPONSE_TOO_LARGE');
    expect((explained._meta?.[ERROR_META_KEY] as { data: unknown }).data).toMatchObject({ size: FIFTY_MB, limit: MAX_FILE_READ_BYTES });
    await expectRefused('read_file', { workspaceId: 'main', filePath: 'etc/huge.equ' }, 'RESPONSE_TOO_LARGE');
    await expectRefused('read_file', { workspaceId: 'main', filePath: 'etc/huge.equ', startLine: 1, endLine: 1 }, 'RESPONSE_TOO_LARGE');
    const listed = await callOk(conn.client, 'list_files', { workspaceId: 'main', path: 'etc' }, ListFilesOutputSchema);
    expect(listed.out.entries.find((e) => e.name === 'huge.equ')?.size).toBe(FIFTY_MB);
  });

  it('arguments of the wrong type or out of range: refused by the schema (no code)', async () => {
    const rev = await revision();
    const explain = { workspaceId: 'main', expectedRevision: rev, filePath: SWORD };
    const cases: [string, Record<string, unknown>][] = [
      ['pvf_annotation_search', { limit: 'ten' }],
      ['pvf_annotation_search', { limit: 0 }],
      ['pvf_annotation_search', { limit: 101 }],
      ['pvf_annotation_search', { limit: 2.5 }],
      ['pvf_annotation_search', { extensions: '.equ' }],
      ['pvf_annotation_search', { kinds: ['rules'] }],
      ['pvf_annotation_search', { pathKind: 'folder', filePath: 'equipment' }],
      ['pvf_annotation_search', { query: 'x'.repeat(1001) }],
      ['pvf_annotation_search', { cursor: 'c'.repeat(2001) }],
      ['pvf_annotation_get', {}],
      ['pvf_annotation_get', { documentId: '' }],
      ['pvf_annotation_get', { documentId: 'x', valuesLimit: 101 }],
      ['pvf_annotation_get', { documentId: 'x', valuesLimit: 0 }],
      ['pvf_annotation_get', { documentId: 42 }],
      ['pvf_annotation_explain', { ...explain, expectedRevision: String(rev) }],
      ['pvf_annotation_explain', { ...explain, expectedRevision: -1 }],
      ['pvf_annotation_explain', { ...explain, filePath: '' }],
      ['pvf_annotation_explain', { ...explain, filePath: ['a.equ'] }],
      ['pvf_annotation_explain', { ...explain, occurrence: -1, section: 'rarity' }],
      ['pvf_annotation_explain', { ...explain, tokenIndex: 0.5, section: 'rarity', occurrence: 0 }],
      ['pvf_annotation_explain', { ...explain, startLine: 0 }],
      ['pvf_annotation_explain', { ...explain, limit: 1000 }],
      ['pvf_annotation_explain', { ...explain, unknownFilter: true }],
      ['read_file', { workspaceId: 'main', filePath: SWORD, startLine: 0 }],
      ['read_file', { workspaceId: 'main', filePath: SWORD, endLine: '3' }],
      ['list_files', { workspaceId: 'main', limit: 1001 }],
      ['list_files', { workspaceId: 'main', path: null }],
      ['workspace_info', { verbose: true }],
    ];
    for (const [tool, args] of cases) await expectRefused(tool, args, null);
  });

  it('well-typed but inconsistent or out-of-range arguments: INVALID_ARGUMENT', async () => {
    const rev = await revision();
    const explain = { workspaceId: 'main', expectedRevision: rev, filePath: SWORD };
    await expectRefused('pvf_annotation_explain', { ...explain, tokenIndex: 0, section: 'rarity' }, 'INVALID_ARGUMENT');
    await expectRefused('pvf_annotation_explain', { ...explain, occurrence: 0 }, 'INVALID_ARGUMENT');
    await expectRefused('pvf_annotation_explain', { ...explain, startLine: 9, endLine: 3 }, 'INVALID_ARGUMENT');
    await expectRefused('pvf_annotation_explain', { ...explain, section: '[]' }, 'INVALID_ARGUMENT');
    await expectRefused('read_file', { workspaceId: 'main', filePath: SWORD, startLine: 999 }, 'INVALID_ARGUMENT');
    await expectRefused('read_file', { workspaceId: 'main', filePath: SWORD, startLine: 5, endLine: 4 }, 'INVALID_ARGUMENT');
    await expectRefused('pvf_annotation_search', { pvfVersion: 'all', pathKind: 'directory' }, 'INVALID_ARGUMENT');
    await expectRefused('pvf_annotation_search', { pvfVersion: 'all', extensions: ['equ'] }, 'INVALID_ARGUMENT');
    await expectRefused('pvf_annotation_search', { pvfVersion: '120KR' }, 'INVALID_VERSION');
    await expectRefused('pvf_annotation_explain', { ...explain, expectedRevision: rev + 1 }, 'STALE_WORKSPACE');
    await expectRefused('pvf_annotation_get', { documentId: 'no-such-document' }, 'DOCUMENT_NOT_FOUND');
    // A line range past the end is not an error for explain: it selects nothing.
    const past = await explainOk(SWORD, { startLine: 10_000 });
    expect(past.annotations).toEqual([]);
  });

  it('a cursor of another tool, another query or made up: INVALID_CURSOR', async () => {
    const rev = await revision();
    const explainArgs = { workspaceId: 'main', expectedRevision: rev, filePath: SWORD, limit: 1 };
    const searchCursor = (await callOk(conn.client, 'pvf_annotation_search', { pvfVersion: 'all', limit: 1 }, PvfAnnotationSearchOutputSchema)).out.nextCursor;
    const explainCursor = (await callOk(conn.client, 'pvf_annotation_explain', explainArgs, PvfAnnotationExplainOutputSchema)).out.nextCursor;
    const listCursor = (await callOk(conn.client, 'list_files', { workspaceId: 'main', limit: 1 }, ListFilesOutputSchema)).out.nextCursor;
    const hugeId = (await callOk(conn.client, 'pvf_annotation_search', { pvfVersion: 'all', section: 'code' }, PvfAnnotationSearchOutputSchema)).out.items[0]?.documentId;
    const valuesCursor = (await callOk(conn.client, 'pvf_annotation_get', { documentId: hugeId, valuesLimit: 1 }, PvfAnnotationGetOutputSchema)).out.valuesNextCursor;
    const tampered = `${explainCursor?.slice(0, -1) ?? ''}${explainCursor?.endsWith('0') ? '1' : '0'}`;
    const cases: [string, Record<string, unknown>][] = [
      // Another tool's cursor.
      ['pvf_annotation_search', { pvfVersion: 'all', limit: 1, cursor: explainCursor }],
      ['pvf_annotation_explain', { ...explainArgs, cursor: searchCursor }],
      ['pvf_annotation_explain', { ...explainArgs, cursor: listCursor }],
      ['list_files', { workspaceId: 'main', limit: 1, cursor: searchCursor }],
      ['pvf_annotation_get', { documentId: hugeId, valuesCursor: searchCursor }],
      ['pvf_annotation_search', { pvfVersion: 'all', limit: 1, cursor: valuesCursor }],
      // Another query of the same tool.
      ['pvf_annotation_search', { pvfVersion: 'all', limit: 1, query: '稀有度', cursor: searchCursor }],
      ['pvf_annotation_search', { pvfVersion: 'all', limit: 1, extensions: ['.equ'], cursor: searchCursor }],
      ['pvf_annotation_explain', { ...explainArgs, section: 'rarity', cursor: explainCursor }],
      ['pvf_annotation_explain', { ...explainArgs, startLine: 2, cursor: explainCursor }],
      ['pvf_annotation_explain', { ...explainArgs, filePath: 'etc/stray.equ', cursor: explainCursor }],
      ['list_files', { workspaceId: 'main', path: 'equipment', limit: 1, cursor: listCursor }],
      // Altered or invented.
      ['pvf_annotation_explain', { ...explainArgs, cursor: tampered }],
      ['pvf_annotation_explain', { ...explainArgs, cursor: 'not-a-cursor' }],
      ['pvf_annotation_get', { documentId: hugeId, valuesCursor: 'c1.e30.0000000000000000' }],
    ];
    for (const [tool, args] of cases) await expectRefused(tool, args, 'INVALID_CURSOR');
  });

  it('keeps serving after a burst of bad requests in parallel', async () => {
    const rev = await revision();
    const bad = Array.from({ length: 40 }, (_, i) =>
      conn.client.callTool({
        name: 'pvf_annotation_explain',
        arguments: [
          { workspaceId: 'nope', expectedRevision: rev, filePath: SWORD },
          { workspaceId: 'main', expectedRevision: rev, filePath: '../x.equ' },
          { workspaceId: 'main', expectedRevision: rev, filePath: 'etc/huge.equ' },
          { workspaceId: 'main', expectedRevision: rev, filePath: 'etc/nul.equ' },
        ][i % 4],
      }),
    );
    const results = (await Promise.all(bad)) as CallToolResult[];
    expect(results.every((r) => r.isError === true)).toBe(true);
    await stillServing();
  });
});
