import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLayers } from '../../build/load-layers.js';
import type { Problem } from '../../build/problems.js';
import { resolveFieldBlocks } from '../../build/resolve-field-blocks.js';
import { validateLayers } from '../../build/validate-layers.js';

type Json = Record<string, unknown>;

interface LayerSpec {
  name?: string;
  manifest?: Json;
  fields?: Json[];
  rules?: Json[];
  relations?: Json;
  rendering?: Json[];
}

let root = '';
let counter = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pvfdoc-validate-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeLayer(spec: LayerSpec): Promise<string> {
  counter += 1;
  const dir = path.join(root, `layer-${counter}`);
  await mkdir(dir);
  const name = spec.name ?? `layer${counter}`;
  await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name, kind: 'user', ...spec.manifest }));
  if (spec.fields || spec.rules) {
    await writeFile(path.join(dir, 'annotations.json'), JSON.stringify({ version: 1, fields: spec.fields ?? [], rules: spec.rules ?? [] }));
  }
  if (spec.relations) await writeFile(path.join(dir, 'lists.json'), JSON.stringify({ version: 1, relations: spec.relations }));
  if (spec.rendering) await writeFile(path.join(dir, 'rendering.json'), JSON.stringify({ version: 1, rules: spec.rendering }));
  return dir;
}

async function validate(...specs: LayerSpec[]): Promise<Problem[]> {
  const dirs: string[] = [];
  for (const spec of specs) dirs.push(await writeLayer(spec));
  const { layers, problems } = await loadLayers(dirs);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  expect(layers).toHaveLength(specs.length);
  return validateLayers(layers);
}

const list = (listPath: string): Json => ({ listPath, idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' });

const RELATIONS: Json = {
  装备: list('equipment/equipment.lst'),
  道具: list('stackable/stackable.lst'),
  物品: { kind: 'union', relations: ['装备', '道具'] },
  技能: {
    kind: 'contextual',
    contextToken: 0,
    idToken: 0,
    pathToken: 1,
    recordTokens: 2,
    nameSection: 'name',
    contextPaths: { '[fighter]': 'skill/fighterskill.lst' },
  },
  远技能: {
    kind: 'contextual',
    contextToken: 3,
    idToken: 0,
    pathToken: 1,
    recordTokens: 2,
    nameSection: 'name',
    contextPaths: { '[fighter]': 'skill/fighterskill.lst' },
  },
};

/** A valid token rule; `target`/`annotation` replace keys of the defaults. */
function rule(target: Json = {}, annotation: Json = {}, extra: Json = {}): Json {
  return {
    id: 'r',
    match: { extensions: ['.equ'] },
    target: { kind: 'token', section: 'name', index: 0, ...target },
    annotation: { title: 't', type: 'text', ...annotation },
    ...extra,
  };
}

function without(object: Json, ...keys: string[]): Json {
  const copy = { ...object };
  for (const key of keys) delete copy[key];
  return copy;
}

function problem(pathInFile: string, fragment: string, file = 'annotations.json'): unknown {
  return expect.objectContaining({ severity: 'error', file, path: pathInFile, message: expect.stringContaining(fragment) });
}

describe('validateLayers: a valid layer', () => {
  it('reports nothing for valid rules, fields and relations', async () => {
    const problems = await validate({
      relations: RELATIONS,
      fields: [{ id: 'f', match: { extensions: ['.equ'] }, target: { kind: 'section', section: 'name' }, annotation: { title: 'x', type: 'text' } }],
      rules: [
        rule(),
        rule({ recordTokens: 3, index: 1, contextIndex: 0 }, { type: 'reference', relation: '技能' }, { id: 'ctx' }),
        rule({ recordTokens: 2, index: 1, imagePathToken: 0 }, { type: 'image', inlineImage: true }, { id: 'img' }),
        rule({ kind: 'path', section: 'ignored' }, {}, { id: 'p', match: { glob: 'etc/**/*.etc' } }),
        rule({ index: 1 }, { type: 'path', pathRoot: 'equipment/' }, { id: 'pr' }),
        rule({ recordTokens: 2, offset: 1, groupOffset: 1, standaloneValues: [-1] }, {}, { id: 'rep' }),
        { id: 'uses-field', field: 'f' },
        // pvfine's editor writes empty blocks for field rules; they must not replace the field's.
        { id: 'uses-field-2', field: 'f', match: {}, target: { kind: '' }, annotation: { title: '', type: '' } },
      ],
      rendering: [
        { id: 'file.lst', match: { extensions: ['.lst'] }, target: { kind: 'file' }, format: { tokensPerLine: 2 } },
        { id: 'drop', target: { kind: 'section', section: 'independent drop' }, format: { tokensPerLine: 17, nestedSections: ['list'] } },
      ],
    });
    expect(problems).toEqual([]);
  });
});

describe('validateLayers: rules (rule-format §1.10)', () => {
  const cases: [string, Json[], string, string][] = [
    ['an invalid pvfVersions entry', [rule({}, {}, { pvfVersions: ['90US', '100US'] })], '$.rules[0].pvfVersions[1]', 'rules[0].pvfVersions 包含无效版本 "100US"，只允许 90US、90CN、110US — '],
    ['a blank id', [rule({}, {}, { id: '  ' })], '$.rules[0].id', 'rules[0].id 不能为空 — '],
    ['a repeated id, naming the first one', [rule(), rule()], '$.rules[1].id', 'rules[1].id 重复: r — rule ids must be unique within a layer and $.rules[0] already uses "r"'],
    ['an extension without a leading dot', [rule({}, {}, { match: { extensions: ['.equ', 'stk'] } })], '$.rules[0].match.extensions[1]', 'rules[0].match.extensions 必须是以点开头的文件后缀 — '],
    ['an extension with a slash', [rule({}, {}, { match: { extensions: ['./equ'] } })], '$.rules[0].match.extensions[0]', 'rules[0].match.extensions 必须是以点开头的文件后缀'],
    ['an invalid glob with the reason', [rule({}, {}, { match: { glob: 'equipment/[a-' } })], '$.rules[0].match.glob', 'rules[0].match.glob 无效: syntax error in pattern: unclosed "[" class (add "]") in segment "[a-" — '],
    ['offset on a path target', [rule({ kind: 'path', offset: 1 })], '$.rules[0].target.offset', 'rules[0] 的 offset/tokensPerLineIndex 只允许用于 token 标注 — remove target.offset'],
    ['a non-text path target', [rule({ kind: 'path' }, { type: 'enum', values: { a: 'b' } })], '$.rules[0].annotation.type', 'rules[0] 的 path 标注只支持 text 类型 — '],
    ['standaloneValues on a section target', [rule({ kind: 'section', standaloneValues: [-1] })], '$.rules[0].target.standaloneValues', 'rules[0] 的 offset/tokensPerLineIndex 只允许用于 token 标注'],
    ['a blank section on a section target', [rule({ kind: 'section', section: ' ' })], '$.rules[0].target.section', 'rules[0].target.section 不能为空 — '],
    ['a non-text section target', [rule({ kind: 'section' }, { type: 'reference', relation: '装备' })], '$.rules[0].annotation.type', 'rules[0] 的 section 标注只支持 text 类型 — '],
    ['imagePathToken on a non-image rule', [rule({ imagePathToken: 1 })], '$.rules[0].target.imagePathToken', 'rules[0].target.imagePathToken 只允许用于 image 标注 — '],
    ['a blank section on a token target', [rule({ section: '' })], '$.rules[0].target.section', 'rules[0].target.section 不能为空 — set target.section'],
    ['a token target with neither index nor range', [rule({ index: undefined })], '$.rules[0].target.index', 'rules[0] 的 token 目标必须且只能配置 index 或 range — set exactly one of target.index or target.range'],
    ['a token target with both index and range', [rule({ range: { start: 0, endExclusive: 2 } })], '$.rules[0].target.range', 'rules[0] 的 token 目标必须且只能配置 index 或 range'],
    ['a negative index', [rule({ index: -1 })], '$.rules[0].target.index', 'rules[0].target.index 不能为负数 — '],
    ['a negative offset', [rule({ recordTokens: 2, offset: -1 })], '$.rules[0].target.offset', 'rules[0].target.offset 不能为负数 — '],
    ['a negative groupOffset', [rule({ recordTokens: 2, groupOffset: -1 })], '$.rules[0].target.groupOffset', 'rules[0].target.groupOffset 不能为负数 — '],
    ['a negative tokensPerLineIndex', [rule({ recordTokens: 2, tokensPerLineIndex: -1 })], '$.rules[0].target.tokensPerLineIndex', 'rules[0].target.tokensPerLineIndex 不能为负数 — '],
    ['a negative recordTokens', [rule({ recordTokens: -2 })], '$.rules[0].target.recordTokens', 'rules[0].target.recordTokens 不能为负数 — '],
    ['contextIndex without recordTokens', [rule({ contextIndex: 0 })], '$.rules[0].target.contextIndex', 'rules[0].target.contextIndex 需要同时配置 recordTokens — '],
    ['recordTokens without a single index', [rule({ index: undefined, recordTokens: 2, range: { start: 0, endExclusive: 1 } })], '$.rules[0].target.recordTokens', 'rules[0].target.recordTokens 需要配合单个 index 使用 — '],
    ['an index outside the record', [rule({ index: 2, recordTokens: 2 })], '$.rules[0].target.index', 'rules[0].target.index 必须小于 recordTokens — target.index 2 is outside a 2-token record; use 0..1'],
    ['a contextIndex outside the record', [rule({ recordTokens: 2, contextIndex: 2 })], '$.rules[0].target.contextIndex', 'rules[0].target.contextIndex 必须位于 recordTokens 范围内 — '],
    ['offset without a positive recordTokens', [rule({ offset: 1 })], '$.rules[0].target.recordTokens', 'rules[0].target.offset/tokensPerLineIndex 需要配置正数 recordTokens 作为回退值 — '],
    ['tokensPerLineIndex with a range', [rule({ index: undefined, range: { start: 0, endExclusive: 2 }, tokensPerLineIndex: 0 })], '$.rules[0].target.range', 'rules[0].target.offset/tokensPerLineIndex 需要配合单个 index 使用 — '],
    ['an empty range', [rule({ index: undefined, range: { start: 2, endExclusive: 2 } })], '$.rules[0].target.range', 'rules[0].target.range 必须满足 0 <= start < endExclusive — got start 2, endExclusive 2'],
    ['a range on a non-text rule', [rule({ index: undefined, range: { start: 0, endExclusive: 2 } }, { type: 'enum', values: { 1: 'a' } })], '$.rules[0].annotation.type', 'rules[0] 的 token 范围只支持 text 类型 — '],
    ['an image rule on a range', [rule({ index: undefined, range: { start: 0, endExclusive: 2 }, recordTokens: 2, imagePathToken: 0 }, { type: 'image' })], '$.rules[0].target.range', 'rules[0] 的 image 标注必须使用单个路径 token — '],
    ['an image rule without recordTokens', [rule({ index: 1, imagePathToken: 0 }, { type: 'image' })], '$.rules[0].target.recordTokens', 'rules[0] 的 image 标注必须配置正数 target.recordTokens — '],
    ['an image rule without imagePathToken', [rule({ index: 1, recordTokens: 2 }, { type: 'image' })], '$.rules[0].target.imagePathToken', 'rules[0] 的 image 标注必须配置 target.imagePathToken — '],
    ['an imagePathToken outside the record', [rule({ index: 1, recordTokens: 2, imagePathToken: 2 }, { type: 'image' })], '$.rules[0].target.imagePathToken', 'rules[0].target.imagePathToken 必须位于 recordTokens 范围内 — '],
    ['an imagePathToken equal to the index', [rule({ index: 1, recordTokens: 2, imagePathToken: 1 }, { type: 'image' })], '$.rules[0].target.imagePathToken', 'rules[0] 的 imagePathToken 不能与图片索引 token 相同 — '],
    ['contextIndex on an image rule', [rule({ index: 1, recordTokens: 2, imagePathToken: 0, contextIndex: 0 }, { type: 'image' })], '$.rules[0].target.contextIndex', 'rules[0] 的 image 标注不支持 contextIndex — '],
    ['an unknown target kind', [rule({ kind: 'file' })], '$.rules[0].target.kind', 'rules[0].target.kind 必须是 path、section 或 token — set target.kind to "path", "section" or "token" (got "file"'],
    ['a path annotation whose pathRoot leaves the archive', [rule({}, { type: 'path', pathRoot: 'equipment\\..\\..\\x' })], '$.rules[0].annotation.pathRoot', 'rules[0].annotation.pathRoot 必须是归档内的相对目录 — '],
    ['an absolute pathRoot', [rule({}, { type: 'path', pathRoot: '/equipment' })], '$.rules[0].annotation.pathRoot', 'rules[0].annotation.pathRoot 必须是归档内的相对目录'],
    ['an enum without values', [rule({}, { type: 'enum', values: {} })], '$.rules[0].annotation.values', 'rules[0].annotation.values 不能为空 — '],
    ['a reference to an unknown relation', [rule({}, { type: 'reference', relation: '不存在' })], '$.rules[0].annotation.relation', 'rules[0] 引用了不存在的 relation: 不存在 — define relation "不存在"'],
    ['a contextual reference without recordTokens', [rule({}, { type: 'reference', relation: '技能' })], '$.rules[0].target.recordTokens', 'rules[0] 的 contextual relation 需要配置 target.recordTokens — '],
    ['a contextual reference whose default context token is outside the record', [rule({ index: 1, recordTokens: 2 }, { type: 'reference', relation: '远技能' })], '$.rules[0].target.recordTokens', 'rules[0] 的 contextual relation 上下文 token 下标必须位于 target.recordTokens 范围内 — relation "远技能" reads the context from token 3'],
    ['an unknown annotation type', [rule({}, { type: 'link' })], '$.rules[0].annotation.type', 'rules[0].annotation.type 必须是 text、image、enum、reference 或 path — '],
    ['a missing annotation type', [rule({}, { type: undefined })], '$.rules[0].annotation.type', 'rules[0].annotation.type 必须是 text、image、enum、reference 或 path'],
    ['pathRoot on a non-path annotation', [rule({}, { pathRoot: 'equipment/' })], '$.rules[0].annotation.pathRoot', 'rules[0].annotation.pathRoot 只允许用于 path 标注 — '],
    ['inlineImage on a non-image annotation', [rule({}, { inlineImage: true })], '$.rules[0].annotation.inlineImage', 'rules[0].annotation.inlineImage 只允许用于 image 标注 — '],
    ['a reference to an unknown field', [{ id: 'x', field: 'nope' }], '$.rules[0].field', 'rules[0]: 引用了不存在的共享字段: nope — '],
  ];

  it.each(cases)('reports %s', async (_name, rules, jsonPath, fragment) => {
    const problems = await validate({ relations: RELATIONS, rules });
    expect(problems).toContainEqual(problem(jsonPath, fragment));
    for (const p of problems) expect(p.layer).toMatch(/^layer\d+$/);
  });

  it('reports a bad extension once per rule', async () => {
    const problems = await validate({ rules: [rule({}, {}, { match: { extensions: ['equ', 'stk', ''] } })] });
    expect(problems.filter((p) => p.message.includes('match.extensions'))).toHaveLength(1);
  });

  it('reports an unknown field once and skips the rule’s other checks', async () => {
    const problems = await validate({ rules: [{ id: 'x', field: 'nope', target: { kind: 'bogus' } }] });
    expect(problems).toEqual([problem('$.rules[0].field', 'rules[0]: 引用了不存在的共享字段: nope')]);
  });

  it('reports every problem of one rule in one run', async () => {
    const problems = await validate({
      rules: [rule({ section: '', index: -1, recordTokens: 2, imagePathToken: 5 }, { type: 'enum', inlineImage: true }, { match: { glob: '[' } })],
    });
    expect(problems.map((p) => p.path)).toEqual([
      '$.rules[0].match.glob',
      '$.rules[0].target.imagePathToken',
      '$.rules[0].target.section',
      '$.rules[0].target.index',
      '$.rules[0].annotation.values',
      '$.rules[0].annotation.inlineImage',
    ]);
  });
});

describe('validateLayers: rules that use a field (rule-format §1.9)', () => {
  const brokenField: Json = { id: 'f', target: { kind: 'token', section: '', index: 0 }, annotation: { title: 'x', type: 'text' } };

  it('reports a broken field block at the rule, saying it comes from the field', async () => {
    const problems = await validate({ fields: [brokenField], rules: [{ id: 'uses', field: 'f' }] });
    expect(problems).toContainEqual(problem('$.fields[0].target.section', 'fields[0].target.section 不能为空 — '));
    expect(problems).toContainEqual(problem('$.rules[0].target.section', 'rules[0].target.section 不能为空 — '));
    const atRule = problems.find((p) => p.path === '$.rules[0].target.section');
    expect(atRule?.message).toContain('(the target comes from field "f": fix the field, or give this rule its own target)');
  });

  it('checks the rule’s own block instead of the field’s when the rule supplies one', async () => {
    const problems = await validate({ fields: [brokenField], rules: [{ id: 'uses', field: 'f', target: { kind: 'token', section: 'name', index: 0 } }] });
    expect(problems.map((p) => p.path)).toEqual(['$.fields[0].target.section']);
  });

  it('names both blocks when a check reads a field target and a field annotation', async () => {
    const problems = await validate({
      fields: [{ id: 'f', target: { kind: 'section', section: 'name' }, annotation: { title: 'x', type: 'image' } }],
      rules: [{ id: 'uses', field: 'f' }],
    });
    const atRule = problems.find((p) => p.path === '$.rules[0].annotation.type');
    expect(atRule?.message).toContain('rules[0] 的 section 标注只支持 text 类型');
    expect(atRule?.message).toContain('the target and annotation come from field "f"');
  });

  it('does not mention the field for a block the rule supplies itself', async () => {
    const problems = await validate({
      fields: [{ id: 'f', target: { kind: 'section', section: 'name' }, annotation: { title: 'x', type: 'text' } }],
      rules: [{ id: 'uses', field: 'f', annotation: { title: 'y', type: 'enum' } }],
    });
    const values = problems.find((p) => p.path === '$.rules[0].annotation.values');
    expect(values?.message).not.toContain('from field');
    const sectionType = problems.find((p) => p.path === '$.rules[0].annotation.type');
    expect(sectionType?.message).toContain('the target comes from field "f"');
  });
});

describe('validateLayers: fields', () => {
  const valid: Json = { id: 'f', target: { kind: 'section', section: 'name' }, annotation: { title: 'x', type: 'text' } };
  const preview: Json = { provider: 'equ', role: 'name', group: 'basic', format: 'text', order: 1 };
  const cases: [string, Json[], string, string][] = [
    ['a blank field id', [{ ...valid, id: '' }], '$.fields[0].id', 'fields[0].id 不能为空 — '],
    ['a repeated field id, naming the first one', [valid, valid], '$.fields[1].id', 'fields[1].id 重复: f — field ids must be unique within a layer and $.fields[0] already uses "f"'],
    ['an invalid field pvfVersions entry', [{ ...valid, pvfVersions: ['90us'] }], '$.fields[0].pvfVersions[0]', 'fields[0].pvfVersions 包含无效版本 "90us"'],
    ['a rule check on a field', [{ ...valid, target: { kind: 'row' } }], '$.fields[0].target.kind', 'fields[0].target.kind 必须是 path、section 或 token'],
    ['a preview without a provider', [{ ...valid, preview: { ...preview, provider: ' ', providers: [''] } }], '$.fields[0].preview.provider', 'fields[0].preview.provider 不能为空 — '],
    ['a preview with a blank role', [{ ...valid, preview: without(preview, 'role') }], '$.fields[0].preview.role', 'fields[0].preview.role 不能为空 — '],
    ['a preview with a blank group', [{ ...valid, preview: { ...preview, group: '' } }], '$.fields[0].preview.group', 'fields[0].preview.group 不能为空 — '],
    ['a preview with a blank format', [{ ...valid, preview: { ...preview, format: '  ' } }], '$.fields[0].preview.format', 'fields[0].preview.format 不能为空 — '],
  ];
  it.each(cases)('reports %s', async (_name, fields, jsonPath, fragment) => {
    const problems = await validate({ fields });
    expect(problems).toContainEqual(problem(jsonPath, fragment));
  });

  it('accepts a preview that names its providers in the list form', async () => {
    expect(await validate({ fields: [{ ...valid, preview: { ...without(preview, 'provider'), providers: ['equ'] } }] })).toEqual([]);
  });
});

describe('validateLayers: relations (rule-format §1.10)', () => {
  const cases: [string, Json, string, string][] = [
    ['a blank relation name', { ' ': list('a.lst') }, '$.relations[" "]', 'relation 名称不能为空 — '],
    ['an unknown kind', { x: { ...list('a.lst'), kind: 'map' } }, '$.relations["x"].kind', 'relations.x.kind 必须是 list、contextual 或 union — '],
    ['a union without members', { u: { kind: 'union', relations: [] } }, '$.relations["u"].relations', 'relations.u.relations 不能为空 — '],
    ['a union with a blank member', { a: list('a.lst'), u: { kind: 'union', relations: ['a', ' '] } }, '$.relations["u"].relations[1]', 'relations.u.relations 包含无效关联类型 — remove the blank member'],
    ['a union that lists itself', { u: { kind: 'union', relations: ['u'] } }, '$.relations["u"].relations[0]', 'relations.u.relations 包含无效关联类型 — a union cannot list itself'],
    ['a list without listPath', { x: { ...list(''), listPath: ' ' } }, '$.relations["x"].listPath', 'relations.x.listPath 不能为空 — '],
    ['a negative token index', { x: { ...list('a.lst'), pathToken: -1 } }, '$.relations["x"].pathToken', 'relations.x 的 token 下标不能为负数 — '],
    ['a contextual relation without contextPaths', { x: { ...list(''), kind: 'contextual', contextPaths: {} } }, '$.relations["x"].contextPaths', 'relations.x.contextPaths 不能为空 — '],
    ['a contextual relation with a blank context path', { x: { ...list(''), kind: 'contextual', contextPaths: { '[a]': 'a.lst', '[b]': ' ' } } }, '$.relations["x"].contextPaths["[b]"]', 'relations.x.contextPaths 的键和值不能为空 — '],
    ['a contextual relation without an explicit recordTokens', { x: { ...without(list(''), 'recordTokens'), kind: 'contextual', contextPaths: { '[a]': 'a.lst' } } }, '$.relations["x"].recordTokens', 'relations.x.recordTokens 必须覆盖 idToken 和 pathToken — contextual relations need an explicit recordTokens'],
    ['a recordTokens that does not cover pathToken', { x: { ...list('a.lst'), recordTokens: 1 } }, '$.relations["x"].recordTokens', 'relations.x.recordTokens 必须覆盖 idToken 和 pathToken — '],
    ['a blank nameSection', { x: { ...list('a.lst'), nameSection: '' } }, '$.relations["x"].nameSection', 'relations.x.nameSection 不能为空 — '],
    ['a union member that no layer defines', { a: list('a.lst'), u: { kind: 'union', relations: ['a', 'b'] } }, '$.relations["u"].relations[1]', 'relations.u 引用了不存在的 relation: b — '],
    ['a union cycle', { a: { kind: 'union', relations: ['b'] }, b: { kind: 'union', relations: ['a'] } }, '$.relations["a"].relations', 'relations.a 存在循环引用 — the union reaches itself through its members (a → b → a)'],
  ];
  it.each(cases)('reports %s', async (_name, relations, jsonPath, fragment) => {
    const problems = await validate({ relations });
    expect(problems).toContainEqual(problem(jsonPath, fragment, 'lists.json'));
  });

  it('reports the recordTokens problem of a contextual relation once', async () => {
    const problems = await validate({ relations: { x: { ...list(''), kind: 'contextual', recordTokens: 1, contextPaths: { a: 'a.lst' } } } });
    expect(problems.filter((p) => p.path === '$.relations["x"].recordTokens')).toHaveLength(1);
  });

  it('reports relations kept in annotations.json at that file', async () => {
    const dir = path.join(root, 'embedded-relations');
    await mkdir(dir);
    await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name: 'embedded', kind: 'user' }));
    await writeFile(path.join(dir, 'annotations.json'), JSON.stringify({ version: 1, rules: [], relations: { x: { ...list('a.lst'), nameSection: '' } } }));
    const { layers } = await loadLayers([dir]);
    expect(validateLayers(layers)).toEqual([problem('$.relations["x"].nameSection', 'relations.x.nameSection 不能为空')]);
  });
});

describe('validateLayers: several layers', () => {
  const builtin: LayerSpec = {
    name: 'builtin',
    manifest: { kind: 'builtin', pvfVersions: ['90US', '90CN', '110US'] },
    relations: RELATIONS,
    fields: [{ id: 'equ.name', match: { extensions: ['.equ'] }, target: { kind: 'token', section: 'name', index: 0 }, annotation: { title: '名称', type: 'text' } }],
    rules: [rule()],
    rendering: [{ id: 'file.lst', match: { extensions: ['.lst'] }, target: { kind: 'file' }, format: { tokensPerLine: 2 } }],
  };

  it('lets a later layer reference relations and fields of an earlier one', async () => {
    const problems = await validate(builtin, {
      name: 'user',
      rules: [rule({}, { type: 'reference', relation: '物品' }, { id: 'u1' }), { id: 'u2', field: 'equ.name' }],
    });
    expect(problems).toEqual([]);
  });

  it('lets an earlier layer reference a field or relation only a later layer defines', async () => {
    const problems = await validate(
      { name: 'base', rules: [{ id: 'b', field: 'late' }, rule({}, { type: 'reference', relation: 'late' }, { id: 'c' })] },
      { name: 'late', relations: { late: list('late.lst') }, fields: [{ id: 'late', target: { kind: 'section', section: 's' }, annotation: { type: 'text' } }] },
    );
    expect(problems).toEqual([]);
  });

  it('treats the same id in a later layer as an override, not a duplicate', async () => {
    const problems = await validate(builtin, {
      name: 'user',
      relations: { 装备: list('list/equipment.lst') },
      fields: [{ id: 'equ.name', target: { kind: 'section', section: 'name' }, annotation: { title: 'n', type: 'text' } }],
      rules: [rule()],
      rendering: [{ id: 'file.lst', target: { kind: 'file' }, format: { tokensPerLine: 3 } }],
    });
    expect(problems).toEqual([]);
  });

  it('checks a reference against the effective relation of the latest layer', async () => {
    // The user layer turns 装备 into a contextual relation, so the builtin rule needs recordTokens.
    const problems = await validate(
      { ...builtin, rules: [rule({}, { type: 'reference', relation: '装备' })] },
      { name: 'user', relations: { 装备: { ...list(''), kind: 'contextual', contextPaths: { a: 'a.lst' } } } },
    );
    expect(problems).toEqual([
      expect.objectContaining({ layer: 'builtin', path: '$.rules[0].target.recordTokens', message: expect.stringContaining('rules[0] 的 contextual relation 需要配置 target.recordTokens') }),
    ]);
  });

  it('reports a union cycle closed by a later layer at that layer', async () => {
    const problems = await validate(
      { name: 'base', relations: { a: { kind: 'union', relations: ['b'] }, b: list('b.lst') } },
      { name: 'user', relations: { b: { kind: 'union', relations: ['a'] } } },
    );
    expect(problems).toEqual([
      expect.objectContaining({ layer: 'user', file: 'lists.json', path: '$.relations["b"].relations', message: expect.stringContaining('relations.b 存在循环引用 — the union reaches itself through its members (b → a → b)') }),
    ]);
  });

  it('reports a union member missing from every layer at the layer of the effective union', async () => {
    const problems = await validate(
      { name: 'base', relations: { a: list('a.lst'), u: { kind: 'union', relations: ['a'] } } },
      { name: 'user', relations: { u: { kind: 'union', relations: ['a', 'gone'] } } },
    );
    expect(problems).toEqual([expect.objectContaining({ layer: 'user', path: '$.relations["u"].relations[1]', message: expect.stringContaining('relations.u 引用了不存在的 relation: gone') })]);
  });

  it('reports disable entries that name no definition of an earlier layer', async () => {
    const problems = await validate(builtin, {
      name: 'user',
      manifest: { disable: ['rule:r', 'field:equ.name', 'relation:装备', 'rendering:file.lst', 'rule:nope', 'relation:mine', 'widget:x', 'rule:', 'plain'] },
      relations: { mine: list('m.lst') },
    });
    expect(problems).toEqual([
      { severity: 'error', layer: 'user', file: 'layer.json', path: '$.disable[4]', message: 'disable names rule:nope, which no earlier layer defines — check the id or remove the entry' },
      expect.objectContaining({ path: '$.disable[5]', message: expect.stringContaining('disable names relation:mine, which no earlier layer defines — check the id or remove the entry (only this layer defines it') }),
      expect.objectContaining({ path: '$.disable[6]', message: expect.stringContaining('disable entry "widget:x" is not an identity — write rule:<id>, field:<id>, relation:<name> or rendering:<id>') }),
      expect.objectContaining({ path: '$.disable[7]', message: expect.stringContaining('disable entry "rule:" is not an identity') }),
      expect.objectContaining({ path: '$.disable[8]', message: expect.stringContaining('disable entry "plain" is not an identity') }),
    ]);
  });

  it('reports a disable entry in the first layer, which has no earlier layer', async () => {
    const problems = await validate({ ...builtin, manifest: { disable: ['rule:r'] } });
    expect(problems).toEqual([expect.objectContaining({ layer: 'builtin', path: '$.disable[0]', message: expect.stringContaining('disable names rule:r, which no earlier layer defines') })]);
  });

  it('accepts versions declared by any layer.json and rejects others, listing the declared set', async () => {
    const problems = await validate(builtin, {
      name: 'user',
      manifest: { pvfVersions: ['120KR'] },
      rules: [rule({}, {}, { id: 'kr', pvfVersions: ['120KR', '90US'] }), rule({}, {}, { id: 'bad', pvfVersions: ['130JP'] })],
    });
    expect(problems).toEqual([problem('$.rules[1].pvfVersions[0]', 'rules[1].pvfVersions 包含无效版本 "130JP"，只允许 90US、90CN、110US、120KR — ')]);
  });

  it('uses 90US, 90CN and 110US when no layer declares versions', async () => {
    const problems = await validate({ rules: [rule({}, {}, { pvfVersions: ['110US', '120KR'] })] });
    expect(problems).toEqual([problem('$.rules[0].pvfVersions[1]', '只允许 90US、90CN、110US')]);
  });

  it('reports a blank or spaced layer.json version', async () => {
    const problems = await validate({ rules: [rule()], manifest: { pvfVersions: ['90US', ' ', '110 US'] } });
    expect(problems).toEqual([
      problem('$.pvfVersions[1]', 'pvfVersions entry " " is blank or contains whitespace — ', 'layer.json'),
      problem('$.pvfVersions[2]', 'pvfVersions entry "110 US" is blank or contains whitespace', 'layer.json'),
    ]);
  });

  it('reports all problems of all layers and files in one run', async () => {
    const problems = await validate(
      { ...builtin, relations: { ...RELATIONS, bad: { ...list('x.lst'), nameSection: '' } } },
      {
        name: 'user',
        manifest: { disable: ['field:nope'] },
        rules: [rule({ kind: 'nope' }, {}, { id: '' }), rule({}, { type: 'reference', relation: 'missing' }, { id: 'r2' })],
        rendering: [{ id: 'x', target: { kind: 'section' }, format: { tokensPerLine: 0 } }],
      },
    );
    expect(problems.map((p) => [p.layer, p.file, p.path])).toEqual([
      ['builtin', 'lists.json', '$.relations["bad"].nameSection'],
      ['user', 'layer.json', '$.disable[0]'],
      ['user', 'annotations.json', '$.rules[0].id'],
      ['user', 'annotations.json', '$.rules[0].target.kind'],
      ['user', 'annotations.json', '$.rules[1].annotation.relation'],
      ['user', 'rendering.json', '$.rules[0].target.section'],
      ['user', 'rendering.json', '$.rules[0].format.tokensPerLine'],
    ]);
  });
});

describe('validateLayers: rendering rules', () => {
  const valid: Json = { id: 'x', target: { kind: 'section', section: 'skill' }, format: { tokensPerLine: 7, offset: 1, tokensPerLineIndex: 0 } };
  const cases: [string, Json[], string, string][] = [
    ['a blank id', [{ ...valid, id: ' ' }], '$.rules[0].id', 'rules[0].id 不能为空 — '],
    ['a repeated id', [valid, { ...valid, id: ' x ' }], '$.rules[1].id', 'rules[1].id 重复:  x  — rendering rule ids must be unique within a layer and $.rules[0] already uses "x"'],
    ['an extension without a dot', [{ ...valid, match: { extensions: ['lst'] } }], '$.rules[0].match.extensions[0]', 'rules[0].match.extensions 必须是以点开头的文件后缀'],
    ['an invalid glob', [{ ...valid, match: { glob: 'a/[]' } }], '$.rules[0].match.glob', 'rules[0].match.glob 无效: syntax error in pattern'],
    ['an unknown target kind', [{ ...valid, target: { kind: 'token', section: 's' } }], '$.rules[0].target.kind', 'rules[0].target.kind 必须是 file 或 section — '],
    ['a blank section', [{ ...valid, target: { kind: 'section' } }], '$.rules[0].target.section', 'rules[0].target.section 不能为空 — '],
    ['a section on a file rule', [{ id: 'f', target: { kind: 'file', section: 's' }, format: { tokensPerLine: 2 } }], '$.rules[0].target.section', 'rules[0].target.section 仅允许用于 section 规则 — '],
    ['tokensPerLineIndex on a file rule', [{ id: 'f', target: { kind: 'file' }, format: { tokensPerLine: 2, tokensPerLineIndex: 0 } }], '$.rules[0].format.tokensPerLineIndex', 'rules[0].format.tokensPerLineIndex 只允许用于 section 规则 — '],
    ['nestedSections on a file rule', [{ id: 'f', target: { kind: 'file' }, format: { tokensPerLine: 2, nestedSections: ['list'] } }], '$.rules[0].format.nestedSections', 'rules[0].format.nestedSections 只允许用于 section 规则 — '],
    ['a zero tokensPerLine', [{ ...valid, format: { tokensPerLine: 0 } }], '$.rules[0].format.tokensPerLine', 'rules[0].format.tokensPerLine 必须是正数 — '],
    ['a missing format', [without(valid, 'format')], '$.rules[0].format.tokensPerLine', 'rules[0].format.tokensPerLine 必须是正数'],
    ['a negative offset', [{ ...valid, format: { tokensPerLine: 1, offset: -1 } }], '$.rules[0].format.offset', 'rules[0].format.offset 不能为负数 — '],
    ['a negative tokensPerLineIndex', [{ ...valid, format: { tokensPerLine: 1, tokensPerLineIndex: -1 } }], '$.rules[0].format.tokensPerLineIndex', 'rules[0].format.tokensPerLineIndex 不能为负数 — '],
  ];
  it.each(cases)('reports %s', async (_name, rendering, jsonPath, fragment) => {
    const problems = await validate({ rendering });
    expect(problems).toContainEqual(problem(jsonPath, fragment, 'rendering.json'));
  });
});

describe('validateLayers: document version', () => {
  it('leaves version != 1 to the loader, which reports it with its path', async () => {
    const dir = path.join(root, 'version-2');
    await mkdir(dir);
    await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name: 'v2' }));
    await writeFile(path.join(dir, 'lists.json'), JSON.stringify({ version: 2, relations: {} }));
    const { layers, problems } = await loadLayers([dir]);
    expect(problems).toContainEqual(problem('$.version', 'version 必须为 1，当前为 2', 'lists.json'));
    expect(validateLayers(layers)).toEqual([]);
  });
});

describe('resolveFieldBlocks', () => {
  const field = {
    id: 'f',
    match: { extensions: ['.equ'] },
    target: { kind: 'token', section: 'name', index: 0 },
    annotation: { title: '名称', type: 'text' },
  };

  it('takes every block from the field when the rule supplies none', () => {
    const resolved = resolveFieldBlocks({ id: 'r', field: 'f', match: { extensions: [] }, target: { kind: '' }, annotation: { title: '', values: {} } }, field);
    expect(resolved).toEqual({ match: field.match, target: field.target, annotation: field.annotation, fromField: { match: true, target: true, annotation: true } });
  });

  it('replaces a whole block when the rule sets any of its keys', () => {
    const resolved = resolveFieldBlocks(
      { id: 'r', field: 'f', match: { glob: 'equipment/**' }, target: { kind: 'section', section: 's' }, annotation: { inlineImage: true } },
      field,
    );
    expect(resolved.match).toEqual({ glob: 'equipment/**' });
    expect(resolved.target).toEqual({ kind: 'section', section: 's' });
    expect(resolved.annotation).toEqual({ inlineImage: true });
    expect(resolved.fromField).toEqual({ match: false, target: false, annotation: false });
  });

  it('counts each annotation key as supplying the block', () => {
    for (const annotation of [{ title: 'a' }, { type: 'text' }, { content: 'c' }, { values: { 1: 'a' } }, { relation: 'x' }, { pathRoot: 'p/' }]) {
      expect(resolveFieldBlocks({ id: 'r', annotation }, field).fromField.annotation).toBe(false);
    }
  });

  it('returns the rule’s own blocks, or empty ones, without a field', () => {
    expect(resolveFieldBlocks({ id: 'r', target: { kind: '' } }, undefined)).toEqual({
      match: {},
      target: { kind: '' },
      annotation: {},
      fromField: { match: false, target: false, annotation: false },
    });
  });
});
