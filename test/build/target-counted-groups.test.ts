/**
 * Validation and resolution of pvfdoc's `target.countedGroups` (docs/rule-layers.md "Format extensions"):
 * a section read as groups of a count N and N records. One problem per bad key, at its JSON path; the
 * resolved target in the bundle; the editor JSON schema accepts what the build accepts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadLayers } from '../../build/load-layers.js';
import { compiledBundle } from '../support/compiled-bundle.js';
import { problemAt, validateRules, writeRuleLayer } from '../support/rule-layer.js';
import { removeTempDirs } from '../support/temp-dirs.js';

type Json = Record<string, unknown>;

afterAll(removeTempDirs);

function rule(target: Json = {}, annotation: Json = {}, id = 'r'): Json {
  return {
    id,
    match: { extensions: ['.stk'] },
    target: { kind: 'token', section: 'int data', index: 0, countedGroups: { widths: [2, 2, 2], group: 1 }, ...target },
    annotation: { title: '产物 {record}', type: 'text', ...annotation },
  };
}

describe('target.countedGroups: valid input', () => {
  it('accepts records of a group, the count of a group, offset, contextIndex, when and topLevel', async () => {
    const problems = await validateRules([
      rule(),
      rule({ index: undefined, countedGroups: { widths: [2, 2, 2], group: 2, count: true } }, {}, 'count'),
      rule({ offset: 1, contextIndex: 1, countedGroups: { widths: [3] } }, { type: 'reference', relation: '物品' }, 'ctx'),
      rule({ when: [{ section: 'stackable type', values: ['[recipe]'] }] }, {}, 'when'),
      rule({ section: undefined, topLevel: true }, {}, 'top'),
    ]);
    // The relation of 'ctx' is unknown in this layer: that is the only problem.
    expect(problems.map((p) => p.path)).toEqual(['$.rules[2].annotation.relation']);
  });
});

describe('target.countedGroups: one problem per bad input', () => {
  const cases: [string, Json[], string, string][] = [
    ['on a section target', [rule({ kind: 'section', index: undefined })], '$.rules[0].target.countedGroups', 'rules[0].target.countedGroups 只允许用于 token 标注 — '],
    ['no widths', [rule({ countedGroups: { widths: [] } })], '$.rules[0].target.countedGroups.widths', '.target.countedGroups.widths 需要 1 到 8 个记录宽度'],
    ['a width of 0', [rule({ index: 0, countedGroups: { widths: [2, 0] } })], '$.rules[0].target.countedGroups.widths[1]', '.target.countedGroups.widths[1] 必须大于 0'],
    ['a group past the widths', [rule({ countedGroups: { widths: [2], group: 1 } })], '$.rules[0].target.countedGroups.group', '.target.countedGroups.group 必须是 widths 中的一组'],
    ['an index past the record', [rule({ index: 2 })], '$.rules[0].target.index', 'target.index 2 is outside a 2-token record of group 1'],
    ['no index and no count', [rule({ index: undefined })], '$.rules[0].target.index', '.target.countedGroups 需要 index 或 count: true'],
    ['count with an index', [rule({ countedGroups: { widths: [2], count: true } })], '$.rules[0].target.index', '.target.countedGroups.count 为 true 时不能配置 index'],
    ['a contextIndex past the record', [rule({ contextIndex: 5 })], '$.rules[0].target.contextIndex', '.target.contextIndex 必须位于该组的记录宽度内'],
    ['with recordTokens', [rule({ recordTokens: 2 })], '$.rules[0].target.recordTokens', '.target.recordTokens 不能与 target.countedGroups 同时使用'],
    ['with standaloneValues', [rule({ standaloneValues: [-1] })], '$.rules[0].target.standaloneValues', '.target.standaloneValues 不能与 target.countedGroups 同时使用'],
    ['with columns', [rule({ index: 0 }, { columns: ['a', 'b'] })], '$.rules[0].annotation.columns', '.annotation.columns 不能与 target.countedGroups 同时使用'],
  ];

  it.each(cases)('%s', async (_name, rules, jsonPath, fragment) => {
    expect(await validateRules(rules)).toEqual([problemAt(jsonPath, fragment)]);
  });

  it('reports wrong shapes from the schema, at the key', async () => {
    const { problems } = await loadLayers([await writeRuleLayer([rule({ countedGroups: { widths: '2' } }), rule({ countedGroups: { widths: [2], size: 3 } }, {}, 'b')])]);
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.path)).toEqual(['$.rules[0].target.countedGroups.widths', '$.rules[1].target.countedGroups']);
  });
});

describe('target.countedGroups: resolution', () => {
  it('stores widths with group and count filled in, and null without countedGroups', async () => {
    const bundle = await compiledBundle([await writeRuleLayer([rule({ countedGroups: { widths: [2, 3] } }), rule({ countedGroups: undefined, recordTokens: 2 }, {}, 'plain')])]);
    expect(bundle.documents.find((d) => d.id === 'r')?.resolved.target.countedGroups).toEqual({ widths: [2, 3], group: 0, count: false });
    expect(bundle.documents.find((d) => d.id === 'plain')?.resolved.target.countedGroups).toBeNull();
  });
});
