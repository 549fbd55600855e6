/**
 * The MCP prompts through a real SDK 1.x Client (InMemoryTransport) on examples/workspace with the
 * builtin rules: prompts/list, prompts/get of "explain this file" and "what does this tag mean" with
 * the content the tools give for the same arguments, the size budget, the tool calls they name (made
 * for real), argument completion, and every kind of bad argument as a JSON-RPC error.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { McpError, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { loadCurrentBundle } from '../../../runtime/bundle/watch-current.js';
import type { Logger } from '../../../runtime/mcp/log.js';
import { EXPLAIN_FILE_PROMPT, PROMPT_BUDGET_BYTES, TAG_MEANING_PROMPT } from '../../../runtime/mcp/prompts/register-prompts.js';
import { fitLines, utf8Bytes } from '../../../runtime/mcp/prompts/prompt-text.js';
import { INTERNAL_ERROR_TEXT } from '../../../runtime/mcp/tool-error.js';
import { PvfAnnotationExplainOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-explain.js';
import { PvfAnnotationGetOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-get.js';
import { PvfAnnotationSearchOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-search.js';
import { ReadFileOutputSchema } from '../../../runtime/mcp/tools/read-file.js';
import { WorkspaceInfoOutputSchema } from '../../../runtime/mcp/tools/workspace-info.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { buildSnapshot, callOk, connect, connectBroken, ROOT, tempDir, type Connected } from './helpers.js';

const EQU = 'equipment/character/fighter/weapon/102010612.equ';
const BIG = 'equipment/character/big.equ';
/** A path of 12 folders of 80 CJK characters each: alone it takes most of a prompt's budget. */
const LONG = `${Array.from({ length: 12 }, (_, i) => `${i}${'长'.repeat(79)}`).join('/')}/a.equ`;

let tmp: Awaited<ReturnType<typeof tempDir>>;
let workspaces: Map<string, Workspace>;
let conn: Connected;
const logs: string[] = [];
const log: Logger = (level, scope, message) => void logs.push(`${level} [${scope}] ${message}`);

beforeAll(async () => {
  tmp = await tempDir('mcp-prompts');
  const snapshots = path.join(tmp.dir, 'snapshots');
  await buildSnapshot(snapshots);
  // A file whose every part is too long to show whole: huge lines, many sections, long values.
  const scratch = path.join(tmp.dir, 'scratch');
  await mkdir(path.join(scratch, 'equipment/character'), { recursive: true });
  const huge = '长'.repeat(40_000);
  const big = [`[name]\n\t\`${huge}\`\n`, `[flavor text]\n\t\`${'说明文字'.repeat(5_000)}\`\n`, ...Array.from({ length: 400 }, (_, i) => `[rarity]\n\t${i % 9}\n[price]\n\t${i * 1000}\n`)];
  await writeFile(path.join(scratch, BIG), big.join(''));
  await writeFile(path.join(scratch, 'equipment/equipment.str'), 'name>测试\n');
  await mkdir(path.join(scratch, path.dirname(LONG)), { recursive: true });
  await writeFile(path.join(scratch, LONG), '[rarity]\n\t4\n');
  workspaces = new Map<string, Workspace>([
    ['main', await openDirectoryWorkspace({ workspaceId: 'main', name: 'main', root: path.join(ROOT, 'examples/workspace') })],
    ['scratch', await openDirectoryWorkspace({ workspaceId: 'scratch', name: 'scratch', root: scratch, pvfVersion: '110US' })],
    ['missing', await openDirectoryWorkspace({ workspaceId: 'missing', name: 'missing', root: path.join(tmp.dir, 'no-such-folder') })],
  ]);
  conn = await connect({ rules: createRulesHolder(await loadCurrentBundle(snapshots)), workspaces, log });
});

afterAll(async () => {
  await conn?.close();
  for (const w of workspaces?.values() ?? []) await w.close();
  await (tmp as typeof tmp | undefined)?.cleanup();
});

function texts(result: GetPromptResult): string[] {
  return result.messages.map((m) => {
    expect(m.role).toBe('user');
    expect(m.content.type).toBe('text');
    return m.content.type === 'text' ? m.content.text : '';
  });
}

function promptBytes(result: GetPromptResult): number {
  return texts(result).reduce((n, t) => n + utf8Bytes(t), 0);
}

async function getPrompt(name: string, args: Record<string, string>): Promise<{ result: GetPromptResult; task: string; data: string }> {
  const result = await conn.client.getPrompt({ name, arguments: args });
  const [task = '', data = ''] = texts(result);
  expect(result.messages).toHaveLength(2);
  expect(promptBytes(result)).toBeLessThanOrEqual(PROMPT_BUDGET_BYTES);
  return { result, task, data };
}

/** The JSON-RPC error of a prompts/get that must fail. */
async function promptError(name: string, args: Record<string, string>): Promise<McpError> {
  const error: unknown = await conn.client.getPrompt({ name, arguments: args }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `${name} unexpectedly succeeded`).toBeInstanceOf(McpError);
  return error as McpError;
}

/** The arguments of the `tool {...}` call a prompt names on the line that contains `marker`. */
function namedCall(text: string, tool: string, marker: string): Record<string, unknown> {
  const line = text.split('\n').find((l) => l.includes(marker) && l.includes(`${tool} {`));
  expect(line, `no ${tool} call with ${marker} in:\n${text}`).toBeDefined();
  return JSON.parse((line as string).slice((line as string).indexOf(`${tool} {`) + tool.length + 1)) as Record<string, unknown>;
}

describe('prompts/list', () => {
  it('lists both prompts with their arguments (required first), Chinese-first titles and descriptions', async () => {
    expect(conn.client.getServerCapabilities()).toMatchObject({ prompts: {}, completions: {}, tools: {}, resources: {} });
    const { prompts } = await conn.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([EXPLAIN_FILE_PROMPT, TAG_MEANING_PROMPT]);
    const [explain, tag] = prompts;
    expect(explain?.arguments?.map((a) => [a.name, a.required])).toEqual([
      ['workspaceId', true],
      ['filePath', true],
      ['pvfVersion', false],
      ['section', false],
    ]);
    expect(tag?.arguments?.map((a) => [a.name, a.required])).toEqual([
      ['ext', true],
      ['section', true],
      ['pvfVersion', false],
    ]);
    for (const p of prompts) {
      expect(p.title).toMatch(/^[\u4e00-\u9fff]/);
      expect(p.description).toMatch(/^[\u4e00-\u9fff]/);
      for (const a of p.arguments ?? []) expect(a.description, `${p.name}.${a.name}`).toMatch(/^[\u4e00-\u9fff][\s\S]*\/ [A-Za-z]/);
    }
    // What a client loads to show the prompts stays small next to tools/list (20 000 characters).
    expect(JSON.stringify(prompts).length).toBeLessThan(3_000);
  });
});

describe('prompt "explain this file"', () => {
  it('fills in the workspace, the file text and the first explain page, as the tools give them', async () => {
    const { task, data, result } = await getPrompt(EXPLAIN_FILE_PROMPT, { workspaceId: 'main', filePath: EQU });
    expect(result.description).toContain(EQU);
    expect(task).toMatch(/^请解释 DNF 的 PVF 脚本文件 `equipment\/character\/fighter\/weapon\/102010612\.equ`（工作区 `main`）/);
    expect(task).toContain('Explain the DNF PVF script file');

    const info = await callOk(conn.client, 'workspace_info', {}, WorkspaceInfoOutputSchema);
    const main = info.out.workspaces.find((w) => w.workspaceId === 'main');
    expect(data).toContain(`- main: directory, ${main?.fileCount} files, revision ${main?.revision}, pvfVersion (unknown`);
    expect(data).toContain(`rulesRevision ${info.out.rulesRevision}`);

    const read = await callOk(conn.client, 'read_file', { workspaceId: 'main', filePath: EQU, startLine: 19, endLine: 20 }, ReadFileOutputSchema);
    expect(read.out.text).toBe('[rarity]\n\t4\n');
    expect(data).toContain(`${read.out.lineCount} lines, textRevision ${read.out.textRevision}`);
    expect(data).toContain('19\t[rarity]\n20\t\t4\n');

    const page = await callOk(conn.client, 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: main?.revision ?? -1, filePath: EQU }, PvfAnnotationExplainOutputSchema);
    const rarity = page.out.annotations.find((a) => a.section === 'rarity' && a.tokenIndex === 0);
    expect(rarity?.valueLabel).toBe('史诗');
    expect(data).toContain(`- ${rarity?.start.line}:${rarity?.start.column} [rarity]#0.0 稀有度 "4" = 史诗 — `);
    expect(data).toContain(`(doc ${rarity?.documentIds[0]})`);
    // Every annotation of the first page, one line each, and its path notes.
    for (const a of page.out.annotations) expect(data).toContain(`- ${a.start.line}:${a.start.column} `);
    expect(data).toMatch(/路径说明 \/ Path notes:\n- 装备 \(file equipment\/character\/fighter\/weapon\/102010612\.equ \+4; doc /);
    // Each document once (path notes and annotations), with the first annotation citing it.
    for (const [id, doc] of Object.entries(page.out.documents)) {
      const mentions = data.split('\n').filter((l) => l.includes(`doc ${id}`));
      expect(mentions, id).toHaveLength(1);
      if (!page.out.pathContext.some((p) => p.documentId === id)) expect(mentions[0], id).toContain(page.out.annotations.find((a) => a.documentIds.includes(id))?.start.line + ':');
      if (page.out.annotations.some((a) => a.documentIds[0] === id)) expect(mentions[0], id).toContain(doc.summary.slice(0, 20));
    }
  });

  it('names the exact tool calls that continue it, and they work', async () => {
    const { data } = await getPrompt(EXPLAIN_FILE_PROMPT, { workspaceId: 'main', filePath: EQU });
    const explainArgs = namedCall(data, 'pvf_annotation_explain', '"cursor"');
    const second = await callOk(conn.client, 'pvf_annotation_explain', explainArgs, PvfAnnotationExplainOutputSchema);
    expect(second.out.pathContextOmitted).toBe(true);
    expect(second.out.annotations.length).toBeGreaterThan(0);
    const readArgs = namedCall(data, 'read_file', '第 ');
    const rest = await callOk(conn.client, 'read_file', readArgs, ReadFileOutputSchema);
    // The excerpt shows the lines up to the one read_file continues from.
    expect(data).toContain(`\n${rest.out.startLine - 1}\t`);
    expect(data).not.toContain(`\n${rest.out.startLine}\t`);
    const getArgs = namedCall(data, 'pvf_annotation_get', 'documentId');
    const docId = /\(doc ([0-9a-f]+)\)/.exec(data)?.[1];
    await callOk(conn.client, 'pvf_annotation_get', { ...getArgs, documentId: docId }, PvfAnnotationGetOutputSchema);
  });

  it('with section explains only that tag, and the excerpt starts at it', async () => {
    const { task, data } = await getPrompt(EXPLAIN_FILE_PROMPT, { workspaceId: 'main', filePath: EQU, section: '[rarity]' });
    expect(task).toContain('只看 [rarity] 标签');
    const lines = data.split('\n');
    const annotations = lines.filter((l) => /^- \d+:\d+ /.test(l));
    expect(annotations.length).toBeGreaterThan(0);
    for (const l of annotations) expect(l).toMatch(/^- \d+:\d+ \[rarity\]#/);
    expect(data).toMatch(/```text\n19\t\[rarity\]\n/);
    expect(data).not.toContain('"cursor"');
  });

  it('with pvfVersion compares it with the workspace version through a real search', async () => {
    const { data } = await getPrompt(EXPLAIN_FILE_PROMPT, { workspaceId: 'main', filePath: EQU, pvfVersion: '110US' });
    const search = await callOk(conn.client, 'pvf_annotation_search', { filePath: EQU, pvfVersion: '110US', limit: 1 }, PvfAnnotationSearchOutputSchema);
    expect(data).toContain('注意：下面的解释按工作区的版本 (unknown)，不是你指定的 110US');
    expect(data).toContain(`找到 ${search.out.totalMatches} 条适用于此文件的定义`);
    const same = await getPrompt(EXPLAIN_FILE_PROMPT, { workspaceId: 'scratch', filePath: BIG, pvfVersion: '110US' });
    expect(same.data).not.toContain('注意：');
  });

  it('stays within the budget on a file with huge lines and hundreds of sections, and says where the rest is', async () => {
    const { result, data } = await getPrompt(EXPLAIN_FILE_PROMPT, { workspaceId: 'scratch', filePath: BIG });
    expect(promptBytes(result)).toBeLessThanOrEqual(PROMPT_BUDGET_BYTES);
    expect(data).toMatch(/第 \d+ 行起未列出 \/ from line \d+ on: read_file /);
    expect(data).toContain('"cursor"');
    // Long lines and values are cut, never dropped silently.
    expect(data).not.toContain('长'.repeat(200));
    expect(data).toContain('长'.repeat(50));
    expect(data).toContain('…');
  });
});

describe('prompt "what does this tag mean"', () => {
  it('fills in the documents of the tag: title, meaning, values, trust and sources, as search and get give them', async () => {
    const { task, data } = await getPrompt(TAG_MEANING_PROMPT, { ext: 'equ', section: 'rarity' });
    expect(task).toMatch(/^请说明 DNF 的 PVF `\.equ` 文件中标签 `\[rarity\]` 的含义/);
    const search = await callOk(conn.client, 'pvf_annotation_search', { extensions: ['.equ'], section: 'rarity', pvfVersion: 'all', limit: 10 }, PvfAnnotationSearchOutputSchema);
    expect(search.out.items.length).toBeGreaterThan(0);
    expect(data).toContain(`→ ${search.out.totalMatches} 条 / documents (rulesRevision ${search.out.rulesRevision})`);
    for (const item of search.out.items.slice(0, 4)) {
      const got = await callOk(conn.client, 'pvf_annotation_get', { documentId: item.documentId, rulesRevision: search.out.rulesRevision, valuesLimit: 30 }, PvfAnnotationGetOutputSchema);
      const d = got.out.document;
      expect(data).toContain(`. ${d.title} — ${d.kind} ${d.ruleId ?? d.fieldId} (doc ${d.documentId})`);
      expect(data).toContain(`可信度 / trust: ${d.trust}; 来源 / sources: ${d.sources.join(', ')}`);
      expect(data).toContain(`- 取值 / values (${got.out.values.length}/${got.out.valueCount}): ${got.out.values.map((v) => `${v.key}=${v.label}`).join('、')}`);
    }
    expect(data).toContain('4=史诗');
    expect(data).toContain('8=太初');
    const getArgs = namedCall(data, 'pvf_annotation_get', '查一个取值');
    const lookup = await callOk(conn.client, 'pvf_annotation_get', { ...getArgs, value: '4' }, PvfAnnotationGetOutputSchema);
    expect(lookup.out.valueLookup).toMatchObject({ key: '4', found: true, label: '史诗' });
  });

  it('takes the tag with brackets and the file type with a dot, and filters by pvfVersion', async () => {
    const all = await getPrompt(TAG_MEANING_PROMPT, { ext: '.EQU', section: '[rarity]' });
    expect(all.data).toContain('版本 / versions: 90US, 90CN');
    const us = await getPrompt(TAG_MEANING_PROMPT, { ext: 'equ', section: 'rarity', pvfVersion: '110US' });
    expect(us.task).toContain('客户端版本：110US');
    // The 90US/90CN forms of the field do not apply to 110US.
    expect(us.data).not.toContain('版本 / versions: 90US, 90CN');
    expect(us.data).toContain('8=太初');
  });

  it('says plainly when nothing is known, with the similar tags and what to try', async () => {
    const { task, data, result } = await getPrompt(TAG_MEANING_PROMPT, { ext: 'equ', section: 'rarety' });
    expect(result.description).toContain('规则中没有说明');
    expect(task).toContain('pvfdoc 的规则里没有这个标签的说明');
    expect(task).toContain('不要猜测');
    expect(data).toContain('no definition has section "rarety"');
    expect(data).toMatch(/相近标签 \/ similar tags the rules know for \.equ: .*\[rarity\]/);
    const keyword = namedCall(data, 'pvf_annotation_search', '按关键词');
    await callOk(conn.client, 'pvf_annotation_search', keyword, PvfAnnotationSearchOutputSchema);
  });

  it('stays within the budget for the tag with the most documents, and the one with the most values', async () => {
    const many = await getPrompt(TAG_MEANING_PROMPT, { ext: 'aic', section: 'character status rate' });
    const search = await callOk(conn.client, 'pvf_annotation_search', { extensions: ['.aic'], section: 'character status rate', pvfVersion: 'all', limit: 10 }, PvfAnnotationSearchOutputSchema);
    expect(search.out.totalMatches).toBeGreaterThan(10);
    expect(many.data).toContain('## 4. ');
    expect(many.data).not.toContain('## 5. ');
    expect(many.data).toContain('其他定义 / Other definitions:');
    for (const item of search.out.items.slice(4)) expect(many.data).toContain(`(doc ${item.documentId}`);
    expect(many.data).toContain(`first 10 of ${search.out.totalMatches}: nextCursor ${search.out.nextCursor}`);

    const values = await getPrompt(TAG_MEANING_PROMPT, { ext: 'stk', section: 'stackable type' });
    expect(values.data).toMatch(/- 取值 \/ values \(30\/\d+; 更多 \/ more: valuesCursor \S+\): /);
  });
});

describe('argument completion', () => {
  async function complete(prompt: string, name: string, value: string, args: Record<string, string> = {}): Promise<string[]> {
    const result = await conn.client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name, value }, context: { arguments: args } });
    return result.completion.values;
  }

  it('completes workspace ids, paths of the chosen workspace, file types, tags of the file type and versions', async () => {
    expect(await complete(EXPLAIN_FILE_PROMPT, 'workspaceId', 'm')).toEqual(['main', 'missing']);
    expect(await complete(EXPLAIN_FILE_PROMPT, 'filePath', 'equipment/character/fighter/', { workspaceId: 'main' })).toEqual(['equipment/character/fighter/weapon/']);
    expect(await complete(EXPLAIN_FILE_PROMPT, 'filePath', 'equipment/character/fighter/weapon/1', { workspaceId: 'main' })).toEqual([EQU]);
    expect(await complete(EXPLAIN_FILE_PROMPT, 'filePath', 'nowhere/x', { workspaceId: 'main' })).toEqual([]);
    expect(await complete(EXPLAIN_FILE_PROMPT, 'filePath', '', { workspaceId: 'missing' })).toEqual([]);
    expect(await complete(EXPLAIN_FILE_PROMPT, 'section', 'rar', { filePath: EQU })).toEqual(['rarity']);
    expect(await complete(TAG_MEANING_PROMPT, 'ext', 'eq')).toEqual(['.equ']);
    expect(await complete(TAG_MEANING_PROMPT, 'ext', '.st')).toEqual(['.stk', '.str']);
    expect(await complete(TAG_MEANING_PROMPT, 'section', 'level prop', { ext: 'skl' })).toEqual(['level property']);
    expect(await complete(TAG_MEANING_PROMPT, 'section', 'level prop', { ext: 'equ' })).toEqual([]);
    expect(await complete(TAG_MEANING_PROMPT, 'pvfVersion', '')).toEqual(['90US', '90CN', '110US', 'all']);
    expect(await complete(EXPLAIN_FILE_PROMPT, 'pvfVersion', '1')).toEqual(['110US']);
  });
});

describe('bad arguments', () => {
  it('are JSON-RPC errors with the tools\' code and hint in the message and their fields in data', async () => {
    const unknown = await promptError(EXPLAIN_FILE_PROMPT, { workspaceId: 'nope', filePath: EQU });
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toContain('WORKSPACE_NOT_FOUND: no workspace "nope" Use one of "main", "scratch", "missing"');
    expect(unknown.data).toMatchObject({ code: 'WORKSPACE_NOT_FOUND', hint: expect.stringContaining('workspace_info'), data: { workspaceIds: ['main', 'scratch', 'missing'] } });

    const missing = await promptError(EXPLAIN_FILE_PROMPT, { workspaceId: 'main', filePath: 'equipment/none.equ' });
    expect(missing.code).toBe(-32602);
    expect(missing.message).toMatch(/FILE_NOT_FOUND: .*none\.equ/);

    const notScript = await promptError(EXPLAIN_FILE_PROMPT, { workspaceId: 'scratch', filePath: 'equipment/equipment.str' });
    expect(notScript.message).toMatch(/NOT_A_SCRIPT: .* Explain script files/);
    expect(notScript.data).toMatchObject({ code: 'NOT_A_SCRIPT' });

    const closed = await promptError(EXPLAIN_FILE_PROMPT, { workspaceId: 'missing', filePath: EQU });
    expect(closed.message).toContain('NO_ARCHIVE: ');

    const version = await promptError(EXPLAIN_FILE_PROMPT, { workspaceId: 'main', filePath: EQU, pvfVersion: '999XX' });
    expect(version.message).toContain('INVALID_VERSION: unknown pvfVersion "999XX" Use one of');
    expect(version.data).toMatchObject({ data: { supportedVersions: ['90US', '90CN', '110US'] } });

    const ext = await promptError(TAG_MEANING_PROMPT, { ext: 'xyz', section: 'rarity' });
    expect(ext.code).toBe(-32602);
    expect(ext.message).toMatch(/INVALID_ARGUMENT: no rule names the file type \.xyz Use one of the file types the rules know: .*\.equ/);
    expect((ext.data as { data: { knownExtensions: string[] } }).data.knownExtensions).toContain('.skl');

    expect((await promptError(TAG_MEANING_PROMPT, { ext: 'equipment/a.equ', section: 'rarity' })).message).toContain('INVALID_ARGUMENT: ext must be a file type');
    expect((await promptError(TAG_MEANING_PROMPT, { ext: 'equ', section: '[ ]' })).message).toContain('INVALID_ARGUMENT: section is empty');
    expect((await promptError(TAG_MEANING_PROMPT, { ext: 'equ', section: 'rarity', pvfVersion: 'current' })).message).toContain('NO_ARCHIVE: pvfVersion "current" needs a workspaceId');

    const long = await promptError(EXPLAIN_FILE_PROMPT, { workspaceId: 'scratch', filePath: LONG });
    expect(long.message).toMatch(/RESPONSE_TOO_LARGE: the path and arguments alone take \d+ bytes of the 16384-byte prompt budget Call pvf_annotation_explain and read_file directly/);
    await callOk(conn.client, 'pvf_annotation_explain', { workspaceId: 'scratch', expectedRevision: (await workspaces.get('scratch')?.view())?.revision ?? -1, filePath: LONG }, PvfAnnotationExplainOutputSchema);

    // The SDK's own checks: a missing argument, an unknown prompt.
    const absent = await promptError(TAG_MEANING_PROMPT, { ext: 'equ' });
    expect(absent.code).toBe(-32602);
    expect(absent.message).toContain('section');
    expect((await promptError('no_such_prompt', {})).code).toBe(-32602);

    // The server keeps answering after each of them.
    await getPrompt(TAG_MEANING_PROMPT, { ext: 'equ', section: 'rarity' });
  });

  it('an unexpected exception is an internal error without a code, with its stack logged', async () => {
    const { conn: other, captured } = await connectBroken(createRulesHolder(await loadCurrentBundle(path.join(tmp.dir, 'snapshots'))));
    try {
      const error: unknown = await other.client.getPrompt({ name: EXPLAIN_FILE_PROMPT, arguments: { workspaceId: 'broken', filePath: EQU } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32603);
      expect((error as McpError).message).toContain(INTERNAL_ERROR_TEXT);
      expect((error as McpError).message).not.toContain('boom');
      expect((error as McpError).data).toBeUndefined();
      expect(captured.join('\n')).toMatch(/error \[mcp\] unexpected failure in a prompt \(a bug\):\nTypeError: boom in view\n\s+at /);
    } finally {
      await other.close();
    }
    expect(logs.filter((l) => l.startsWith('error'))).toEqual([]);
  });
});

describe('fitLines', () => {
  it('keeps what fits and ends with a note of how many were left out, within the bytes given', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} ${'字'.repeat(20)}`);
    const more = (n: number) => `… ${n} more`;
    for (const max of [0, 10, 100, 500, 2000]) {
      const kept = fitLines(lines, max, more);
      expect(kept.reduce((n, l) => n + utf8Bytes(l) + 1, 0)).toBeLessThanOrEqual(max);
      if (kept.length > 0) expect(kept.at(-1)).toBe(more(lines.length - (kept.length - 1)));
    }
    expect(fitLines(lines.slice(0, 3), 10_000, more)).toEqual(lines.slice(0, 3));
  });
});
