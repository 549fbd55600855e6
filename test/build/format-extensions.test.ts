/**
 * Validation and resolution of pvfdoc's format extensions (docs/rule-layers.md "Format extensions"):
 * trust and sources, target.parent / target.notInside, annotation.sentinels and annotation.columns.
 * Each bad input gives exactly one problem, at its JSON path, in the Chinese + English style of
 * validate-layers.ts.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../build/compile-layers.js';
import { loadLayers } from '../../build/load-layers.js';
import type { Problem } from '../../build/problems.js';
import { validateLayers } from '../../build/validate-layers.js';
import { openBuiltBundle } from '../../runtime/bundle/load-bundle.js';

type Json = Record<string, unknown>;

let root = '';
let counter = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pvfdoc-extensions-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const RELATIONS: Json = { npc: { listPath: 'npc/npc.lst', idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' } };

/**
 * `sentinelsText` replaces the `"$SENTINELS"` string in the written JSON: JSON.stringify would already
 * have put integer-like keys first, and the test is about source order.
 */
async function writeLayer(rules: Json[], fields: Json[] = [], sentinelsText?: string): Promise<string> {
  counter += 1;
  const dir = path.join(root, `layer-${counter}`);
  await mkdir(dir);
  await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name: `layer${counter}`, kind: 'user' }));
  let text = JSON.stringify({ version: 1, fields, rules });
  if (sentinelsText !== undefined) text = text.replace('"$SENTINELS"', sentinelsText);
  await writeFile(path.join(dir, 'annotations.json'), text);
  await writeFile(path.join(dir, 'lists.json'), JSON.stringify({ version: 1, relations: RELATIONS }));
  return dir;
}

/** Semantic problems of one layer (its shape must be fine). */
async function validate(rules: Json[], fields: Json[] = []): Promise<Problem[]> {
  const { layers, problems } = await loadLayers([await writeLayer(rules, fields)]);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  return validateLayers(layers);
}

/** Shape problems the loader reports (wrong types). */
async function shapeProblems(rules: Json[]): Promise<Problem[]> {
  const { problems } = await loadLayers([await writeLayer(rules)]);
  return problems.filter((p) => p.severity === 'error');
}

function rule(target: Json = {}, annotation: Json = {}, extra: Json = {}): Json {
  return {
    id: 'r',
    match: { extensions: ['.skl'] },
    target: { kind: 'token', section: 'value', index: 0, ...target },
    annotation: { title: 't', type: 'text', ...annotation },
    ...extra,
  };
}

/** A token rule over repeated records with column titles and no index (valid as it stands). */
function columnsRule(target: Json = {}, annotation: Json = {}): Json {
  return rule({ index: undefined, recordTokens: 3, ...target }, { columns: ['a', 'b', ''], ...annotation });
}

function problem(jsonPath: string, fragment: string): unknown {
  return expect.objectContaining({ severity: 'error', file: 'annotations.json', path: jsonPath, message: expect.stringContaining(fragment) });
}

describe('format extensions: valid input', () => {
  it('accepts every key where it belongs', async () => {
    const problems = await validate(
      [
        rule({ parent: 'skill apply condition' }, {}, { trust: 'confirmed', sources: ['OFF/skill.skl'] }),
        rule({ notInside: ['skill apply condition', 'other'] }, {}, { id: 'ni', trust: 'unverified' }),
        rule({ kind: 'section', index: undefined, parent: 'a', notInside: ['b'] }, {}, { id: 'sec' }),
        rule({}, { type: 'reference', relation: 'npc', sentinels: { '-1': '无' } }, { id: 'ref' }),
        rule({}, { type: 'enum', values: { 1: '一' }, sentinels: { '-1': '不限', 0: '零' } }, { id: 'enum' }),
        { ...columnsRule(), id: 'cols' },
        { ...columnsRule({ recordTokens: 2, tokensPerLineIndex: 0, offset: 1, groupOffset: 1, standaloneValues: [-1] }), id: 'cols-dyn' },
        { id: 'uses-field', field: 'f', trust: 'likely' },
      ],
      [{ id: 'f', target: { kind: 'token', section: 'level', index: 0 }, annotation: { title: 'x', type: 'text' }, trust: 'confirmed', sources: ['a', 'b'] }],
    );
    expect(problems).toEqual([]);
  });
});

describe('format extensions: one problem per bad input', () => {
  const cases: [string, Json[], string, string][] = [
    ['a blank sources entry', [rule({}, {}, { sources: ['OFF/a.skl', ' '] })], '$.rules[0].sources[1]', 'rules[0].sources 不能包含空字符串 — '],
    ['a blank target.parent', [rule({ parent: '  ' })], '$.rules[0].target.parent', 'rules[0].target.parent 不能为空 — name the direct enclosing section'],
    ['a blank target.notInside entry', [rule({ notInside: ['x', ''] })], '$.rules[0].target.notInside[1]', 'rules[0].target.notInside 不能包含空名称 — '],
    ['target.parent on a path target', [rule({ kind: 'path', index: undefined, parent: 'x' })], '$.rules[0].target.parent', 'rules[0].target.parent 只允许用于 section 或 token 标注 — '],
    ['target.notInside on a path target', [rule({ kind: 'path', index: undefined, notInside: ['x'] })], '$.rules[0].target.notInside', 'rules[0].target.notInside 只允许用于 section 或 token 标注 — '],
    ['sentinels on a text annotation', [rule({}, { sentinels: { '-1': '无' } })], '$.rules[0].annotation.sentinels', 'rules[0].annotation.sentinels 只允许用于 enum 或 reference 标注 — '],
    ['sentinels on a path annotation', [rule({}, { type: 'path', sentinels: { '-1': '无' } })], '$.rules[0].annotation.sentinels', '(got "path")'],
    ['a blank sentinel key', [rule({}, { type: 'reference', relation: 'npc', sentinels: { ' ': '无' } })], '$.rules[0].annotation.sentinels[" "]', 'rules[0].annotation.sentinels 的键不能为空 — '],
    ['columns without records', [rule({ index: undefined }, { columns: ['a'] })], '$.rules[0].annotation.columns', 'rules[0].annotation.columns 需要配合重复记录使用 — '],
    ['columns with an index', [columnsRule({ index: 1 })], '$.rules[0].target.index', 'rules[0].annotation.columns 不能与 target.index 或 target.range 同时使用 — '],
    ['columns with a range', [columnsRule({ range: { start: 0, endExclusive: 2 } })], '$.rules[0].target.range', 'rules[0].annotation.columns 不能与 target.index 或 target.range 同时使用 — '],
    ['columns on a non-text type', [columnsRule({}, { type: 'reference', relation: 'npc' })], '$.rules[0].annotation.type', 'rules[0].annotation.columns 只支持 text 类型 — '],
    ['columns on a section target', [rule({ kind: 'section', index: undefined }, { columns: ['a'] })], '$.rules[0].annotation.columns', 'rules[0].annotation.columns 只允许用于 token 标注 — '],
    ['columns with tokensPerLineIndex but no recordTokens fallback', [columnsRule({ recordTokens: undefined, tokensPerLineIndex: 0 })], '$.rules[0].target.recordTokens', 'rules[0].target.offset/tokensPerLineIndex 需要配置正数 recordTokens 作为回退值'],
  ];

  it.each(cases)('%s', async (_name, rules, jsonPath, fragment) => {
    expect(await validate(rules)).toEqual([problem(jsonPath, fragment)]);
  });

  it('checks a field like a rule', async () => {
    const problems = await validate([], [{ id: 'f', target: { kind: 'token', section: 's', index: 0, parent: '' }, annotation: { title: 'x', type: 'text' }, sources: [''] }]);
    expect(problems).toEqual([problem('$.fields[0].sources[0]', 'fields[0].sources 不能包含空字符串'), problem('$.fields[0].target.parent', 'fields[0].target.parent 不能为空')]);
  });

  it('names the field when a rule inherits a bad block from it', async () => {
    const problems = await validate(
      [{ id: 'uses', field: 'f' }],
      [{ id: 'f', target: { kind: 'token', section: 's', index: 0 }, annotation: { title: 'x', type: 'text', sentinels: { 1: 'a' } } }],
    );
    expect(problems).toContainEqual(problem('$.rules[0].annotation.sentinels', 'comes from field "f"'));
  });

  it('reports wrong types from the schema, at the key', async () => {
    const cases: [Json, string, string][] = [
      [rule({}, {}, { trust: 'sure' }), '$.rules[0].trust', 'expected "confirmed", "likely" or "unverified"'],
      [rule({}, {}, { sources: 'OFF/a.skl' }), '$.rules[0].sources', 'expected an array'],
      [rule({ parent: 3 }), '$.rules[0].target.parent', 'expected a string'],
      [rule({ notInside: 'x' }), '$.rules[0].target.notInside', 'expected an array'],
      [rule({}, { type: 'enum', values: { 1: 'a' }, sentinels: { '-1': 5 } }), '$.rules[0].annotation.sentinels["-1"]', 'expected a string'],
      [rule({}, { columns: [1] }), '$.rules[0].annotation.columns[0]', 'expected a string'],
    ];
    for (const [bad, jsonPath, fragment] of cases) {
      expect(await shapeProblems([bad]), jsonPath).toEqual([problem(jsonPath, fragment)]);
    }
  });
});

describe('format extensions: resolution', () => {
  async function bundleOf(rules: Json[], fields: Json[] = [], sentinelsText?: string) {
    const result = await compileLayers([await writeLayer(rules, fields, sentinelsText)]);
    if (!result.ok) throw new Error(JSON.stringify(result.problems, null, 2));
    return openBuiltBundle(result.bundle.files);
  }
  const field: Json = { id: 'f', target: { kind: 'token', section: 'value', index: 0 }, annotation: { title: 't', type: 'text' }, trust: 'confirmed', sources: ['A', 'B'] };
  const stateOfField = (bundle: Awaited<ReturnType<typeof bundleOf>>) => bundle.documents.find((d) => d.id === 'field:f')?.versions['']?.state;

  it('a rule that differs from a field only in parent or notInside does not cover it', async () => {
    expect(stateOfField(await bundleOf([rule({}, {}, { match: {} })], [field]))).toBe('suppressed');
    expect(stateOfField(await bundleOf([rule({ parent: 'x' }, {}, { match: {} })], [field]))).toBe('effective');
    expect(stateOfField(await bundleOf([rule({ notInside: ['x'] }, {}, { match: {} })], [field]))).toBe('effective');
    // Names compare case-insensitively, notInside as a set.
    const scoped: Json = { ...field, target: { kind: 'token', section: 'value', index: 0, parent: 'X', notInside: ['b', 'a'] } };
    expect(stateOfField(await bundleOf([rule({ parent: 'x', notInside: ['A', 'B'] }, {}, { match: {} })], [scoped]))).toBe('suppressed');
  });

  it('carries trust, sources and the new keys into the bundle; implicit and field-using rules inherit trust', async () => {
    const bundle = await bundleOf(
      [
        rule({ parent: 'p', notInside: ['q'] }, { type: 'enum', values: { 1: 'a' }, sentinels: '$SENTINELS' }, { id: 'own', trust: 'likely', sources: ['S'] }),
        { id: 'uses', field: 'f' },
        { ...columnsRule(), id: 'cols' },
      ],
      [field],
      '{"10": "十", "-1": "无", "2": "二"}',
    );
    const doc = (id: string) => bundle.documents.find((d) => d.id === id && d.kind === 'rule');
    expect(doc('own')).toMatchObject({ trust: 'likely', sources: ['S'] });
    expect(doc('own')?.resolved.target).toMatchObject({ parent: 'p', notInside: ['q'] });
    // Source order, as for values (a JavaScript object would put "2" and "10" first).
    expect(doc('own')?.resolved.annotation.sentinels).toEqual([['10', '十'], ['-1', '无'], ['2', '二']]);
    expect(doc('uses')).toMatchObject({ trust: 'confirmed', sources: ['A', 'B'] });
    expect(doc('field:f')).toMatchObject({ trust: 'confirmed', sources: ['A', 'B'] });
    expect(doc('cols')).toMatchObject({ trust: null, sources: [] });
    expect(doc('cols')?.resolved.annotation.columns).toEqual(['a', 'b', '']);
    expect(doc('cols')?.resolved.target).toMatchObject({ parent: null, notInside: null, index: null });
  });
});
