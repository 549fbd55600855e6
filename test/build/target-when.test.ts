/**
 * Validation and resolution of pvfdoc's `target.when` (docs/rule-layers.md "Format extensions"): a rule
 * that applies only in files where another section holds one of some values. One problem per bad key, at
 * its JSON path; the resolved conditions in the bundle; a `when` rule never stands in for a field.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadLayers } from '../../build/load-layers.js';
import { compareDocuments } from '../../runtime/diff/compare-documents.js';
import { compiledBundle } from '../support/compiled-bundle.js';
import { problemAt, validateRules, writeRuleLayer } from '../support/rule-layer.js';
import { removeTempDirs } from '../support/temp-dirs.js';

type Json = Record<string, unknown>;

afterAll(removeTempDirs);

const SEEKING = [{ section: 'type', values: ['[seeking]'] }];

function rule(target: Json = {}, extra: Json = {}): Json {
  return {
    id: 'r',
    match: { extensions: ['.qst'] },
    target: { kind: 'token', section: 'int data', index: 0, recordTokens: 2, when: SEEKING, ...target },
    annotation: { title: '物品', type: 'text' },
    ...extra,
  };
}

describe('target.when: valid input', () => {
  it('accepts conditions on token and section targets, with topLevel, parent and patterns', async () => {
    const problems = await validateRules([
      rule(),
      rule({ kind: 'section', index: undefined, recordTokens: undefined }, { id: 'section' }),
      rule({ when: [{ section: 'type', index: 0, values: ['[condition under clear]'] }, { section: 'sub type', index: 0, values: ['1', '2'] }] }, { id: 'two' }),
      rule({ section: undefined, recordTokens: undefined, topLevel: true, when: [{ section: 'kind', values: [''] }] }, { id: 'top', match: { extensions: ['.lst'] } }),
      rule({ parent: 'x', notInside: ['y'] }, { id: 'scoped' }),
    ]);
    expect(problems).toEqual([]);
  });
});

describe('target.when: one problem per bad input', () => {
  const five = Array.from({ length: 5 }, (_, k) => ({ section: `s${k}`, values: ['1'] }));
  const cases: [string, Json[], string, string][] = [
    ['on a path target', [rule({ kind: 'path', section: undefined, index: undefined, recordTokens: undefined })], '$.rules[0].target.when', 'rules[0].target.when 只允许用于 section 或 token 标注 — '],
    ['no condition', [rule({ when: [] })], '$.rules[0].target.when', 'rules[0].target.when 需要 1 到 4 个条件 — list at least one condition'],
    ['five conditions', [rule({ when: five })], '$.rules[0].target.when', 'rules[0].target.when 需要 1 到 4 个条件 — list at most 4 conditions'],
    ['a blank section', [rule({ when: [{ section: ' ', values: ['x'] }] })], '$.rules[0].target.when[0].section', 'rules[0].target.when[0].section 不能为空 — '],
    ['a negative index', [rule({ when: [{ section: 'type', index: -1, values: ['x'] }] })], '$.rules[0].target.when[0].index', 'rules[0].target.when[0].index 不能为负数 — '],
    ['no value', [rule({ when: [SEEKING[0], { section: 'sub type', values: [] }] })], '$.rules[0].target.when[1].values', 'rules[0].target.when[1].values 至少需要一个值 — '],
  ];

  it.each(cases)('%s', async (_name, rules, jsonPath, fragment) => {
    expect(await validateRules(rules)).toEqual([problemAt(jsonPath, fragment)]);
  });

  it('reports wrong shapes from the schema, at the key', async () => {
    const { problems } = await loadLayers([
      await writeRuleLayer([rule({ when: { section: 'type', values: ['x'] } }), rule({ when: [{ section: 'type', values: 'x' }] }, { id: 'b' }), rule({ when: [{ section: 'type', values: ['x'], value: 'y' }] }, { id: 'c' })]),
    ]);
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => p.path)).toEqual(['$.rules[0].target.when', '$.rules[1].target.when[0].values', '$.rules[2].target.when[0]']);
  });
});

describe('target.when: resolution', () => {
  const bundleOf = async (rules: Json[], fields: Json[] = []) => compiledBundle([await writeRuleLayer(rules, fields)]);

  it('stores the conditions with index 0 when absent, and null without when', async () => {
    const bundle = await bundleOf([rule(), rule({ when: undefined }, { id: 'plain' })]);
    const doc = (id: string) => bundle.documents.find((d) => d.id === id);
    expect(doc('r')?.resolved.target.when).toEqual([{ section: 'type', index: 0, values: ['[seeking]'] }]);
    expect(doc('plain')?.resolved.target.when).toBeNull();
  });

  it('a rule with when does not suppress the implicit rule of a field with the same target otherwise', async () => {
    const field = { id: 'f', match: { extensions: ['.qst'] }, target: { kind: 'token', section: 'int data', index: 0, recordTokens: 2 }, annotation: { title: '物品', type: 'text' } };
    const bundle = await bundleOf([rule()], [field]);
    const state = (b: typeof bundle) => b.documents.find((d) => d.id === 'field:f')?.versions['']?.state;
    expect(state(bundle)).toBe('effective');
    // The same rule without when covers the field, as pvfine's suppression test says.
    const covered = await bundleOf([rule({ when: undefined })], [field]);
    expect(state(covered)).toBe('suppressed');
  });

  it('diff reports a changed condition as a target.when change', async () => {
    const before = await bundleOf([rule()]);
    const after = await bundleOf([rule({ when: [{ section: 'type', values: ['[seeking]', '[use item]'] }] })]);
    const a = before.documents.find((d) => d.id === 'r');
    const b = after.documents.find((d) => d.id === 'r');
    // The two layers have different names (one folder each); only the target part is of interest.
    if (!a || !b) throw new Error('rule r missing');
    expect(compareDocuments(a, b, () => [], () => [], []).parts.map((p) => p.part).filter((p) => p !== 'layer')).toEqual(['target.when']);
  });
});
