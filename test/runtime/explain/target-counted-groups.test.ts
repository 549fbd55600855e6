/**
 * Explain with pvfdoc's `target.countedGroups`: a section read as groups of a count N and N records (a
 * recipe's materials, products and skills). The layer is written here.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import type { TargetSpec } from '../../../runtime/bundle/schema.js';
import { computeAnchors } from '../../../runtime/explain/compute-anchors.js';
import { parseScriptView } from '../../../runtime/script/parse-script-view.js';
import { annotateScript, type ExplainAnnotation } from '../../../runtime/explain/annotate-script.js';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { writeRuleLayer } from '../../support/rule-layer.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

const GROUPS = { widths: [2, 2, 2] };

/** A token target with every optional part unset. */
const NO_TARGET: TargetSpec = {
  kind: 'token', section: null, index: null, range: null, offset: null, groupOffset: null, standaloneValues: null, recordTokens: null,
  tokensPerLineIndex: null, contextIndex: null, imagePathToken: null, parent: null, notInside: null, topLevel: false, sectionPattern: null,
  when: null, countedGroups: null, variableRecords: null, after: null,
};
const rule = (id: string, title: string, target: Record<string, unknown>) => ({
  id,
  match: { extensions: ['.stk'] },
  target: { kind: 'token', section: 'int data', ...target },
  annotation: { title, type: 'text' },
});

const RULES = [
  rule('materials', '材料种类数', { countedGroups: { ...GROUPS, group: 0, count: true } }),
  rule('material', '材料 {record}', { index: 0, countedGroups: { ...GROUPS, group: 0 } }),
  rule('material.count', '材料 {record} 数量', { index: 1, countedGroups: { ...GROUPS, group: 0 } }),
  rule('products', '产物种类数', { countedGroups: { ...GROUPS, group: 1, count: true } }),
  rule('product', '产物 {record}', { index: 0, countedGroups: { ...GROUPS, group: 1 } }),
  rule('skills', '技能种类数', { countedGroups: { ...GROUPS, group: 2, count: true } }),
  rule('skill', '技能 {record}', { index: 0, countedGroups: { ...GROUPS, group: 2 } }),
  rule('skill.level', '技能 {record} 等级', { index: 1, countedGroups: { ...GROUPS, group: 2 } }),
  // After one skipped token, one group of records of 3.
  { ...rule('after.offset', '第二列', { index: 1, offset: 1, countedGroups: { widths: [3] } }), match: { extensions: ['.etc'] } },
];

let bundle: Bundle;
beforeAll(async () => {
  bundle = await compiledBundle([await writeRuleLayer(RULES)]);
});

afterAll(removeTempDirs);

function explain(tokens: string, filePath = 'stackable/recipe.stk'): ExplainAnnotation[] {
  return annotateScript({ bundle, versionKey: '', filePath, text: `[int data]\n\t${tokens}\n[/int data]\n` }).annotations;
}

const brief = (a: ExplainAnnotation) => `tok${a.tokenIndex} ${a.value} ${a.title}`;

describe('target.countedGroups', () => {
  it('reads each group as a count and that many records, and numbers records within their group', () => {
    // 2 materials (1001×3, 1002×1), 1 product (2001×1), 1 skill (191, level 4).
    expect(explain('2\t1001\t3\t1002\t1\t1\t2001\t1\t1\t191\t4').map(brief)).toEqual([
      'tok0 2 材料种类数',
      'tok1 1001 材料 1',
      'tok2 3 材料 1 数量',
      'tok3 1002 材料 2',
      'tok4 1 材料 2 数量',
      'tok5 1 产物种类数',
      'tok6 2001 产物 1',
      'tok8 1 技能种类数',
      'tok9 191 技能 1',
      'tok10 4 技能 1 等级',
    ]);
  });

  it('an empty group has a count and no records; the next group follows it', () => {
    expect(explain('1\t1001\t3\t0\t1\t191\t4').map(brief)).toEqual(['tok0 1 材料种类数', 'tok1 1001 材料 1', 'tok2 3 材料 1 数量', 'tok3 0 产物种类数', 'tok4 1 技能种类数', 'tok5 191 技能 1', 'tok6 4 技能 1 等级']);
  });

  it('a group cut short keeps its complete records, and the groups after it anchor nothing', () => {
    // 3 materials announced, 1½ written.
    expect(explain('3\t1001\t3\t1002').map(brief)).toEqual(['tok0 3 材料种类数', 'tok1 1001 材料 1', 'tok2 3 材料 1 数量']);
  });

  it('a count that is not a non-negative integer ends the reading', () => {
    expect(explain('1\t1001\t3\t-1\t2001\t1').map(brief)).toEqual(['tok0 1 材料种类数', 'tok1 1001 材料 1', 'tok2 3 材料 1 数量']);
    expect(explain('1\t1001\t3\t`1`\t2001\t1').map(brief)).toEqual(['tok0 1 材料种类数', 'tok1 1001 材料 1', 'tok2 3 材料 1 数量']);
    expect(explain('1.5\t1001\t3').map(brief)).toEqual([]);
  });

  it('offset skips tokens once before the first group', () => {
    const out = annotateScript({ bundle, versionKey: '', filePath: 'etc/x.etc', text: '[int data]\n\t9\t2\t10\t11\t12\t20\t21\t22\n' }).annotations;
    expect(out.map(brief)).toEqual(['tok3 11 第二列', 'tok6 21 第二列']);
  });
});

describe('target.countedGroups against a plain model', () => {
  /** What the groups say, read from the token texts by the definition alone. */
  function model(tokens: readonly string[], widths: readonly number[], group: number, count: boolean, index: number, offset: number): number[] {
    let j = Math.min(offset, tokens.length);
    for (let g = 0; g < widths.length && j < tokens.length; g++) {
      const n = /^(0|[1-9][0-9]{0,8})$/.test(tokens[j] as string) ? Number(tokens[j]) : -1;
      if (n < 0) return [];
      const w = widths[g] as number;
      if (g === group) {
        if (count) return [j];
        const out: number[] = [];
        for (let r = 0; r < n && j + 1 + (r + 1) * w <= tokens.length; r++) out.push(j + 1 + r * w + index);
        return out;
      }
      j += 1 + n * w;
    }
    return [];
  }

  it('anchors exactly the tokens the model names, for any tokens, widths, group and offset', () => {
    const token = fc.oneof(fc.integer({ min: 0, max: 4 }).map(String), fc.constantFrom('-1', '1.5', '`2`', '7'));
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
        fc.nat(2),
        fc.boolean(),
        fc.nat(2),
        fc.nat(2),
        (tokens, widths, g, count, i, offset) => {
          const group = Math.min(g, widths.length - 1);
          const index = Math.min(i, (widths[group] as number) - 1);
          const target: TargetSpec = { ...NO_TARGET, section: 'int data', index: count ? null : index, offset, countedGroups: { widths, group, count } };
          const view = parseScriptView(`[int data]\n${tokens.join('\t')}\n`);
          expect(computeAnchors(view, target, { annotationType: 'text' }).map((a) => a.tokenIndex)).toEqual(model(tokens, widths, group, count, index, offset));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
