import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { encodeCursor } from '../../../runtime/bundle/cursor.js';
import { explainFile, EXPLAIN_TOOL, MAX_EXPLAIN_WARNINGS } from '../../../runtime/explain/explain-file.js';
import { ExplainOutputSchema, MAX_EXPLAIN_RESPONSE_BYTES, type ExplainInput, type ExplainOutput } from '../../../runtime/explain/explain-schema.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { BUILTIN_LAYER, caught, layerBundle, makeTempDir, openFolder, pollUntil, removeTempDirs, WORKSPACE_LAYER, type FileTree } from '../workspace/helpers.js';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

const SWORD = [
  '#PVF_File',
  '[name]',
  '\t<3::sword_name>',
  '[rarity]',
  '\t4',
  '[rarity]',
  '\t9',
  '[RARITY]',
  '\t2',
  '[item]',
  '\t100\t200\t999',
  '[skill data up]',
  '\t`[fighter]`\t5\t`[dungeon type]`\t`[level]`\t0\t`+`\t1',
  '\t`[mage]`\t5\t`[dungeon type]`\t`[level]`\t0\t`+`\t1',
  '\t``\t5\t`[dungeon type]`\t`[level]`\t0\t`+`\t1',
  '[stats]',
  '\t1\t2\t3',
  '[explain]',
  '\t`line one',
  'line two`',
  '[equipment part set]',
  '\t1\t`set/a.equ`',
  '[icon]',
  '\t`item/icon.img`\t7',
  '[grade]',
  '\t95',
  '',
].join('\n');

const FILES: FileTree = {
  'equipment/equipment.lst': '100\t`character/sword.equ`\n101\t`character/missing.equ`\n',
  'equipment/character/Sword.equ': SWORD,
  'equipment/set/A.equ': '[name]\n`Set A`\n',
  'stackable/stackable.lst': '200\t`potion.stk`\n',
  'stackable/potion.stk': '[name]\n`药水`\n',
  'skill/fighterskill.lst': '5\t`fighter/upper.skl`\n',
  'skill/fighter/upper.skl': '[name]\n`上挑`\n',
  'n_string.lst': '3\t`equipment/equipment.kor.str`\n',
  'equipment/equipment.kor.str': utf16le('sword_name>苍穹幕落\r\n'),
  'sprite/a.img': Uint8Array.from([1, 0, 2]),
  'etc/nul.equ': '[name]\u0000\n',
  'equipment/character/quoted.equ': '[name]\n`<3::sword_name>`\n',
  'etc/positions.equ': '[name]\r\n`😀中`\r\n\r\n[rarity]\r\n\t4\r\n',
};

let bundle: Bundle;
let workspace: Workspace;
const opened: Workspace[] = [];

beforeAll(async () => {
  bundle = await layerBundle(WORKSPACE_LAYER);
  ({ workspace } = await openFolder(FILES, { pvfVersion: '90US' }));
  opened.push(workspace);
});
afterAll(async () => {
  for (const w of opened) await w.close();
  removeTempDirs();
});

/** explain with the workspace's current revision; the output is checked against the schema. */
async function explain(input: Partial<ExplainInput> & { filePath: string }, ws: Workspace = workspace): Promise<ExplainOutput> {
  const view = await ws.view();
  const output = await explainFile({ bundle, workspace: ws, input: { workspaceId: ws.workspaceId, expectedRevision: view.revision, ...input } });
  expect(ExplainOutputSchema.parse(output)).toEqual(output);
  expect(Buffer.byteLength(JSON.stringify(output))).toBeLessThanOrEqual(MAX_EXPLAIN_RESPONSE_BYTES);
  return output;
}

/** Every page of a request. */
async function allPages(input: Partial<ExplainInput> & { filePath: string }, ws: Workspace = workspace): Promise<ExplainOutput[]> {
  const pages: ExplainOutput[] = [];
  let cursor: string | undefined;
  do {
    const page = await explain(cursor === undefined ? input : { ...input, cursor }, ws);
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && pages.length < 1000);
  return pages;
}

const SWORD_PATH = 'equipment/character/sword.equ';

describe('explainFile: output', () => {
  it('describes the file, revision, text revision and version context', async () => {
    const view = await workspace.view();
    const out = await explain({ filePath: 'EQUIPMENT/Character/sword.EQU', limit: 100 });
    expect(out).toMatchObject({
      schemaVersion: 3,
      contentSource: 'workspace',
      rulesRevision: bundle.rulesRevision,
      workspaceId: workspace.workspaceId,
      revision: view.revision,
      textRevision: view.readText('equipment/character/Sword.equ').textRevision,
      filePath: 'equipment/character/Sword.equ',
      pvfVersion: '90US',
      nextCursor: null,
      truncated: false,
    });
    expect(out.pathContext.map((e) => `${e.scopeKind}:${e.scopePath}:${e.ruleId}`)).toEqual([
      'file:equipment/character/Sword.equ:path.equipment',
      'directory:equipment/character:path.equipment',
      'directory:equipment:path.equipment',
    ]);
    // Sorted by start, then end.
    const starts = out.annotations.map((a) => a.range.start);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });

  it('resolves references, images, path links and enum labels', async () => {
    const out = await explain({ filePath: SWORD_PATH, limit: 100 });
    const item = out.annotations.filter((a) => a.section === 'item');
    expect(item.map((a) => [a.value, a.reference?.resolutionStatus, a.reference?.name, a.title])).toEqual([
      // The title is the rule's (the field), resolved or not; the name is only in reference.name.
      ['100', 'resolved', '苍穹幕落', '物品'],
      ['200', 'resolved', '药水', '物品'],
      // Missing references are kept, with the rule's title.
      ['999', 'missing', null, '物品'],
    ]);
    expect(out.annotations.find((a) => a.section === 'icon')?.image).toEqual({ path: 'item/icon.img', index: 7 });
    // How each value is written: ints, a backtick string, a bare placeholder word (the rule's item and
    // the runtime one); a section tag has none.
    expect(item.map((a) => a.valueType)).toEqual(['int', 'int', 'int']);
    expect(out.annotations.filter((a) => a.section === 'equipment part set').map((a) => [a.value, a.valueType])).toEqual([['set/a.equ', 'string']]);
    expect(out.annotations.filter((a) => a.section === 'name' && a.tokenIndex === 0).map((a) => [a.value, a.valueType])).toEqual([
      ['<3::sword_name>', 'word'],
      ['<3::sword_name>', 'word'],
    ]);
    for (const a of out.annotations) expect(a.valueType === null).toBe(a.value === null);
    expect(out.annotations.find((a) => a.section === 'equipment part set')?.pathLink).toEqual({
      root: 'equipment/',
      value: 'set/a.equ',
      path: 'equipment/set/A.equ',
      resolutionStatus: 'resolved',
    });
    const rarity = out.annotations.filter((a) => a.section?.toLowerCase() === 'rarity' && a.tokenIndex === 0);
    expect(rarity.map((a) => [a.value, a.valueLabel ?? null, a.unknownValue ?? false])).toEqual([
      ['4', '史诗', false],
      ['9', null, true],
      ['2', '稀有', false],
    ]);
  });

  it('contextual relation: resolved with a context, missing for an unknown one, context_required without one', async () => {
    const out = await explain({ filePath: SWORD_PATH, section: 'skill data up' });
    expect(out.annotations.map((a) => [a.reference?.context, a.reference?.resolutionStatus, a.title])).toEqual([
      ['[fighter]', 'resolved', '技能'],
      ['[mage]', 'missing', '技能'],
      ['', 'context_required', '技能'],
    ]);
  });

  it('runtime placeholder: origin runtime, empty ids, after the rule annotation on the same span', async () => {
    const out = await explain({ filePath: SWORD_PATH, section: 'name' });
    expect(out.annotations.map((a) => [a.origin ?? 'rule', a.type, a.title])).toEqual([
      ['rule', 'text', '名称'],
      ['runtime', 'placeholder', '苍穹幕落'],
    ]);
    const [rule, placeholder] = out.annotations;
    expect(placeholder?.range).toEqual(rule?.range);
    expect(placeholder?.blocks).toBeUndefined();
    expect(placeholder).toMatchObject({
      ruleIds: [],
      documentIds: [],
      section: 'name',
      occurrence: 0,
      tokenIndex: 0,
      value: '<3::sword_name>',
      placeholder: { table: 3, key: 'sword_name', text: '苍穹幕落', path: 'equipment/equipment.kor.str', fallback: false, resolutionStatus: 'resolved' },
    });
  });

  it('a placeholder written as a backtick string is one too (its value is read from its span)', async () => {
    const out = await explain({ filePath: 'equipment/character/quoted.equ', section: 'name' });
    const placeholder = out.annotations.find((a) => a.origin === 'runtime');
    expect(placeholder).toMatchObject({ type: 'placeholder', value: '<3::sword_name>', valueType: 'string', placeholder: { key: 'sword_name', text: '苍穹幕落' } });
  });

  it('unknown placeholder keys are 未定义 / missing; without n_string lists unsupported', async () => {
    const { workspace: ws } = await openFolder({ 'a.equ': '[name]\n<3::nope>\n', 'n_string.lst': '3\t`a.str`\n', 'a.str': utf16le('k>v') });
    const { workspace: none } = await openFolder({ 'a.equ': '[name]\n<3::nope>\n' });
    opened.push(ws, none);
    const missing = (await explain({ filePath: 'a.equ' }, ws)).annotations.find((a) => a.type === 'placeholder');
    expect(missing).toMatchObject({ title: '未定义', placeholder: { resolutionStatus: 'missing', text: null, path: null } });
    const unsupported = (await explain({ filePath: 'a.equ' }, none)).annotations.find((a) => a.type === 'placeholder');
    expect(unsupported?.placeholder?.resolutionStatus).toBe('unsupported');
  });

  it('a relation list gets runtime list-row references (missing rows kept); other .lst files get links', async () => {
    const list = await explain({ filePath: 'equipment/equipment.lst' });
    expect(list.annotations.map((a) => [a.origin ?? 'rule', a.type, a.value, a.title, a.reference?.resolutionStatus, a.reference?.relation])).toEqual([
      // List rows are titled with the relation's name, like a rule's field title.
      ['runtime', 'reference', 'character/sword.equ', '装备', 'resolved', '装备'],
      ['runtime', 'reference', 'character/missing.equ', '装备', 'missing', '装备'],
    ]);
    expect(list.annotations[0]).toMatchObject({ section: null, occurrence: null, tokenIndex: null, ruleIds: [], documentIds: [] });
    const links = await explain({ filePath: 'n_string.lst' });
    expect(links.annotations.map((a) => [a.type, a.value, a.pathLink?.path, a.title])).toEqual([['link', 'equipment/equipment.kor.str', 'equipment/equipment.kor.str', '']]);
  });

  it('a list that is one relation\'s own list and another\'s context list gets one item per row, from its own relation', async () => {
    // Builtin: itemshop.lst is 商店's list and NPC功能's list for [item shop]; both read id, path pairs.
    const builtin = await layerBundle(BUILTIN_LAYER);
    const { workspace: ws } = await openFolder({ 'itemshop/itemshop.lst': '11\t`weapon.shp`\n12\t`armor.shp`\n', 'itemshop/weapon.shp': '[name]\n\t`W`\n' });
    const view = await ws.view();
    const out = await explainFile({ bundle: builtin, workspace: ws, input: { workspaceId: ws.workspaceId, expectedRevision: view.revision, filePath: 'itemshop/itemshop.lst' } });
    const rows = out.annotations.filter((a) => a.origin === 'runtime');
    expect(rows.map((a) => [a.value, a.title, a.reference?.relation, a.reference?.context, a.reference?.resolutionStatus])).toEqual([
      ['weapon.shp', '商店', '商店', null, 'resolved'],
      ['armor.shp', '商店', '商店', null, 'missing'],
    ]);
  });

  it('Chinese, emoji and CRLF on disk: offsets of the LF text, UTF-16 columns', async () => {
    const out = await explain({ filePath: 'etc/positions.equ' });
    const name = out.annotations.find((a) => a.section === 'name');
    expect(name).toMatchObject({ value: '😀中', range: { start: 7, end: 12 }, start: { line: 2, column: 1 }, end: { line: 2, column: 6 } });
    const rarity = out.annotations.find((a) => a.section === 'rarity' && a.tokenIndex === 0);
    expect(rarity).toMatchObject({ value: '4', start: { line: 5, column: 2 }, end: { line: 5, column: 3 } });
    const view = await workspace.view();
    const text = view.readText('etc/positions.equ').text;
    expect(text.slice(name?.range.start, name?.range.end)).toBe('`😀中`');
  });

  it('version context: rules of the workspace version; unknown versions fall back to "" with a warning', async () => {
    const grade = (out: ExplainOutput) => out.annotations.some((a) => a.section === 'grade');
    expect(grade(await explain({ filePath: SWORD_PATH, section: 'grade' }))).toBe(false);
    const { workspace: v110 } = await openFolder({ 'a.equ': '[grade]\n95\n' }, { pvfVersion: '110US' });
    const { workspace: vOdd } = await openFolder({ 'a.equ': '[grade]\n95\n' }, { pvfVersion: '70KR' });
    opened.push(v110, vOdd);
    const out110 = await explain({ filePath: 'a.equ' }, v110);
    expect(out110.pvfVersion).toBe('110US');
    expect(grade(out110)).toBe(true);
    const odd = await explain({ filePath: 'a.equ' }, vOdd);
    expect(odd.pvfVersion).toBe('');
    expect(grade(odd)).toBe(false);
    expect(odd.warnings.map((w) => w.code)).toContain('UNKNOWN_PVF_VERSION');
  });
});

describe('explainFile: filters and paging', () => {
  it('duplicate sections: every occurrence is explained, over several pages', async () => {
    const pages = await allPages({ filePath: SWORD_PATH, section: '[Rarity]', limit: 2 });
    expect(pages).toHaveLength(3);
    expect(pages.slice(0, 2).every((p) => p.nextCursor !== null && !p.truncated)).toBe(true);
    expect(pages[2]?.nextCursor).toBeNull();
    const all = pages.flatMap((p) => p.annotations);
    expect(all.map((a) => `${a.section}#${a.occurrence}:${a.tokenIndex ?? 'tag'}`)).toEqual([
      'rarity#0:tag',
      'rarity#0:0',
      'rarity#1:tag',
      'rarity#1:0',
      'RARITY#2:tag',
      'RARITY#2:0',
    ]);
  });

  it('occurrence picks one of the same-name sections', async () => {
    const out = await explain({ filePath: SWORD_PATH, section: 'rarity', occurrence: 1 });
    expect(out.annotations.map((a) => [a.occurrence, a.tokenIndex, a.value])).toEqual([
      [1, null, null],
      [1, 0, '9'],
    ]);
  });

  it('tokenIndex keeps annotations on that token or on a range covering it', async () => {
    const item = await explain({ filePath: SWORD_PATH, section: 'item', occurrence: 0, tokenIndex: 1 });
    expect(item.annotations.map((a) => a.value)).toEqual(['200']);
    const stats = await explain({ filePath: SWORD_PATH, section: 'stats', occurrence: 0, tokenIndex: 2 });
    expect(stats.annotations.map((a) => [a.tokenIndex, a.lastTokenIndex])).toEqual([[0, 2]]);
    expect((await explain({ filePath: SWORD_PATH, section: 'stats', occurrence: 0, tokenIndex: 3 })).annotations).toEqual([]);
  });

  it('line ranges keep annotations that intersect them', async () => {
    const lines = (out: ExplainOutput) => out.annotations.map((a) => `${a.start.line}-${a.end.line}`);
    expect(lines(await explain({ filePath: SWORD_PATH, startLine: 4, endLine: 5 }))).toEqual(['4-4', '5-5']);
    // The two-line string of [explain] (lines 19–20) is found from its last line.
    const explainString = await explain({ filePath: SWORD_PATH, startLine: 20, endLine: 20 });
    expect(explainString.annotations).toEqual([]);
    const tag = await explain({ filePath: SWORD_PATH, startLine: 18, endLine: 18 });
    expect(tag.annotations.map((a) => a.title)).toEqual(['说明']);
    expect((await explain({ filePath: SWORD_PATH, startLine: 1000 })).annotations).toEqual([]);
    // [name] has no tag rule: its token (rule + runtime placeholder) is on line 3.
    expect(lines(await explain({ filePath: SWORD_PATH, endLine: 3 }))).toEqual(['3-3', '3-3']);
  });

  it('filters combine (section AND lines)', async () => {
    const out = await explain({ filePath: SWORD_PATH, section: 'rarity', startLine: 6, endLine: 7 });
    expect(out.annotations.map((a) => [a.occurrence, a.start.line])).toEqual([
      [1, 6],
      [1, 7],
    ]);
  });

  it('INVALID_ARGUMENT for inconsistent filters', async () => {
    const view = await workspace.view();
    const base = { workspaceId: workspace.workspaceId, expectedRevision: view.revision, filePath: SWORD_PATH };
    for (const input of [
      { ...base, occurrence: 0 },
      { ...base, tokenIndex: 0 },
      { ...base, section: 'rarity', tokenIndex: 0 },
      { ...base, startLine: 5, endLine: 4 },
      { ...base, section: '[]' },
      { ...base, filePath: '../secret.equ' },
    ]) {
      expect((await caught(() => explainFile({ bundle, workspace, input }))).code, JSON.stringify(input)).toBe('INVALID_ARGUMENT');
    }
  });

  it('cursors of another file, filter set or tool are INVALID_CURSOR; altered ones too', async () => {
    const first = await explain({ filePath: SWORD_PATH, section: 'rarity', limit: 1 });
    const cursor = first.nextCursor ?? '';
    expect(cursor).not.toBe('');
    const code = async (input: Partial<ExplainInput> & { filePath: string }) => (await caught(() => explain(input))).code;
    expect(await code({ filePath: 'etc/positions.equ', section: 'rarity', limit: 1, cursor })).toBe('INVALID_CURSOR');
    expect(await code({ filePath: SWORD_PATH, section: 'rarity', occurrence: 0, limit: 1, cursor })).toBe('INVALID_CURSOR');
    expect(await code({ filePath: SWORD_PATH, limit: 1, cursor })).toBe('INVALID_CURSOR');
    expect(await code({ filePath: SWORD_PATH, section: 'rarity', limit: 1, cursor: `${cursor.slice(0, -1)}${cursor.endsWith('a') ? 'b' : 'a'}` })).toBe('INVALID_CURSOR');
    const search = encodeCursor({ tool: 'pvf_annotation_search', rulesRevision: bundle.rulesRevision, binding: 'x', offset: 1 });
    expect(await code({ filePath: SWORD_PATH, section: 'rarity', cursor: search })).toBe('INVALID_CURSOR');
    // Same request, other spelling of the path and section: the cursor still fits; the limit may change.
    const next = await explain({ filePath: 'Equipment/Character/SWORD.equ', section: ' RARITY ', limit: 5, cursor });
    expect(next.annotations.map((a) => a.occurrence)).toEqual([0, 1, 1, 2, 2]);
  });

  it('rules revision: a stale rulesRevision or cursor is STALE_RULES', async () => {
    const error = await caught(() => explain({ filePath: SWORD_PATH, rulesRevision: 'other' }));
    expect(error.code).toBe('STALE_RULES');
    expect(error.data?.rulesRevision).toBe(bundle.rulesRevision);
    const old = encodeCursor({ tool: EXPLAIN_TOOL, rulesRevision: 'older', binding: 'a.b', offset: 1 });
    expect((await caught(() => explain({ filePath: SWORD_PATH, cursor: old }))).code).toBe('STALE_RULES');
    expect((await explain({ filePath: SWORD_PATH, rulesRevision: bundle.rulesRevision, limit: 1 })).annotations).toHaveLength(1);
  });
});

describe('explainFile: workspace state and errors', () => {
  it('expectedRevision other than the current revision is STALE_WORKSPACE with data.revision', async () => {
    const view = await workspace.view();
    const error = await caught(() => explainFile({ bundle, workspace, input: { workspaceId: workspace.workspaceId, expectedRevision: view.revision + 7, filePath: SWORD_PATH } }));
    expect(error.code).toBe('STALE_WORKSPACE');
    expect(error.data?.revision).toBe(view.revision);
  });

  it('a file changed between pages is STALE_WORKSPACE, also with the new revision and the old cursor', async () => {
    const { workspace: ws, root: wsRoot } = await openFolder({ 'a.equ': '[rarity]\n1\n[rarity]\n2\n' });
    opened.push(ws);
    const first = await explain({ filePath: 'a.equ', limit: 1 }, ws);
    expect(first.nextCursor).not.toBeNull();
    appendFileSync(path.join(wsRoot, 'a.equ'), '[rarity]\n3\n');
    const input = { workspaceId: ws.workspaceId, expectedRevision: first.revision, filePath: 'a.equ', limit: 1, cursor: first.nextCursor ?? '' };
    const error = await caught(() => explainFile({ bundle, workspace: ws, input }));
    expect(error.code).toBe('STALE_WORKSPACE');
    const current = await pollUntil(async () => {
      const view = await ws.view();
      return view.revision > first.revision ? view.revision : undefined;
    });
    expect(error.data?.revision).toBe(current);
    const again = await caught(() => explainFile({ bundle, workspace: ws, input: { ...input, expectedRevision: current } }));
    expect(again.code).toBe('STALE_WORKSPACE');
    expect(again.data?.revision).toBe(current);
    // Starting over works.
    const fresh = await explain({ filePath: 'a.equ', limit: 100 }, ws);
    expect(fresh.annotations.filter((a) => a.tokenIndex === 0).map((a) => a.value)).toEqual(['1', '2', '3']);
  });

  it('NOT_A_SCRIPT for string tables, images and files with NUL bytes', async () => {
    for (const filePath of ['equipment/equipment.kor.str', 'sprite/a.img', 'etc/nul.equ']) {
      expect((await caught(() => explain({ filePath }))).code, filePath).toBe('NOT_A_SCRIPT');
    }
  });

  it('FILE_NOT_FOUND for absent files and folders, with a hint to list_files', async () => {
    const error = await caught(() => explain({ filePath: 'equipment/nope.equ' }));
    expect(error.code).toBe('FILE_NOT_FOUND');
    expect(error.hint).toContain('list_files');
    expect((await caught(() => explain({ filePath: 'equipment/character' }))).message).toContain('folder');
  });

  it('WORKSPACE_NOT_FOUND for another workspace id; NO_ARCHIVE for a missing folder', async () => {
    expect((await caught(() => explainFile({ bundle, workspace, input: { workspaceId: 'other', expectedRevision: 1, filePath: SWORD_PATH } }))).code).toBe('WORKSPACE_NOT_FOUND');
    const missing = await openDirectoryWorkspace({ workspaceId: 'gone', name: 'gone', root: path.join(makeTempDir(), 'nope') });
    opened.push(missing);
    expect((await caught(() => explainFile({ bundle, workspace: missing, input: { workspaceId: 'gone', expectedRevision: 1, filePath: 'a.equ' } }))).code).toBe('NO_ARCHIVE');
  });

  it('binary junk in a script file: warnings, no crash', async () => {
    let seed = 12345;
    const junk = Buffer.alloc(64 * 1024);
    for (let i = 0; i < junk.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      junk[i] = 1 + ((seed >>> 16) % 255);
    }
    const { workspace: ws } = await openFolder({ 'junk.equ': Buffer.concat([Buffer.from('[rarity]\n4\n'), junk]) });
    opened.push(ws);
    const out = await explain({ filePath: 'junk.equ', limit: 100 }, ws);
    expect(out.warnings.map((w) => w.code)).toContain('INVALID_TEXT_ENCODING');
    expect(out.warnings.length).toBeLessThanOrEqual(MAX_EXPLAIN_WARNINGS);
    expect(out.annotations.find((a) => a.section === 'rarity' && a.tokenIndex === 0)?.valueLabel).toBe('史诗');
  });

  it('a 50 MB file is refused by its size with RESPONSE_TOO_LARGE', async () => {
    const dir = makeTempDir();
    writeFileSync(path.join(dir, 'huge.equ'), Buffer.alloc(50 * 1024 * 1024, '[name] `x`\n'));
    const ws = await openDirectoryWorkspace({ workspaceId: 'huge', name: 'huge', root: dir });
    opened.push(ws);
    const error = await caught(() => explainFile({ bundle, workspace: ws, input: { workspaceId: 'huge', expectedRevision: ws.info().revision, filePath: 'huge.equ' } }));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
  });

  it('byte budget: pages shrink to fit (truncated), and every annotation still comes once', async () => {
    const long = 'x'.repeat(20_000);
    const text = Array.from({ length: 30 }, (_, i) => `[name]\n\`${i}${long}\`\n`).join('');
    const { workspace: ws } = await openFolder({ 'big.equ': text });
    opened.push(ws);
    const pages = await allPages({ filePath: 'big.equ', limit: 20 }, ws);
    expect(pages[0]?.truncated).toBe(true);
    expect(pages[0]?.annotations.length).toBeLessThan(20);
    expect(pages[0]?.annotations.length).toBeGreaterThan(0);
    const values = pages.flatMap((p) => p.annotations.map((a) => Number.parseInt(a.value ?? '', 10)));
    expect(values).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('one annotation larger than the budget alone is RESPONSE_TOO_LARGE; a line range skips it', async () => {
    const { workspace: ws } = await openFolder({ 'one.equ': `[name]\n\`${'y'.repeat(MAX_EXPLAIN_RESPONSE_BYTES)}\`\n[rarity]\n4\n` });
    opened.push(ws);
    const error = await caught(() => explain({ filePath: 'one.equ' }, ws));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.data?.line).toBe(2);
    const rest = await explain({ filePath: 'one.equ', startLine: 3 }, ws);
    expect(rest.annotations.map((a) => a.section)).toEqual(['rarity', 'rarity']);
  });

  it('a referenced file that changes gives the new name after the revision bump (no stale cache)', async () => {
    const { workspace: ws, root: wsRoot } = await openFolder({ ...FILES });
    opened.push(ws);
    const first = await explain({ filePath: SWORD_PATH, section: 'item', limit: 2 }, ws);
    expect(first.annotations[1]?.reference?.name).toBe('药水');
    writeFileSync(path.join(wsRoot, 'stackable/potion.stk'), '[name]\n`新药水`\n');
    await pollUntil(async () => ((await ws.view()).revision > first.revision ? true : undefined));
    const again = await explain({ filePath: SWORD_PATH, section: 'item', limit: 2 }, ws);
    expect(again.annotations[1]?.reference?.name).toBe('新药水');
    expect(again.textRevision).toBe(first.textRevision);
    // The old cursor belongs to the old revision.
    const error = await caught(() => explain({ filePath: SWORD_PATH, section: 'item', limit: 2, cursor: first.nextCursor ?? '' }, ws));
    expect(error.code).toBe('STALE_WORKSPACE');
  });
});
