/**
 * Validation and resolution of pvfdoc's `target.variableRecords` (docs/rule-layers.md "Format
 * extensions"): a section read as records whose width their own first token, or a count inside them,
 * decides. One problem per bad key, at its JSON path; the resolved target in the bundle.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadLayers } from '../../build/load-layers.js';
import { compiledBundle } from '../support/compiled-bundle.js';
import { problemAt, validateRules, writeRuleLayer } from '../support/rule-layer.js';
import { removeTempDirs } from '../support/temp-dirs.js';

type Json = Record<string, unknown>;

afterAll(removeTempDirs);

const ABILITY = { width: 3, widthByFirst: { '[SKILL_LEVEL]': 4 } };

function rule(target: Json = {}, annotation: Json = {}, id = 'r'): Json {
  return {
    id,
    match: { extensions: ['.equ'] },
    target: { kind: 'token', section: 'avatar select ability', index: 0, variableRecords: { ...ABILITY, notFirst: ['[SKILL_LEVEL]'] }, ...target },
    annotation: { title: '属性 {record}', type: 'text', ...annotation },
  };
}

describe('target.variableRecords: valid input', () => {
  it('accepts a column, a tail, first, a column only the wider records have, offset, contextIndex, when and topLevel', async () => {
    const problems = await validateRules([
      rule(),
      rule({ section: 'avatar type select', index: undefined, variableRecords: { width: 5, countAt: 4, tail: true } }, {}, 'tail'),
      rule({ index: 3, variableRecords: { ...ABILITY, first: ['[SKILL_LEVEL]'] } }, {}, 'wide'),
      rule({ offset: 1, contextIndex: 1, variableRecords: ABILITY }, { type: 'reference', relation: '技能' }, 'ctx'),
      rule({ when: [{ section: 'equipment type', values: ['[coat avatar]'] }] }, {}, 'when'),
      rule({ section: undefined, topLevel: true }, {}, 'top'),
    ]);
    // The relation of 'ctx' is unknown in this layer: that is the only problem.
    expect(problems.map((p) => p.path)).toEqual(['$.rules[3].annotation.relation']);
  });
});

describe('target.variableRecords: one problem per bad input', () => {
  const cases: [string, Json[], string, string][] = [
    ['on a section target', [rule({ kind: 'section', index: undefined })], '$.rules[0].target.variableRecords', 'rules[0].target.variableRecords 只允许用于 token 标注 — '],
    ['a width of 0', [rule({ variableRecords: { width: 0 } })], '$.rules[0].target.variableRecords.width', '.target.variableRecords.width 必须大于 0'],
    ['an empty widthByFirst', [rule({ variableRecords: { width: 3, widthByFirst: {} } })], '$.rules[0].target.variableRecords.widthByFirst', '.target.variableRecords.widthByFirst 需要 1 到 16 项'],
    ['a blank widthByFirst key', [rule({ variableRecords: { width: 3, widthByFirst: { ' ': 4 } } })], '$.rules[0].target.variableRecords.widthByFirst', '.target.variableRecords.widthByFirst 的键不能为空'],
    ['a widthByFirst width of 0', [rule({ variableRecords: { width: 3, widthByFirst: { '[A]': 0 } } })], '$.rules[0].target.variableRecords.widthByFirst["[A]"]', '.target.variableRecords.widthByFirst["[A]"] 必须大于 0'],
    ['a count column past a record', [rule({ variableRecords: { ...ABILITY, countAt: 3 } })], '$.rules[0].target.variableRecords.countAt', '.target.variableRecords.countAt 必须位于每种记录的宽度内'],
    ['a key column past the narrowest record', [rule({ variableRecords: { ...ABILITY, keyAt: 3 } })], '$.rules[0].target.variableRecords.keyAt', '.target.variableRecords.keyAt 必须位于每种记录的宽度内'],
    ['a negative key column', [rule({ variableRecords: { ...ABILITY, keyAt: -1 } })], '$.rules[0].target.variableRecords.keyAt', '.target.variableRecords.keyAt 必须位于每种记录的宽度内'],
    ['first and notFirst', [rule({ variableRecords: { ...ABILITY, first: ['[A]'], notFirst: ['[B]'] } })], '$.rules[0].target.variableRecords.notFirst', '.target.variableRecords.first 与 notFirst 不能同时使用'],
    ['an empty first', [rule({ variableRecords: { ...ABILITY, first: [] } })], '$.rules[0].target.variableRecords.first', '.target.variableRecords.first 至少需要一个值'],
    ['a tail without a count column', [rule({ index: undefined, variableRecords: { width: 5, tail: true } })], '$.rules[0].target.variableRecords.tail', '.target.variableRecords.tail 需要配合 countAt 使用'],
    ['a tail with an index', [rule({ variableRecords: { width: 5, countAt: 4, tail: true } })], '$.rules[0].target.index', '.target.variableRecords.tail 为 true 时不能配置 index'],
    ['no index and no tail', [rule({ index: undefined })], '$.rules[0].target.index', '.target.variableRecords 需要 index 或 tail: true'],
    ['an index past every record', [rule({ index: 4 })], '$.rules[0].target.index', 'target.index 4 is outside every record; use 0..3'],
    ['a contextIndex past a record', [rule({ contextIndex: 3 })], '$.rules[0].target.contextIndex', '.target.contextIndex 必须位于每种记录的宽度内'],
    ['with recordTokens', [rule({ recordTokens: 3 })], '$.rules[0].target.recordTokens', '.target.recordTokens 不能与 target.variableRecords 同时使用'],
    ['with countedGroups', [rule({ countedGroups: { widths: [3] } })], '$.rules[0].target.countedGroups', '.target.countedGroups 不能与 target.variableRecords 同时使用'],
    ['with columns', [rule({}, { columns: ['a', 'b', 'c'] })], '$.rules[0].annotation.columns', '.annotation.columns 不能与 target.variableRecords 同时使用'],
  ];

  it.each(cases)('%s', async (_name, rules, jsonPath, fragment) => {
    expect(await validateRules(rules)).toEqual([problemAt(jsonPath, fragment)]);
  });

  it('reports wrong shapes from the schema, at the key', async () => {
    const { problems } = await loadLayers([await writeRuleLayer([rule({ variableRecords: { width: '3' } }), rule({ variableRecords: { width: 3, size: 3 } }, {}, 'b')])]);
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.path)).toEqual(['$.rules[0].target.variableRecords.width', '$.rules[1].target.variableRecords']);
  });
});

describe('target.variableRecords: resolution', () => {
  it('stores widthByFirst as pairs with the absent parts null (keyAt 0), and null without variableRecords', async () => {
    const bundle = await compiledBundle([
      await writeRuleLayer([
        rule(),
        rule({ section: 'avatar type select', index: 1, variableRecords: { width: 5, countAt: 4 } }, {}, 'count'),
        rule({ section: 'reward int data', index: 0, variableRecords: { width: 2, keyAt: 1, widthByFirst: { '[job]': 5 } } }, {}, 'key'),
        rule({ variableRecords: undefined, recordTokens: 3 }, {}, 'plain'),
      ]),
    ]);
    const target = (id: string) => bundle.documents.find((d) => d.id === id)?.resolved.target.variableRecords;
    expect(target('r')).toEqual({ width: 3, keyAt: 0, widthByFirst: [['[SKILL_LEVEL]', 4]], countAt: null, first: null, notFirst: ['[SKILL_LEVEL]'], tail: false });
    expect(target('count')).toEqual({ width: 5, keyAt: 0, widthByFirst: [], countAt: 4, first: null, notFirst: null, tail: false });
    expect(target('key')).toEqual({ width: 2, keyAt: 1, widthByFirst: [['[job]', 5]], countAt: null, first: null, notFirst: null, tail: false });
    expect(target('plain')).toBeNull();
  });
});
