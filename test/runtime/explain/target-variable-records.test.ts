/**
 * Explain with pvfdoc's `target.variableRecords`: a section read as records whose width one of their own
 * tokens (the first, or the `keyAt` column) or a count inside them decides (an avatar's selectable
 * options, its purchase options, a quest reward restricted to a job). The layer is written here.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import type { TargetSpec, VariableRecords } from '../../../runtime/bundle/schema.js';
import { computeAnchors } from '../../../runtime/explain/compute-anchors.js';
import { parseScriptView } from '../../../runtime/script/parse-script-view.js';
import { annotateScript, type ExplainAnnotation } from '../../../runtime/explain/annotate-script.js';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { writeRuleLayer } from '../../support/rule-layer.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

/** A token target with every optional part unset. */
const NO_TARGET: TargetSpec = {
  kind: 'token', section: null, index: null, range: null, offset: null, groupOffset: null, standaloneValues: null, recordTokens: null,
  tokensPerLineIndex: null, contextIndex: null, imagePathToken: null, parent: null, notInside: null, topLevel: false, sectionPattern: null,
  when: null, countedGroups: null, variableRecords: null, after: null,
};
const ABILITY = { width: 3, widthByFirst: { '[SKILL_LEVEL]': 4 } };
const PURCHASE = { width: 5, countAt: 4 };
const rule = (id: string, title: string, section: string, target: Record<string, unknown>) => ({
  id,
  match: { extensions: ['.equ'] },
  target: { kind: 'token', section, ...target },
  annotation: { title, type: 'text' },
});

const RULES = [
  rule('stat', '属性 {record}', 'ability', { index: 0, variableRecords: { ...ABILITY, notFirst: ['[SKILL_LEVEL]'] } }),
  rule('amount', '数值 {record}', 'ability', { index: 2, variableRecords: { ...ABILITY, notFirst: ['[skill_level]'] } }),
  rule('skill', '技能 {record}', 'ability', { index: 2, variableRecords: { ...ABILITY, first: ['[SKILL_LEVEL]'] } }),
  rule('level', '等级 {record}', 'ability', { index: 3, variableRecords: ABILITY }),
  rule('period', '期限 {record}', 'purchase', { index: 0, variableRecords: PURCHASE }),
  rule('sockets', '孔数 {record}', 'purchase', { index: 4, variableRecords: PURCHASE }),
  rule('socket', '孔 {record}', 'purchase', { variableRecords: { ...PURCHASE, tail: true } }),
  rule('after.offset', '第二列 {record}', 'skipped', { index: 1, offset: 1, variableRecords: { width: 2 } }),
  // A quest reward: `item count`, or `item [job] job grow count`: column 1 decides.
  rule('reward.item', '物品 {record}', 'reward', { index: 0, variableRecords: { width: 2, keyAt: 1, widthByFirst: { '[job]': 5 } } }),
  rule('reward.count', '数量 {record}', 'reward', { index: 1, variableRecords: { width: 2, keyAt: 1, widthByFirst: { '[job]': 5 }, notFirst: ['[job]'] } }),
  rule('reward.job', '职业 {record}', 'reward', { index: 2, variableRecords: { width: 2, keyAt: 1, widthByFirst: { '[job]': 5 }, first: ['[JOB]'] } }),
  rule('reward.job-count', '数量 {record}', 'reward', { index: 4, variableRecords: { width: 2, keyAt: 1, widthByFirst: { '[job]': 5 }, first: ['[job]'] } }),
];

let bundle: Bundle;
beforeAll(async () => {
  bundle = await compiledBundle([await writeRuleLayer(RULES)]);
});

afterAll(removeTempDirs);

function explain(section: string, tokens: string): string[] {
  const out: ExplainAnnotation[] = annotateScript({ bundle, versionKey: '', filePath: 'equipment/a.equ', text: `[${section}]\n\t${tokens}\n[/${section}]\n` }).annotations;
  return out.map((a) => `tok${a.tokenIndex} ${a.value} ${a.title}`);
}

describe('target.variableRecords', () => {
  it('cuts records by their first token (case-insensitively) and selects them by first / notFirst', () => {
    expect(explain('ability', '`[HP MAX]`\t`+`\t1\t`[skill_level]`\t`[swordman]`\t40\t2\t`[MOVE_SPEED]`\t`*`\t2')).toEqual([
      'tok0 [HP MAX] 属性 1',
      'tok2 1 数值 1',
      'tok5 40 技能 2',
      'tok6 2 等级 2',
      'tok7 [MOVE_SPEED] 属性 3',
      'tok9 2 数值 3',
    ]);
  });

  it('a record cut short by the end anchors nothing, nor does any record after a count that is no integer ≥ 0', () => {
    expect(explain('ability', '`[HP MAX]`\t`+`\t1\t`[SKILL_LEVEL]`\t`[swordman]`\t40')).toEqual(['tok0 [HP MAX] 属性 1', 'tok2 1 数值 1']);
    expect(explain('purchase', '7\t0\t0\t1000\t-1\t30\t0\t0\t2000\t0')).toEqual([]);
    expect(explain('purchase', '7\t0\t0\t1000\t0\t30\t0\t0\t2000\t`1`\t`[C socket]`')).toEqual(['tok0 7 期限 1', 'tok4 0 孔数 1']);
  });

  it('a count column adds that many tail tokens, whatever the lines', () => {
    expect(explain('purchase', '7\t0\t0\t1000\t0\n\t0\t0\t0\t4500\t2\t`[C socket]`\n\t`[D socket]`\t30\t0\t0\t2000\t1\t`[A socket]`')).toEqual([
      'tok0 7 期限 1',
      'tok4 0 孔数 1',
      'tok5 0 期限 2',
      'tok9 2 孔数 2',
      'tok10 [C socket] 孔 2',
      'tok11 [D socket] 孔 2',
      'tok12 30 期限 3',
      'tok16 1 孔数 3',
      'tok17 [A socket] 孔 3',
    ]);
    // Two sockets announced, one written: the option is cut short.
    expect(explain('purchase', '7\t0\t0\t1000\t2\t`[C socket]`')).toEqual([]);
  });

  it('keyAt: another column than the first decides the width and the selection', () => {
    expect(explain('reward', '2354\t10\t2356\t`[job]`\t2\t1\t5\t3001\t1')).toEqual([
      'tok0 2354 物品 1',
      'tok1 10 数量 1',
      'tok2 2356 物品 2',
      'tok4 2 职业 2',
      'tok6 5 数量 2',
      'tok7 3001 物品 3',
      'tok8 1 数量 3',
    ]);
    // The key column past the end: nothing more is read (where a record would start is not known).
    expect(explain('reward', '2354\t10\t2356')).toEqual(['tok0 2354 物品 1', 'tok1 10 数量 1']);
  });

  it('offset skips tokens once before the first record', () => {
    expect(explain('skipped', '9\t10\t11\t20\t21')).toEqual(['tok2 11 第二列 1', 'tok4 21 第二列 2']);
  });
});

describe('target.variableRecords against a plain model', () => {
  /** What the records say, read from the token texts by the definition alone. */
  function model(tokens: readonly string[], v: VariableRecords, index: number | null, offset: number): number[] {
    const out: number[] = [];
    let j = Math.min(offset, tokens.length);
    while (j < tokens.length) {
      if (j + v.keyAt >= tokens.length) break;
      const lead = (tokens[j + v.keyAt] as string).replaceAll('`', '').toLowerCase();
      const width = v.widthByFirst.find(([value]) => value.toLowerCase() === lead)?.[1] ?? v.width;
      if (j + width > tokens.length) break;
      let tail = 0;
      if (v.countAt !== null) {
        const text = tokens[j + v.countAt] as string;
        if (!/^(0|[1-9][0-9]{0,8})$/.test(text)) break;
        tail = Number(text);
        if (j + width + tail > tokens.length) break;
      }
      const selected = (v.first === null || v.first.some((f) => f.toLowerCase() === lead)) && (v.notFirst === null || !v.notFirst.some((f) => f.toLowerCase() === lead));
      if (selected) {
        if (v.tail) for (let k = width; k < width + tail; k++) out.push(j + k);
        else if (index !== null && index < width) out.push(j + index);
      }
      j += width + tail;
    }
    return out;
  }

  it('anchors exactly the tokens the model names, for any tokens, widths, key column, selection and offset', () => {
    const token = fc.oneof(fc.integer({ min: 0, max: 3 }).map(String), fc.constantFrom('-1', '1.5', '`2`', '`[A]`', '`[b]`', '`[B]`'));
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 30 }),
        fc.integer({ min: 1, max: 3 }),
        fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
        fc.option(fc.nat(2), { nil: null }),
        fc.constantFrom('all', 'first', 'notFirst'),
        fc.boolean(),
        fc.nat(4),
        fc.nat(2),
        fc.nat(2),
        (tokens, width, wideB, countAt, selection, tail, index, offset, keyAt) => {
          const widthByFirst: [string, number][] = wideB === null ? [] : [['[B]', wideB]];
          const narrowest = Math.min(width, ...widthByFirst.map(([, w]) => w));
          const count = countAt !== null && countAt < narrowest ? countAt : null;
          const v: VariableRecords = {
            width,
            keyAt: Math.min(keyAt, narrowest - 1),
            widthByFirst,
            countAt: count,
            first: selection === 'first' ? ['[a]', '1'] : null,
            notFirst: selection === 'notFirst' ? ['[A]'] : null,
            tail: tail && count !== null,
          };
          const target: TargetSpec = { ...NO_TARGET, section: 'x', index: v.tail ? null : index, offset, variableRecords: v };
          const view = parseScriptView(`[x]\n${tokens.join('\t')}\n`);
          expect(computeAnchors(view, target, { annotationType: 'text' }).map((a) => a.tokenIndex)).toEqual(model(tokens, v, v.tail ? null : index, offset));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
