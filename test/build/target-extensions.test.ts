/**
 * Validation and resolution of pvfdoc's target extensions `target.topLevel` and
 * `target.sectionPattern` (docs/rule-layers.md "Format extensions"): one problem per bad key, at its
 * JSON path, in the Chinese + English style of validate-layers.ts; the resolved target in the bundle.
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
import { searchDocuments } from '../../runtime/search/search-documents.js';

type Json = Record<string, unknown>;

let root = '';
let counter = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pvfdoc-target-ext-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeLayer(rules: Json[], fields: Json[] = []): Promise<string> {
  counter += 1;
  const dir = path.join(root, `layer-${counter}`);
  await mkdir(dir);
  await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name: `layer${counter}`, kind: 'user' }));
  await writeFile(path.join(dir, 'annotations.json'), JSON.stringify({ version: 1, fields, rules }));
  return dir;
}

async function validate(rules: Json[], fields: Json[] = []): Promise<Problem[]> {
  const { layers, problems } = await loadLayers([await writeLayer(rules, fields)]);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  return validateLayers(layers);
}

function rule(target: Json = {}, annotation: Json = {}, extra: Json = {}): Json {
  return {
    id: 'r',
    match: { extensions: ['.lst'] },
    target: { kind: 'token', topLevel: true, index: 0, recordTokens: 2, ...target },
    annotation: { title: 't', type: 'text', ...annotation },
    ...extra,
  };
}

/** A rule addressing sections by pattern (valid as it stands). */
function patternRule(target: Json = {}): Json {
  return rule({ topLevel: undefined, recordTokens: undefined, sectionPattern: 'FRAME[0-9][0-9][0-9]', ...target });
}

function problem(jsonPath: string, fragment: string): unknown {
  return expect.objectContaining({ severity: 'error', file: 'annotations.json', path: jsonPath, message: expect.stringContaining(fragment) });
}

describe('target extensions: valid input', () => {
  it('accepts topLevel on token targets and sectionPattern on section and token targets', async () => {
    const problems = await validate(
      [
        rule(),
        rule({ index: undefined, recordTokens: undefined, range: { start: 0, endExclusive: 3 } }, {}, { id: 'range' }),
        rule({ index: undefined }, { columns: ['id', 'path'] }, { id: 'cols' }),
        rule({ index: 1 }, { type: 'path' }, { id: 'path' }),
        { ...patternRule(), id: 'pattern-token' },
        { ...patternRule({ kind: 'section', index: undefined }), id: 'pattern-section' },
        { ...patternRule({ sectionPattern: '*delay', parent: 'group', notInside: ['x'] }), id: 'pattern-scoped' },
        { ...rule({ topLevel: false, section: 'name' }), id: 'false-is-absent' },
        { id: 'uses-field', field: 'f' },
      ],
      [{ id: 'f', target: { kind: 'token', topLevel: true, index: 0 }, annotation: { title: 'x', type: 'text' } }],
    );
    expect(problems).toEqual([]);
  });
});

describe('target extensions: one problem per bad input', () => {
  const cases: [string, Json[], string, string][] = [
    ['topLevel with a section', [rule({ section: 'name' })], '$.rules[0].target.section', 'rules[0].target.topLevel 不能与 target.section 或 target.sectionPattern 同时使用 — '],
    ['topLevel with a blank section', [rule({ section: '' })], '$.rules[0].target.section', 'target.topLevel 不能与 target.section'],
    ['topLevel with a sectionPattern', [rule({ sectionPattern: 'a*' })], '$.rules[0].target.sectionPattern', 'target.topLevel 不能与 target.section 或 target.sectionPattern'],
    ['topLevel with parent', [rule({ parent: 'x' })], '$.rules[0].target.parent', 'rules[0].target.topLevel 不能与 target.parent、target.notInside 或 target.after 同时使用 — '],
    ['topLevel with notInside', [rule({ notInside: ['x'] })], '$.rules[0].target.notInside', 'target.topLevel 不能与 target.parent、target.notInside 或 target.after'],
    ['topLevel on a section target', [rule({ kind: 'section', index: undefined, recordTokens: undefined })], '$.rules[0].target.topLevel', 'rules[0].target.topLevel 只允许用于 token 标注 — '],
    ['topLevel on a path target', [rule({ kind: 'path', index: undefined, recordTokens: undefined })], '$.rules[0].target.topLevel', 'rules[0].target.topLevel 只允许用于 token 标注'],
    ['topLevel still needs index or range', [rule({ index: undefined, recordTokens: undefined })], '$.rules[0].target.index', 'token 目标必须且只能配置 index 或 range'],
    ['section and sectionPattern', [patternRule({ section: 'FRAME000' })], '$.rules[0].target.sectionPattern', 'rules[0].target.section 与 target.sectionPattern 只能配置一个 — '],
    ['a blank sectionPattern', [patternRule({ sectionPattern: ' ' })], '$.rules[0].target.sectionPattern', 'rules[0].target.sectionPattern 不能为空 — '],
    ['an invalid sectionPattern', [patternRule({ sectionPattern: 'FRAME[0-9' })], '$.rules[0].target.sectionPattern', 'rules[0].target.sectionPattern 无效: syntax error in pattern: unclosed "[" class'],
    ['a sectionPattern with a slash', [patternRule({ sectionPattern: 'a/b' })], '$.rules[0].target.sectionPattern', 'target.sectionPattern 无效: a section pattern is one name'],
    ['sectionPattern on a path target', [patternRule({ kind: 'path', index: undefined })], '$.rules[0].target.sectionPattern', 'rules[0].target.sectionPattern 只允许用于 section 或 token 标注 — '],
  ];

  it.each(cases)('%s', async (_name, rules, jsonPath, fragment) => {
    expect(await validate(rules)).toEqual([problem(jsonPath, fragment)]);
  });

  it('warns about a pattern that fits ordinary section names (search would list it for every one), and builds', async () => {
    const problems = await validate([patternRule({ kind: 'section', index: undefined, sectionPattern: '[a-z]*', parent: 'group' })]);
    expect(problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: '$.rules[0].target.sectionPattern',
        message: expect.stringContaining('rules[0].target.sectionPattern "[a-z]*" 也匹配 [name]、[rarity]、[attack info]、[level info]、[x] 这类普通标签'),
      }),
    ]);
    expect(await validate([patternRule({ sectionPattern: '*delay' })])).toEqual([]);
  });

  it('a blank section without topLevel or sectionPattern is still an error', async () => {
    expect(await validate([rule({ topLevel: undefined, recordTokens: undefined })])).toEqual([problem('$.rules[0].target.section', 'target.section 不能为空')]);
  });

  it('reports a wrong type from the schema, at the key', async () => {
    const { problems } = await loadLayers([await writeLayer([rule({ topLevel: 'yes' }), patternRule({ sectionPattern: 3 })])]);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([
      problem('$.rules[0].target.topLevel', 'expected true or false'),
      problem('$.rules[1].target.sectionPattern', 'expected a string'),
    ]);
  });
});

describe('target extensions: resolution', () => {
  async function bundleOf(rules: Json[], fields: Json[] = []) {
    const result = await compileLayers([await writeLayer(rules, fields)]);
    if (!result.ok) throw new Error(JSON.stringify(result.problems, null, 2));
    return openBuiltBundle(result.bundle.files);
  }

  it('stores topLevel (false when absent) and sectionPattern (null when absent) on the target; the pattern shows as the section', async () => {
    const bundle = await bundleOf([rule(), { ...patternRule({ kind: 'section', index: undefined }), id: 'frames' }, { ...rule({ topLevel: undefined, section: 'name' }), id: 'plain' }]);
    const doc = (id: string) => bundle.documents.find((d) => d.id === id);
    expect(doc('r')?.resolved.target).toMatchObject({ topLevel: true, section: null, sectionPattern: null, index: 0, recordTokens: 2 });
    expect(doc('r')?.section).toBeNull();
    expect(doc('frames')?.resolved.target).toMatchObject({ topLevel: false, section: null, sectionPattern: 'FRAME[0-9][0-9][0-9]' });
    expect(doc('frames')?.section).toBe('FRAME[0-9][0-9][0-9]');
    expect(doc('plain')?.resolved.target).toMatchObject({ topLevel: false, sectionPattern: null, section: 'name' });
  });

  it('search: the section filter finds a pattern rule by any name it fits; the pattern text is searchable', async () => {
    const bundle = await bundleOf([
      { ...patternRule({ kind: 'section', index: undefined }), id: 'frames', match: { extensions: ['.ani'] }, annotation: { title: '帧', type: 'text' } },
      { ...rule({ topLevel: undefined, recordTokens: undefined, section: 'frame max' }), id: 'max', match: { extensions: ['.ani'] } },
    ]);
    const ids = (input: Parameters<typeof searchDocuments>[1]) => searchDocuments(bundle, { pvfVersion: 'all', ...input }).items.map((i) => i.ruleId);
    expect(ids({ section: '[FRAME012]' })).toEqual(['frames']);
    expect(ids({ section: 'frame max' })).toEqual(['max']);
    expect(ids({ section: 'FRAME1000' })).toEqual([]);
    expect(ids({ query: 'frame[0-9]' })).toContain('frames');
  });

  it('a rule differing from a field only in topLevel or sectionPattern does not cover it', async () => {
    const field: Json = { id: 'f', target: { kind: 'token', section: 'name', index: 0 }, annotation: { title: 't', type: 'text' } };
    const state = async (target: Json) =>
      (await bundleOf([{ id: 'x', target: { kind: 'token', index: 0, ...target }, annotation: { title: 't', type: 'text' } }], [field])).documents.find((d) => d.id === 'field:f')
        ?.versions['']?.state;
    expect(await state({ section: 'name' })).toBe('suppressed');
    expect(await state({ sectionPattern: 'name' })).toBe('effective');
  });
});
