/**
 * Validation and resolution of pvfdoc's `target.after` (docs/rule-layers.md "Format extensions"): the
 * section opened right before must have one of the names. One problem per bad key, at its JSON path.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { compiledBundle } from '../support/compiled-bundle.js';
import { problemAt, validateRules, writeRuleLayer } from '../support/rule-layer.js';
import { removeTempDirs } from '../support/temp-dirs.js';

type Json = Record<string, unknown>;

afterAll(removeTempDirs);

function rule(target: Json = {}, id = 'r'): Json {
  return { id, match: { extensions: ['.act'] }, target: { kind: 'section', section: 'damage', after: ['set action'], ...target }, annotation: { title: '受击动作', type: 'text' } };
}

describe('target.after', () => {
  it('accepts section and token targets, with parent, notInside and when', async () => {
    expect(await validateRules([rule(), rule({ kind: 'token', index: 0, after: ['trigger check', 'trigger'] }, 't'), rule({ parent: 'behavior', notInside: ['guard appendage'] }, 'p')])).toEqual([]);
  });

  const cases: [string, Json[], string, string][] = [
    ['on a path target', [rule({ kind: 'path', section: undefined })], '$.rules[0].target.after', '.target.after 只允许用于 section 或 token 标注'],
    ['an empty list', [rule({ after: [] })], '$.rules[0].target.after', '.target.after 至少需要一个段名'],
    ['a blank name', [rule({ after: ['set action', ' '] })], '$.rules[0].target.after[1]', '.target.after 不能包含空名称'],
    ['with topLevel', [rule({ kind: 'token', section: undefined, topLevel: true, index: 0 })], '$.rules[0].target.after', 'target.topLevel 不能与 target.parent、target.notInside 或 target.after 同时使用'],
  ];
  it.each(cases)('reports %s', async (_name, rules, jsonPath, fragment) => {
    expect(await validateRules(rules)).toEqual([problemAt(jsonPath, fragment)]);
  });

  it('is stored on every target (null when absent)', async () => {
    const bundle = await compiledBundle([await writeRuleLayer([rule(), rule({ after: undefined }, 'plain')])]);
    expect(bundle.documents.find((d) => d.id === 'r')?.resolved.target.after).toEqual(['set action']);
    expect(bundle.documents.find((d) => d.id === 'plain')?.resolved.target.after).toBeNull();
  });
});
