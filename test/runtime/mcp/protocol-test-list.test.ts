/**
 * The protocol's test list (spec/MCP标注文档协议.md, last paragraph: 空条件分页、关键词与组合过滤、
 * 假想路径/真实文件区分、目录说明、通用与版本专属规则、禁用/覆盖定义、共享字段覆盖、超大枚举、重复 Section、
 * 动态记录及分隔符、上下文关联、缺失引用、自动生成标注来源、中文/emoji/CRLF 定位、规则热重载失败和各类过期游标),
 * one named test per item, each talking to the server as a real client: the SDK Client over
 * InMemoryTransport, every result checked against the tool's published output schema.
 *
 * Rules and files come from test/runtime/mcp/protocol-fixture.ts (a base and a user layer compiled into a
 * snapshot; a folder workspace opened three times, as 110US, 90CN and with no version).
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCurrentRevision } from '../../../build/write-bundle.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { loadCurrentBundle, watchCurrentBundle } from '../../../runtime/bundle/watch-current.js';
import type { ExplainOutput, ExplainOutputAnnotation } from '../../../runtime/explain/explain-schema.js';
import { MAX_EXPLAIN_RESPONSE_BYTES } from '../../../runtime/explain/explain-schema.js';
import { MAX_GET_RESPONSE_BYTES } from '../../../runtime/get/get-schema.js';
import { ERROR_META_KEY } from '../../../runtime/mcp/constants.js';
import { ListFilesOutputSchema } from '../../../runtime/mcp/tools/list-files.js';
import { PvfAnnotationExplainOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-explain.js';
import { PvfAnnotationGetOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-get.js';
import { PvfAnnotationSearchOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-search.js';
import { ReadFileOutputSchema } from '../../../runtime/mcp/tools/read-file.js';
import { WorkspaceInfoOutputSchema } from '../../../runtime/mcp/tools/workspace-info.js';
import type { SearchItem, SearchOutput } from '../../../runtime/search/search-schema.js';
import { MAX_SEARCH_RESPONSE_BYTES } from '../../../runtime/search/search-schema.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { buildSnapshot, callError, callOk, connect, eventually, tempDir, writeExtraLayer, type Connected } from './helpers.js';
import { HUGE_ENUM_SIZE, protocolWorkspaceFiles, SWORD, SWORD_LINES, writeFiles, writeProtocolLayers } from './protocol-fixture.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let layers: { base: string; user: string };
let snapshots: string;
let rulesRevision: string;
let bundle: Bundle;
let root: string;
let workspaces: Map<string, Workspace>;
let conn: Connected;

beforeAll(async () => {
  tmp = await tempDir('mcp-protocol');
  layers = await writeProtocolLayers(path.join(tmp.dir, 'layers'));
  snapshots = path.join(tmp.dir, 'snapshots');
  rulesRevision = await buildSnapshot(snapshots, [layers.base, layers.user]);
  bundle = await loadCurrentBundle(snapshots);
  root = path.join(tmp.dir, 'workspace');
  await writeFiles(root, protocolWorkspaceFiles());
  workspaces = new Map<string, Workspace>([
    ['main', await openDirectoryWorkspace({ workspaceId: 'main', name: 'main', root, pvfVersion: '110US' })],
    ['cn', await openDirectoryWorkspace({ workspaceId: 'cn', name: 'cn', root, pvfVersion: '90CN' })],
    ['plain', await openDirectoryWorkspace({ workspaceId: 'plain', name: 'plain', root })],
  ]);
  conn = await connect({ rules: createRulesHolder(bundle), workspaces });
});

afterAll(async () => {
  await conn?.close();
  for (const w of workspaces?.values() ?? []) await w.close();
  await (tmp as typeof tmp | undefined)?.cleanup();
});

// --- Calls ---

async function revisionOf(client: Client, workspaceId: string): Promise<number> {
  const { out } = await callOk(client, 'workspace_info', {}, WorkspaceInfoOutputSchema);
  const ws = out.workspaces.find((w) => w.workspaceId === workspaceId);
  if (!ws) throw new Error(`no workspace ${workspaceId}`);
  return ws.revision;
}

async function search(args: Record<string, unknown>, client: Client = conn.client): Promise<SearchOutput> {
  const { out, text } = await callOk(client, 'pvf_annotation_search', args, PvfAnnotationSearchOutputSchema);
  expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(MAX_SEARCH_RESPONSE_BYTES);
  expect(text.length).toBeGreaterThan(0);
  return out;
}

/** Every item of a search, following nextCursor; checks that totalMatches stays the same. */
async function searchAll(args: Record<string, unknown>, client: Client = conn.client): Promise<{ items: SearchItem[]; totalMatches: number; pages: number }> {
  const items: SearchItem[] = [];
  let cursor: string | null = null;
  let totalMatches = -1;
  let pages = 0;
  do {
    const out = await search(cursor === null ? args : { ...args, cursor }, client);
    if (totalMatches >= 0) expect(out.totalMatches).toBe(totalMatches);
    totalMatches = out.totalMatches;
    items.push(...out.items);
    cursor = out.nextCursor;
    pages++;
  } while (cursor !== null && pages < 1000);
  return { items, totalMatches, pages };
}

function nameOf(item: SearchItem): string {
  return item.kind === 'rule' ? (item.ruleId ?? '') : `field ${item.fieldId ?? ''}`;
}

function names(items: readonly SearchItem[]): string[] {
  return items.map(nameOf).sort();
}

async function get(args: Record<string, unknown>, client: Client = conn.client) {
  const { out } = await callOk(client, 'pvf_annotation_get', args, PvfAnnotationGetOutputSchema);
  expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(MAX_GET_RESPONSE_BYTES);
  return out;
}

/** documentId of the (single) search item with that name under pvfVersion "all", status "all". */
async function documentIdOf(name: string, layer?: string): Promise<string> {
  const { items } = await searchAll({ pvfVersion: 'all', status: 'all', limit: 100 });
  const hits = items.filter((i) => nameOf(i) === name && (layer === undefined || i.layer === layer));
  expect(hits, `documents named ${name}`).toHaveLength(1);
  return hits[0]?.documentId ?? '';
}

async function explain(args: Record<string, unknown>, client: Client = conn.client): Promise<ExplainOutput> {
  const workspaceId = typeof args.workspaceId === 'string' ? args.workspaceId : 'main';
  const expectedRevision = typeof args.expectedRevision === 'number' ? args.expectedRevision : await revisionOf(client, workspaceId);
  const { out } = await callOk(client, 'pvf_annotation_explain', { workspaceId, expectedRevision, filePath: SWORD, ...args }, PvfAnnotationExplainOutputSchema);
  expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(MAX_EXPLAIN_RESPONSE_BYTES);
  return out;
}

/** Every page of an explain request. */
async function explainAll(args: Record<string, unknown>, client: Client = conn.client): Promise<{ annotations: ExplainOutputAnnotation[]; pages: ExplainOutput[] }> {
  const pages: ExplainOutput[] = [];
  let cursor: string | null = null;
  do {
    const page = await explain(cursor === null ? args : { ...args, cursor }, client);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length < 1000);
  return { annotations: pages.flatMap((p) => p.annotations), pages };
}

async function readText(filePath: string, workspaceId = 'main', client: Client = conn.client) {
  return (await callOk(client, 'read_file', { workspaceId, filePath }, ReadFileOutputSchema)).out;
}

/** 1-based line and UTF-16 column of an offset, computed from the read_file text alone. */
function positionIn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastNewline = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastNewline };
}

/** The error code of a call that must fail, plus its data. */
async function failing(client: Client, tool: string, args: Record<string, unknown>): Promise<{ code: string | null; data: Record<string, unknown> | null }> {
  const error = await callError(client, tool, args);
  const meta = error.result._meta?.[ERROR_META_KEY] as { data: Record<string, unknown> | null } | undefined;
  return { code: error.code, data: meta?.data ?? null };
}

const onSection = (annotations: readonly ExplainOutputAnnotation[], section: string) =>
  annotations.filter((a) => a.section !== null && a.section.toLowerCase() === section && a.tokenIndex !== null);

// --- The list ---

describe('protocol test list (MCP标注文档协议: 针对性测试覆盖)', () => {
  it('empty-filter paging (空条件分页)', async () => {
    // Search with no content filter pages through every category of document, each exactly once; a
    // shared field and its implicit rule are one hit (the field's, naming the rule).
    const all = await searchAll({ pvfVersion: 'all', status: 'all', limit: 7 });
    expect(all.pages).toBe(Math.ceil(all.totalMatches / 7));
    expect(all.items).toHaveLength(all.totalMatches);
    const covered = all.items.flatMap((i) => [i.documentId, ...(i.implicitRuleDocumentId ? [i.implicitRuleDocumentId] : [])]);
    expect(new Set(covered).size).toBe(covered.length);
    expect(new Set(covered)).toEqual(new Set(bundle.documents.map((d) => d.documentId)));
    expect(all.totalMatches).toBeLessThan(bundle.documents.length);

    const effective = await searchAll({ pvfVersion: 'all', limit: 5 });
    expect(effective.items.map((i) => i.documentId).sort()).toEqual(all.items.filter((i) => i.effective).map((i) => i.documentId).sort());
    expect(effective.items.length).toBeLessThan(all.items.length);
    // Not only path rules (RuleService.Query's empty-section behaviour): every target kind, rules and fields.
    expect(new Set(effective.items.map((i) => i.targetKind))).toEqual(new Set(['path', 'section', 'token']));
    expect(new Set(effective.items.map((i) => i.kind))).toEqual(new Set(['rule', 'field']));
    // Summaries only: no enum value map, not even for the huge enum.
    const huge = effective.items.find((i) => i.ruleId === 'huge.code');
    expect(huge?.valueCount).toBe(HUGE_ENUM_SIZE + 1);
    expect(huge && 'values' in huge).toBe(false);
    expect(huge?.matchedValues).toBeUndefined();

    // The same through the workspace's version ("current"): the cursor carries the context.
    const current = await searchAll({ workspaceId: 'main', limit: 4 });
    expect(current.items.every((i) => i.effective && i.applicability === 'matched')).toBe(true);
    expect(names(current.items)).toEqual(names((await searchAll({ pvfVersion: '110US', limit: 100 })).items));

    // Explain without filters pages every annotation of the file exactly once, in order.
    const whole = await explain({ limit: 100 });
    expect(whole.nextCursor).toBeNull();
    const paged = await explainAll({ limit: 3 });
    expect(paged.pages.length).toBe(Math.ceil(whole.annotations.length / 3));
    expect(paged.annotations).toEqual(whole.annotations);
    // pathContext comes with the first page only; later pages say it was omitted (since schemaVersion 2).
    expect(paged.pages[0]?.pathContext).toEqual(whole.pathContext);
    expect(paged.pages.slice(1).every((p) => p.pathContext.length === 0 && p.pathContextOmitted === (whole.pathContext.length > 0 ? true : undefined))).toBe(true);
  });

  it('keyword and combined filters (关键词与组合过滤)', async () => {
    // Words are ANDed and may hit different fields: 稀有度 in the title, 传说 only as an enum label.
    const both = await search({ pvfVersion: '110US', query: '稀有度 传说' });
    expect(names(both.items)).toEqual(['field equ.rarity', 'rarity.uses-field']);
    expect(both.items.every((i) => i.matchedValues?.some((v) => v.key === '9' && v.label === '传说'))).toBe(true);
    expect(both.items.every((i) => i.matchReasons.join() === 'query')).toBe(true);
    // A Chinese word matches as a substring; the document without the enum label is found by 稀有 alone.
    expect(names((await search({ pvfVersion: '110US', query: '稀有' })).items)).toEqual(['field equ.rarity', 'rarity.own-title', 'rarity.uses-field']);
    // Case-insensitive ids.
    // Case-insensitive ids; the field and its implicit rule are one hit naming both.
    const weightHits = (await search({ pvfVersion: '110US', query: 'EQU.WEIGHT' })).items;
    expect(names(weightHits)).toEqual(['field equ.weight']);
    expect(weightHits[0]).toMatchObject({ implicitRuleId: 'field:equ.weight' });
    // A word found nowhere empties the result (AND).
    expect((await search({ pvfVersion: '110US', query: '稀有度 不存在的词' })).totalMatches).toBe(0);

    // Conditions AND each other; values inside one array OR.
    const combined = await search({ pvfVersion: '110US', query: '技能', extensions: ['.equ'], annotationTypes: ['reference'] });
    expect(names(combined.items)).toEqual(['skill.levelup']);
    expect(combined.items[0]?.matchReasons.sort()).toEqual(['annotationTypes', 'extensions', 'query']);
    expect(names((await search({ pvfVersion: '110US', relation: '物品', targetKinds: ['token'] })).items)).toEqual(['upgrade.item', 'world.drop']);
    expect((await search({ pvfVersion: '110US', relation: '物品', kinds: ['field'] })).totalMatches).toBe(0);
    const either = await search({ pvfVersion: '110US', annotationTypes: ['reference', 'enum'] });
    expect(names(either.items)).toEqual(['field equ.rarity', 'huge.code', 'rarity.uses-field', 'skill.levelup', 'upgrade.item', 'world.drop']);
    expect(names((await search({ pvfVersion: '110US', annotationTypes: ['reference', 'enum'], section: '[code]' })).items)).toEqual(['huge.code']);
    // Exact section/id/title matches rank before substring hits.
    const price = await search({ pvfVersion: '110US', query: 'price' });
    expect(names(price.items)).toEqual(['override.me', 'section.price']);
  });

  it('hypothetical path vs real file (假想路径/真实文件区分)', async () => {
    const planned = 'equipment/character/Not-Yet.equ';
    // search takes a path that does not exist: the match engine decides, nothing is read.
    const hypothetical = await search({ pvfVersion: '110US', filePath: planned, section: '[durability]' });
    expect(hypothetical.context.filePath).toBe(planned.toLowerCase());
    expect(names(hypothetical.items)).toEqual(['glob.durability']);
    expect(hypothetical.items[0]).toMatchObject({ applicability: 'matched', matchReasons: ['section', 'filePath'] });
    // By extension alone a glob-only rule cannot be proven to apply.
    const byExtension = await search({ pvfVersion: '110US', extensions: ['.equ'], section: 'durability' });
    expect(byExtension.items[0]?.applicability).toBe('unknown');
    // Another folder with the same extension: the glob excludes it.
    expect((await search({ pvfVersion: '110US', filePath: 'stackable/not-yet.equ', section: 'durability' })).totalMatches).toBe(0);
    const forPlanned = await search({ pvfVersion: '110US', filePath: planned, limit: 100 });
    expect(forPlanned.items.map(nameOf)).toContain('rarity.uses-field');

    // explain and read_file need a real file.
    const revision = await revisionOf(conn.client, 'main');
    expect((await failing(conn.client, 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: revision, filePath: planned })).code).toBe('FILE_NOT_FOUND');
    expect((await failing(conn.client, 'read_file', { workspaceId: 'main', filePath: planned })).code).toBe('FILE_NOT_FOUND');
    // The real file: what the rules say for it, from the actual tokens.
    const real = await explain({ filePath: SWORD.toUpperCase() });
    expect(real.filePath).toBe(SWORD);
    expect(real.annotations.length).toBeGreaterThan(0);
  });

  it('directory notes (目录说明)', async () => {
    const folder = await search({ pvfVersion: '110US', filePath: 'equipment/character', pathKind: 'directory' });
    expect(names(folder.items)).toEqual(['path.character', 'path.equipment']);
    expect(folder.items.every((i) => i.targetKind === 'path' && i.applicability === 'matched')).toBe(true);
    // An extension rule never describes a folder, but does describe a file of that folder.
    const file = await search({ pvfVersion: '110US', filePath: SWORD, targetKinds: ['path'] });
    expect(names(file.items)).toEqual(['path.character', 'path.equ-file', 'path.equipment']);
    expect(names((await search({ pvfVersion: '110US', filePath: 'equipment', pathKind: 'directory' })).items)).toEqual(['path.equipment']);

    // explain returns the notes of the file and of each ancestor folder as pathContext, never as annotations.
    const out = await explain({});
    expect(out.pathContext.map((p) => [p.scopeKind, p.scopePath, p.ruleId])).toEqual([
      ['file', SWORD, 'path.equipment'],
      ['file', SWORD, 'path.character'],
      ['file', SWORD, 'path.equ-file'],
      ['directory', 'equipment/character', 'path.equipment'],
      ['directory', 'equipment/character', 'path.character'],
      ['directory', 'equipment', 'path.equipment'],
    ]);
    const pathRules = new Set(out.pathContext.map((p) => p.documentId));
    const everything = await explainAll({ limit: 100 });
    expect(everything.annotations.some((a) => a.documentIds.some((d) => pathRules.has(d)))).toBe(false);
    // A section filter narrows the annotations, not the path context.
    const filtered = await explain({ section: 'rarity' });
    expect(filtered.pathContext).toEqual(out.pathContext);
    // Each entry names a document pvf_annotation_get can open.
    const note = await get({ documentId: out.pathContext[3]?.documentId, rulesRevision });
    expect(note.document).toMatchObject({ ruleId: 'path.equipment', title: '装备目录' });
    expect(note.resolvedDefinition.target.kind).toBe('path');
  });

  it('common vs version-specific rules (通用与版本专属规则)', async () => {
    const growth = async (pvfVersion: string, extra: Record<string, unknown> = {}) => names((await search({ pvfVersion, section: 'growth', ...extra })).items);
    expect(await growth('110US')).toEqual(['ver.110-only']);
    expect(await growth('90CN')).toEqual(['ver.90cn-only']);
    expect(await growth('90US')).toEqual([]);
    // status "all" shows why they do not apply.
    const why = await search({ pvfVersion: '90US', section: 'growth', status: 'all' });
    expect(why.items.map((i) => [nameOf(i), i.state, i.effective])).toEqual([
      ['ver.110-only', 'notApplicable', false],
      ['ver.90cn-only', 'notApplicable', false],
    ]);
    expect(why.items[0]?.statusReason).toMatch(/110US/);
    // "all" filters no version and claims nothing about applicability.
    const all = await search({ pvfVersion: 'all', section: 'growth' });
    expect(all.items.map((i) => [nameOf(i), i.pvfVersions, i.applicability])).toEqual([
      ['ver.110-only', ['110US'], 'unknown'],
      ['ver.90cn-only', ['90CN'], 'unknown'],
    ]);
    // "current" takes the version of the named workspace.
    const current = await search({ pvfVersion: 'current', workspaceId: 'cn', section: 'growth' });
    expect(current.context).toMatchObject({ workspaceId: 'cn', pvfVersion: '90CN' });
    expect(names(current.items)).toEqual(['ver.90cn-only']);
    // A common rule applies in every version.
    for (const v of ['110US', '90CN', '90US', 'all']) expect(names((await search({ pvfVersion: v, section: 'name' })).items)).toEqual(['name']);

    // explain of the same file in three version contexts.
    const titlesIn = async (workspaceId: string) => {
      const out = await explainAll({ workspaceId, limit: 100 });
      return { growth: onSection(out.annotations, 'growth').map((a) => a.title), name: onSection(out.annotations, 'name').map((a) => a.title), version: out.pages[0]?.pvfVersion };
    };
    expect(await titlesIn('main')).toEqual({ growth: ['成长属性(110)'], name: ['名称'], version: '110US' });
    expect(await titlesIn('cn')).toEqual({ growth: ['成长属性(国服)'], name: ['名称'], version: '90CN' });
    expect(await titlesIn('plain')).toEqual({ growth: [], name: ['名称'], version: '' });
  });

  it('disabled and overridden definitions (禁用/覆盖定义)', async () => {
    expect((await search({ pvfVersion: '110US', section: 'old stat' })).totalMatches).toBe(0);
    const disabled = await search({ pvfVersion: '110US', section: 'old stat', status: 'all' });
    expect(disabled.items.map((i) => [nameOf(i), i.state, i.effective, i.layer])).toEqual([['disabled.me', 'disabled', false, 'proto-base']]);
    expect(disabled.items[0]?.statusReason).toMatch(/proto-user.*rule:disabled\.me/);

    const effective = await search({ pvfVersion: '110US', section: 'price', targetKinds: ['token'] });
    expect(effective.items.map((i) => [nameOf(i), i.layer, i.source, i.title])).toEqual([['override.me', 'proto-user', 'user', '售价(用户)']]);
    const both = await search({ pvfVersion: '110US', section: 'price', targetKinds: ['token'], status: 'all' });
    expect(both.items).toHaveLength(2);
    const builtin = both.items.find((i) => i.layer === 'proto-base');
    const user = both.items.find((i) => i.layer === 'proto-user');
    expect(builtin).toMatchObject({ ruleId: 'override.me', state: 'overridden', effective: false, source: 'builtin' });
    expect(builtin?.statusReason).toMatch(/overridden by rule "override.me" of layer "proto-user"/);
    expect(builtin?.documentId).not.toBe(user?.documentId);
    // get keeps both identities apart and links them.
    const old = await get({ documentId: builtin?.documentId, rulesRevision });
    expect(old.document).toMatchObject({ status: 'overridden', overriddenBy: user?.documentId, title: '售价(内置)', layer: 'proto-base' });
    const now = await get({ documentId: user?.documentId, rulesRevision });
    expect(now.document).toMatchObject({ status: 'effective', overriddenBy: null, title: '售价(用户)', source: 'user' });

    // explain uses only the effective definitions.
    const out = await explainAll({ limit: 100 });
    const price = onSection(out.annotations, 'price');
    expect(price.map((a) => [a.title, a.documentIds])).toEqual([['售价(用户)', [user?.documentId]]]);
    expect(out.annotations.filter((a) => a.section === 'old stat')).toEqual([]);
  });

  it('shared-field override (共享字段覆盖)', async () => {
    const usesField = await get({ documentId: await documentIdOf('rarity.uses-field'), rulesRevision, valuesLimit: 100 });
    // The rule names the field; the user layer replaced the field as a whole block.
    expect(usesField.rawDefinition).toEqual({ id: 'rarity.uses-field', description: '使用共享字段的规则', field: 'equ.rarity' });
    expect(usesField.document.fieldId).toBe('equ.rarity');
    expect(usesField.resolvedDefinition.annotation).toMatchObject({ title: '稀有度(用户)', type: 'enum', content: '用户层稀有度。' });
    expect(usesField.values).toEqual([
      { key: '0', label: '普通' },
      { key: '2', label: '稀有' },
      { key: '4', label: '史诗(用户)' },
      { key: '9', label: '传说' },
    ]);
    // A rule that brings its own annotation block keeps it whole: no values or content leak in.
    const ownBlock = await get({ documentId: await documentIdOf('rarity.own-title'), rulesRevision });
    expect(ownBlock.resolvedDefinition.annotation).toMatchObject({ title: '稀有度(自有块)', type: 'text', content: '', hasValues: false });
    expect(ownBlock.resolvedDefinition.target).toMatchObject({ kind: 'token', section: 'rarity', index: 0 });
    expect(ownBlock.valueCount).toBe(0);
    // The builtin field is overridden by the user field.
    const userField = await documentIdOf('field equ.rarity', 'proto-user');
    const builtinField = await get({ documentId: await documentIdOf('field equ.rarity', 'proto-base'), rulesRevision });
    expect(builtinField.document).toMatchObject({ status: 'overridden', overriddenBy: userField });
    expect(builtinField.valueCount).toBe(5);

    // explain labels with the overriding field's values; both rules land on the same span and merge.
    const rarity = onSection((await explain({ section: 'rarity' })).annotations, 'rarity');
    expect(rarity.map((a) => [a.value, a.valueLabel ?? null, a.unknownValue ?? false])).toEqual([
      ['4', '史诗(用户)', false],
      ['9', '传说', false],
      ['2', '稀有', false],
      ['7', null, true],
    ]);
    expect(rarity.every((a) => a.ruleIds.join() === 'rarity.uses-field,rarity.own-title' && a.blocks?.length === 2)).toBe(true);
  });

  it('huge enums (超大枚举)', async () => {
    const found = await search({ pvfVersion: '110US', section: 'code' });
    const item = found.items[0];
    expect(item).toMatchObject({ ruleId: 'huge.code', valueCount: HUGE_ENUM_SIZE + 1, annotationType: 'enum' });
    expect(Buffer.byteLength(JSON.stringify(found))).toBeLessThan(8 * 1024);
    // A query that hits enum labels returns a few of them, never the map.
    expect((await search({ pvfVersion: '110US', query: '代码' })).items[0]?.matchedValues?.length).toBeLessThanOrEqual(5);

    const documentId = item?.documentId;
    const first = await get({ documentId, rulesRevision });
    expect(first.values).toHaveLength(50);
    expect(first.valueCount).toBe(HUGE_ENUM_SIZE + 1);
    expect(first.definitionsOmitValues).toBe(true);
    expect(JSON.stringify(first.rawDefinition)).not.toContain('代码 1');
    // Every value once, over pages of at most 100.
    const keys: string[] = [];
    let valuesCursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(valuesCursor === null ? { documentId, rulesRevision, valuesLimit: 100 } : { documentId, rulesRevision, valuesLimit: 100, valuesCursor });
      expect(page.values.length).toBeLessThanOrEqual(100);
      keys.push(...page.values.map((v) => v.key));
      valuesCursor = page.valuesNextCursor;
      pages++;
    } while (valuesCursor !== null && pages < 100);
    expect(pages).toBe(Math.ceil((HUGE_ENUM_SIZE + 1) / 100));
    expect(new Set(keys).size).toBe(HUGE_ENUM_SIZE + 1);
    expect(keys).toContain('001');
    expect(keys).toContain('1');
    // Exact key lookup: "001" and "1" are different keys; nothing is guessed.
    expect((await get({ documentId, value: '001' })).valueLookup).toEqual({ key: '001', found: true, label: '前导零代码' });
    expect((await get({ documentId, value: '1' })).valueLookup).toEqual({ key: '1', found: true, label: '代码 1' });
    expect((await get({ documentId, value: '01' })).valueLookup).toEqual({ key: '01', found: false, label: null });
    expect((await get({ documentId, value: String(HUGE_ENUM_SIZE) })).valueLookup).toEqual({ key: String(HUGE_ENUM_SIZE), found: false, label: null });

    // explain labels the actual value and does not carry the value list.
    const code = onSection((await explain({ section: 'code' })).annotations, 'code');
    expect(code.map((a) => [a.value, a.valueLabel])).toEqual([['2500', '代码 2500']]);
    expect(Buffer.byteLength(JSON.stringify(code[0]))).toBeLessThan(2048);
  });

  it('duplicate sections (重复 Section)', async () => {
    // Without occurrence every same-name section is explained (case-insensitive names), over pages.
    const paged = await explainAll({ section: 'rarity', limit: 1 });
    const tokens = paged.annotations.filter((a) => a.tokenIndex === 0);
    expect(tokens.map((a) => [a.section, a.occurrence, a.value])).toEqual([
      ['rarity', 0, '4'],
      ['rarity', 1, '9'],
      ['RARITY', 2, '2'],
      ['rarity', 3, '7'],
    ]);
    expect(paged.pages.length).toBe(paged.annotations.length);
    expect(paged.pages.slice(0, -1).every((p) => p.nextCursor !== null)).toBe(true);
    // The bracketed form names the same sections.
    expect((await explainAll({ section: '[RARITY]', limit: 100 })).annotations).toEqual(paged.annotations);
    // occurrence picks one of them; tokenIndex one token of it.
    const third = await explain({ section: 'rarity', occurrence: 2 });
    expect(third.annotations.map((a) => [a.section, a.occurrence, a.value])).toEqual([['RARITY', 2, '2']]);
    const second = await explain({ section: 'rarity', occurrence: 1, tokenIndex: 0 });
    expect(second.annotations.map((a) => a.value)).toEqual(['9']);
    expect((await explain({ section: 'rarity', occurrence: 9 })).annotations).toEqual([]);
    // Other duplicated sections too: both [upgrade item] occurrences.
    expect(onSection((await explain({ section: 'upgrade item' })).annotations, 'upgrade item').map((a) => a.occurrence)).toEqual([0, 1]);
  });

  it('dynamic records and separators (动态记录及分隔符)', async () => {
    const text = (await readText(SWORD)).text;
    // [world drop]: records of 2 inside groups split at the integer -1, each group skipping 1 token.
    // Tokens: 9 `-1` 100 300 | -1 | 9 200 500 | -1 → records (`-1`,100) and (200,500); the quoted `-1` is data.
    const drop = onSection((await explain({ section: 'world drop' })).annotations, 'world drop');
    expect(drop.map((a) => [a.tokenIndex, a.recordIndex, a.value, text.slice(a.range.start, a.range.end)])).toEqual([
      [1, 0, '-1', '`-1`'],
      [6, 1, '200', '200'],
    ]);
    expect(drop[1]?.reference).toMatchObject({ relation: '物品', id: '200', name: '药水', resolutionStatus: 'resolved' });
    // [level info]: the record width comes from token 0 (2), not from recordTokens (3).
    const level = onSection((await explain({ section: 'level info' })).annotations, 'level info');
    expect(level.map((a) => [a.tokenIndex, a.recordIndex, a.value])).toEqual([
      [2, 0, '20'],
      [4, 1, '40'],
    ]);
    // get shows the complete target; 0 and absent stay different.
    const dropDoc = await get({ documentId: drop[0]?.documentIds[0] });
    expect(dropDoc.resolvedDefinition.target).toMatchObject({ recordTokens: 2, index: 0, groupOffset: 1, standaloneValues: [-1], offset: null, tokensPerLineIndex: null });
    const levelDoc = await get({ documentId: level[0]?.documentIds[0] });
    expect(levelDoc.resolvedDefinition.target).toMatchObject({ recordTokens: 3, index: 1, offset: 1, tokensPerLineIndex: 0, groupOffset: null, contextIndex: null });
  });

  it('contextual relations (上下文关联)', async () => {
    const skill = onSection((await explain({ section: 'skill levelup' })).annotations, 'skill levelup');
    expect(skill.map((a) => [a.recordIndex, a.value, a.reference?.context, a.reference?.resolutionStatus, a.reference?.name ?? null, a.reference?.path ?? null])).toEqual([
      [0, '5', '[fighter]', 'resolved', '上挑', 'skill/fighter/upper.skl'],
      // The [mage] list does not exist: missing, not skill 5 of another job's list.
      [1, '5', '[mage]', 'missing', null, null],
      // No job in the record: the context cannot be determined.
      [2, '5', '', 'context_required', null, null],
    ]);
    // The title names the field; the skill's name is only in reference.name.
    expect(skill[0]?.title).toBe('技能');
    expect(skill[2]?.title).toBe('技能');
    // get names what a lookup needs: the context and the lists per context.
    const doc = await get({ documentId: skill[0]?.documentIds[0] });
    expect(doc.resolvedDefinition.target.contextIndex).toBe(0);
    expect(doc.relations.map((r) => [r.name, r.kind, r.contextRequired])).toEqual([['技能', 'contextual', true]]);
    expect(doc.relations[0]?.contextPaths).toEqual([
      { context: '[fighter]', listPath: 'skill/fighterskill.lst' },
      { context: '[mage]', listPath: 'skill/mageskill.lst' },
    ]);
    expect(names((await search({ pvfVersion: '110US', relation: '技能' })).items)).toEqual(['skill.levelup']);
  });

  it('missing references (缺失引用)', async () => {
    const out = await explainAll({ limit: 100 });
    // A rule reference whose id no list has: kept, with the rule title and no invented target.
    const upgrade = onSection(out.annotations, 'upgrade item');
    expect(upgrade.map((a) => [a.value, a.title, a.reference?.resolutionStatus, a.reference?.name ?? null, a.reference?.path ?? null])).toEqual([
      ['100', '升级材料', 'resolved', '苍穹之剑😀', SWORD],
      ['999', '升级材料', 'missing', null, null],
    ]);
    // An enum value the rules do not know is kept as unknown, not dropped.
    expect(out.annotations.find((a) => a.value === '7' && a.section === 'rarity')).toMatchObject({ unknownValue: true, title: '稀有度(用户)' });
    // A string-table key that is not there: 未定义, missing.
    const missingKey = out.annotations.find((a) => a.value === '<3::no_such_key>');
    expect(missingKey).toMatchObject({ type: 'placeholder', title: '未定义', origin: 'runtime' });
    expect(missingKey?.placeholder).toMatchObject({ table: 3, key: 'no_such_key', text: null, resolutionStatus: 'missing' });
    // A relation list row whose file is gone is kept as missing (the row for 100 resolves).
    const list = await explain({ filePath: 'equipment/equipment.lst' });
    expect(list.annotations.map((a) => [a.value, a.reference?.id, a.reference?.resolutionStatus])).toEqual([
      ['character/sword.equ', '100', 'resolved'],
      ['character/gone.equ', '101', 'missing'],
    ]);
    expect(list.annotations[1]?.summary).toMatch(/未找到关联文件/);
  });

  it('origin of generated annotations (自动生成标注来源)', async () => {
    // The implicit rule of a shared field no rule uses is a generated document, with its source.
    // Searched for rules alone it is its own hit; otherwise the field's hit names it.
    const weightRules = await search({ pvfVersion: '110US', section: 'weight', kinds: ['rule'] });
    const generated = weightRules.items.find((i) => i.kind === 'rule');
    expect(generated).toMatchObject({ ruleId: 'field:equ.weight', fieldId: 'equ.weight', origin: 'generated', layer: 'proto-base', source: 'builtin' });
    const weight = await search({ pvfVersion: '110US', section: 'weight' });
    expect(weight.items).toHaveLength(1);
    expect(weight.items[0]).toMatchObject({ kind: 'field', fieldId: 'equ.weight', origin: 'configured', implicitRuleId: 'field:equ.weight', implicitRuleDocumentId: generated?.documentId });
    // Only implicit field rules are marked generated; nothing else is.
    const all = await searchAll({ pvfVersion: 'all', status: 'all', limit: 100 });
    for (const i of all.items) expect(i.origin === 'generated', nameOf(i)).toBe(i.kind === 'rule' && (i.ruleId ?? '').startsWith('field:'));
    const doc = await get({ documentId: generated?.documentId, rulesRevision });
    expect(doc.document).toMatchObject({ origin: 'generated', ruleId: 'field:equ.weight', fieldId: 'equ.weight', source: 'builtin' });

    // explain: a generated rule's annotation names its generated document; runtime meaning has no rule ids.
    const out = await explainAll({ limit: 100 });
    expect(onSection(out.annotations, 'weight').map((a) => [a.origin ?? 'rule', a.ruleIds, a.documentIds])).toEqual([['rule', ['field:equ.weight'], [generated?.documentId]]]);
    const runtime = out.annotations.filter((a) => a.origin === 'runtime');
    expect(runtime.map((a) => [a.type, a.value])).toEqual([
      ['placeholder', '<3::sword_name>'],
      ['placeholder', '<3::no_such_key>'],
    ]);
    expect(runtime[0]).toMatchObject({ title: '苍穹之剑', placeholder: { text: '苍穹之剑', path: 'equipment/equipment.kor.str', resolutionStatus: 'resolved' } });
    for (const a of out.annotations) {
      if (a.origin === 'runtime') expect([a.ruleIds, a.documentIds, a.blocks]).toEqual([[], [], undefined]);
      else expect(a.documentIds.length).toBeGreaterThan(0);
    }
    // Automatic .lst row links are runtime too: a relation list and a link-only list.
    const list = await explain({ filePath: 'equipment/equipment.lst' });
    expect(list.annotations.every((a) => a.origin === 'runtime' && a.type === 'reference' && a.ruleIds.length === 0 && a.documentIds.length === 0)).toBe(true);
    const links = await explain({ filePath: 'etc/links.lst' });
    expect(links.annotations.map((a) => [a.origin ?? 'rule', a.type, a.title, a.pathLink?.path, a.ruleIds])).toEqual([['runtime', 'link', '', SWORD, []]]);
  });

  it('Chinese, emoji and CRLF positions (中文/emoji/CRLF 定位)', async () => {
    const onDisk = await readFile(path.join(root, SWORD), 'utf8');
    expect(onDisk).toContain('\r\n');
    const read = await readText(SWORD);
    expect(read.text).toBe(SWORD_LINES.join('\n'));
    const out = await explainAll({ limit: 100 });
    expect(out.pages[0]?.textRevision).toBe(read.textRevision);
    // Every range indexes the read_file text (UTF-16, CRLF counted once); every line/column agrees with it.
    for (const a of out.annotations) {
      expect(a.range.start).toBeLessThan(a.range.end);
      expect(a.range.end).toBeLessThanOrEqual(read.text.length);
      expect(a.start).toEqual(positionIn(read.text, a.range.start));
      expect(a.end).toEqual(positionIn(read.text, a.range.end));
    }
    // The name: after a tab on line 3; 4 CJK characters count 1 each, the emoji 2.
    const name = onSection(out.annotations, 'name')[0];
    expect(name).toMatchObject({ value: '苍穹之剑😀', start: { line: 3, column: 2 }, end: { line: 3, column: 10 } });
    expect(read.text.slice(name?.range.start, name?.range.end)).toBe('`苍穹之剑😀`');
    expect(name?.range.start).toBe('#PVF_File\n[name]\n\t'.length);
    // A token after an emoji on the same line.
    const after = out.annotations.find((a) => a.value === '<3::no_such_key>');
    expect(after?.start).toEqual({ line: 35, column: 23 });
    // Line filters use the same lines.
    const line35 = await explain({ startLine: 35, endLine: 35 });
    expect(line35.annotations.map((a) => a.value)).toEqual(['<3::sword_name>', '<3::no_such_key>']);
    const partial = (await callOk(conn.client, 'read_file', { workspaceId: 'main', filePath: SWORD, startLine: 35, endLine: 35 }, ReadFileOutputSchema)).out;
    expect(partial.text.slice((after?.range.start ?? 0) - partial.startOffset, (after?.range.end ?? 0) - partial.startOffset)).toBe('<3::no_such_key>');

    // Rewriting the file with LF line ends changes the workspace revision but not the text revision.
    const separate = await tempDir('mcp-protocol-crlf');
    const crlf = await openDirectoryWorkspace({ workspaceId: 'crlf', name: 'crlf', root: separate.dir });
    const other = await connect({ rules: createRulesHolder(bundle), workspaces: new Map([['crlf', crlf]]) });
    try {
      await writeFiles(separate.dir, { [SWORD]: SWORD_LINES.join('\r\n') });
      const before = await eventually(async () => {
        const r = await revisionOf(other.client, 'crlf');
        return (await callOk(other.client, 'list_files', { workspaceId: 'crlf', path: 'equipment/character' }, ListFilesOutputSchema)).out.entries.length === 1 ? r : undefined;
      }, 'the file to appear');
      const first = await explain({ workspaceId: 'crlf', limit: 100 }, other.client);
      await writeFiles(separate.dir, { [SWORD]: SWORD_LINES.join('\n') });
      const revision = await eventually(async () => {
        const r = await revisionOf(other.client, 'crlf');
        return r > before ? r : undefined;
      }, 'the revision to change');
      const second = await explain({ workspaceId: 'crlf', expectedRevision: revision, limit: 100 }, other.client);
      expect(second.revision).toBe(revision);
      expect(second.textRevision).toBe(first.textRevision);
      expect(second.annotations).toEqual(first.annotations);
    } finally {
      await other.close();
      await crlf.close();
      await separate.cleanup();
    }
  });

  it('failed hot reload of the rules (规则热重载失败)', async () => {
    const own = await tempDir('mcp-protocol-reload');
    const ownSnapshots = path.join(own.dir, 'snapshots');
    const first = await buildSnapshot(ownSnapshots, [layers.base, layers.user]);
    const holder = createRulesHolder(await loadCurrentBundle(ownSnapshots));
    const logs: string[] = [];
    const watcher = watchCurrentBundle({ snapshotsDir: ownSnapshots, holder, pollMs: 100, log: (level, scope, message) => void logs.push(`${level} [${scope}] ${message}`) });
    const ws = await openDirectoryWorkspace({ workspaceId: 'main', name: 'main', root, pvfVersion: '110US' });
    const other = await connect({ rules: holder, workspaces: new Map([['main', ws]]) });
    const info = async () => (await callOk(other.client, 'workspace_info', {}, WorkspaceInfoOutputSchema)).out;
    try {
      const page1 = await search({ pvfVersion: 'all', limit: 3 }, other.client);
      const explained1 = await explain({ limit: 3, rulesRevision: first }, other.client);
      expect(page1.nextCursor).not.toBeNull();
      expect(explained1.nextCursor).not.toBeNull();

      // A snapshot whose documents.json no longer matches its hash becomes current.
      const corrupt = path.join(ownSnapshots, 'deadbeefdeadbeefdead');
      await cp(path.join(ownSnapshots, first), corrupt, { recursive: true });
      const documents = path.join(corrupt, 'documents.json');
      await writeFile(documents, `${(await readFile(documents, 'utf8')).trimEnd()} \n`);
      await setCurrentRevision(ownSnapshots, 'deadbeefdeadbeefdead');

      const failed = await eventually(async () => {
        const out = await info();
        return out.rules.status === 'reload_failed' ? out : undefined;
      }, 'the reload to fail');
      // Still the old snapshot under its old revision, the failure shown and logged as a warning.
      expect(failed.rulesRevision).toBe(first);
      expect(failed.rules.lastReloadError).toMatch(/INVALID_BUNDLE/);
      expect(logs.join('\n')).toMatch(new RegExp(`warn \\[rules\\] reload failed; still serving rulesRevision ${first}`));
      // Every tool keeps answering from the old snapshot, old cursors included.
      const page2 = await search({ pvfVersion: 'all', limit: 3, cursor: page1.nextCursor }, other.client);
      expect(page2.rulesRevision).toBe(first);
      expect(page2.items.map((i) => i.documentId)).not.toContain(page1.items[0]?.documentId);
      const explained2 = await explain({ limit: 3, rulesRevision: first, cursor: explained1.nextCursor }, other.client);
      expect(explained2.rulesRevision).toBe(first);
      expect(explained2.annotations[0]).not.toEqual(explained1.annotations[0]);
      await get({ documentId: page1.items[0]?.documentId, rulesRevision: first }, other.client);
    } finally {
      watcher.close();
      await other.close();
      await ws.close();
      await own.cleanup();
    }
  });

  it('every kind of stale cursor (各类过期游标)', async () => {
    const own = await tempDir('mcp-protocol-stale');
    const ownRoot = path.join(own.dir, 'workspace');
    await writeFiles(ownRoot, protocolWorkspaceFiles());
    const second = await loadCurrentBundle(await (async () => {
      const dir = path.join(own.dir, 'second');
      await buildSnapshot(dir, [layers.base, layers.user, await writeExtraLayer(path.join(own.dir, 'extra'))]);
      return dir;
    })());
    expect(second.rulesRevision).not.toBe(rulesRevision);
    const holder = createRulesHolder(bundle);
    const ws = await openDirectoryWorkspace({ workspaceId: 'w', name: 'w', root: ownRoot, pvfVersion: '110US' });
    const other = await connect({ rules: holder, workspaces: new Map([['w', ws]]) });
    const c = other.client;
    const code = async (tool: string, args: Record<string, unknown>) => (await failing(c, tool, args)).code;
    try {
      const revision = await revisionOf(c, 'w');
      const explainArgs = { workspaceId: 'w', expectedRevision: revision, filePath: SWORD, limit: 2 };
      const searchCursor = (await search({ workspaceId: 'w', limit: 2 }, c)).nextCursor;
      const hugeId = (await search({ pvfVersion: 'all', section: 'code' }, c)).items[0]?.documentId;
      const rarityId = (await search({ pvfVersion: 'all', section: 'rarity', kinds: ['rule'], annotationTypes: ['enum'] }, c)).items[0]?.documentId;
      const valuesCursor = (await get({ documentId: hugeId, valuesLimit: 10 }, c)).valuesNextCursor;
      const explainCursor = (await explain(explainArgs, c)).nextCursor;
      const listCursor = (await callOk(c, 'list_files', { workspaceId: 'w', limit: 1 }, ListFilesOutputSchema)).out.nextCursor;
      for (const cursor of [searchCursor, valuesCursor, explainCursor, listCursor]) expect(cursor).toEqual(expect.any(String));

      // Changed filters or another query: INVALID_CURSOR.
      expect(await code('pvf_annotation_search', { workspaceId: 'w', limit: 2, query: '稀有度', cursor: searchCursor })).toBe('INVALID_CURSOR');
      expect(await code('pvf_annotation_search', { pvfVersion: '110US', limit: 2, cursor: searchCursor })).toBe('INVALID_CURSOR');
      expect(await code('pvf_annotation_search', { workspaceId: 'w', limit: 2, status: 'all', cursor: searchCursor })).toBe('INVALID_CURSOR');
      expect(await code('pvf_annotation_explain', { ...explainArgs, section: 'rarity', cursor: explainCursor })).toBe('INVALID_CURSOR');
      expect(await code('pvf_annotation_explain', { ...explainArgs, filePath: 'equipment/equipment.lst', cursor: explainCursor })).toBe('INVALID_CURSOR');
      expect(await code('pvf_annotation_get', { documentId: rarityId, valuesCursor })).toBe('INVALID_CURSOR');
      expect(await code('list_files', { workspaceId: 'w', path: 'equipment', limit: 1, cursor: listCursor })).toBe('INVALID_CURSOR');
      // A cursor of another tool: INVALID_CURSOR.
      expect(await code('pvf_annotation_explain', { ...explainArgs, cursor: searchCursor })).toBe('INVALID_CURSOR');
      expect(await code('pvf_annotation_search', { workspaceId: 'w', limit: 2, cursor: explainCursor })).toBe('INVALID_CURSOR');
      expect(await code('pvf_annotation_get', { documentId: hugeId, valuesLimit: 10, valuesCursor: listCursor })).toBe('INVALID_CURSOR');
      expect(await code('list_files', { workspaceId: 'w', limit: 1, cursor: valuesCursor })).toBe('INVALID_CURSOR');
      // The same cursors still work with their own request.
      await search({ workspaceId: 'w', limit: 2, cursor: searchCursor }, c);
      await explain({ ...explainArgs, cursor: explainCursor }, c);

      // A file changes: the workspace revision moves; explain and list_files cursors are STALE_WORKSPACE.
      await writeFile(path.join(ownRoot, SWORD), `${SWORD_LINES.join('\r\n')}[price]\r\n\t1\r\n`);
      const changed = await eventually(async () => {
        const r = await revisionOf(c, 'w');
        return r > revision ? r : undefined;
      }, 'the workspace revision to change');
      const staleExplain = await failing(c, 'pvf_annotation_explain', { ...explainArgs, expectedRevision: changed, cursor: explainCursor });
      expect(staleExplain).toEqual({ code: 'STALE_WORKSPACE', data: { revision: changed } });
      expect(await code('pvf_annotation_explain', { ...explainArgs, cursor: explainCursor })).toBe('STALE_WORKSPACE');
      expect(await code('list_files', { workspaceId: 'w', limit: 1, cursor: listCursor })).toBe('STALE_WORKSPACE');
      // The rules did not change, so search and get cursors still work.
      await search({ workspaceId: 'w', limit: 2, cursor: searchCursor }, c);
      await get({ documentId: hugeId, valuesLimit: 10, valuesCursor }, c);

      // The rules are swapped: search, get and explain cursors are STALE_RULES.
      const freshExplain = (await explain({ ...explainArgs, expectedRevision: changed }, c)).nextCursor;
      const freshList = (await callOk(c, 'list_files', { workspaceId: 'w', limit: 1 }, ListFilesOutputSchema)).out.nextCursor;
      holder.activate(second);
      expect(await code('pvf_annotation_search', { workspaceId: 'w', limit: 2, cursor: searchCursor })).toBe('STALE_RULES');
      expect(await code('pvf_annotation_get', { documentId: hugeId, valuesLimit: 10, valuesCursor })).toBe('STALE_RULES');
      expect(await failing(c, 'pvf_annotation_explain', { ...explainArgs, expectedRevision: changed, cursor: freshExplain })).toEqual({
        code: 'STALE_RULES',
        data: { rulesRevision: second.rulesRevision, cursorRulesRevision: rulesRevision },
      });
      expect(await code('pvf_annotation_get', { documentId: hugeId, rulesRevision })).toBe('STALE_RULES');
      // A folder listing does not depend on the rules.
      await callOk(c, 'list_files', { workspaceId: 'w', limit: 1, cursor: freshList }, ListFilesOutputSchema);
      // Starting over without a cursor works under the new snapshot.
      expect((await search({ workspaceId: 'w', limit: 2 }, c)).rulesRevision).toBe(second.rulesRevision);
      expect((await explain({ ...explainArgs, expectedRevision: changed }, c)).rulesRevision).toBe(second.rulesRevision);
    } finally {
      await other.close();
      await ws.close();
      await own.cleanup();
    }
  });
});
