/**
 * Explain with pvfdoc's `target.when`: a rule applies only in files where the first occurrence of another
 * section holds one of some values at a token index (docs/rule-layers.md "Format extensions"). The layer is
 * written here: a quest-like `[int data]` read per `[type]`, beside a general rule for the same tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { annotateScript, type ExplainAnnotation } from '../../../runtime/explain/annotate-script.js';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { writeRuleLayer } from '../../support/rule-layer.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

const RULES = [
  // Listed first on purpose: a when rule takes the place of its own layer's general rule wherever it is listed.
  {
    id: 'general',
    match: { extensions: ['.qst'] },
    target: { kind: 'token', section: 'int data', index: 0 },
    annotation: { title: '条件参数 1', type: 'text', content: '按 [type] 而定' },
  },
  {
    id: 'seeking.item',
    match: { extensions: ['.qst'] },
    target: { kind: 'token', section: 'int data', index: 0, recordTokens: 2, when: [{ section: 'type', values: ['[seeking]'] }] },
    annotation: { title: '物品 ID', type: 'text' },
  },
  {
    id: 'seeking.count',
    match: { extensions: ['.qst'] },
    target: { kind: 'token', section: 'int data', index: 1, recordTokens: 2, when: [{ section: 'type', values: ['[SEEKING]'] }] },
    annotation: { title: '数量', type: 'text' },
  },
  {
    id: 'clear.time',
    match: { extensions: ['.qst'] },
    target: {
      kind: 'token',
      section: 'int data',
      index: 2,
      when: [
        { section: 'type', values: ['[condition under clear]'] },
        { section: 'sub type', values: ['1', '2'] },
      ],
    },
    annotation: { title: '时限', type: 'text' },
  },
  {
    id: 'level.second',
    match: { extensions: ['.qst'] },
    target: { kind: 'section', section: 'int data', when: [{ section: 'level', index: 1, values: ['99'] }] },
    annotation: { title: '满级条件', type: 'text' },
  },
];

/** A second layer's general rule for the same tokens: layers add up, so it still merges. */
const OTHER_LAYER_RULES = [
  {
    id: 'mine.general',
    match: { extensions: ['.qst'] },
    target: { kind: 'token', section: 'int data', index: 0 },
    annotation: { title: '我的说明', type: 'text' },
  },
];

let bundle: Bundle;
let stacked: Bundle;
beforeAll(async () => {
  const base = await writeRuleLayer(RULES, [], 'when');
  const mine = await writeRuleLayer(OTHER_LAYER_RULES, [], 'mine');
  bundle = await compiledBundle([base]);
  stacked = await compiledBundle([base, mine]);
});

afterAll(removeTempDirs);

function explain(lines: string[], with_: Bundle = bundle): ExplainAnnotation[] {
  return annotateScript({ bundle: with_, versionKey: '', filePath: 'n_quest/q.qst', text: `${lines.join('\n')}\n` }).annotations;
}

const brief = (a: ExplainAnnotation) => `${a.section}#${a.occurrence} tok${a.tokenIndex ?? '-'} ${a.value ?? ''} ${a.title} [${a.ruleIds.join(',')}]`;

describe('target.when', () => {
  it('applies the rules of the type the file has; on their spans they take the place of their layer\'s general rule', () => {
    const out = explain(['[type]', '\t`[seeking]`', '[int data]', '\t1001\t2\t1002\t5', '[/int data]']);
    expect(out.map(brief)).toEqual([
      'int data#0 tok0 1001 物品 ID [seeking.item]',
      'int data#0 tok1 2 数量 [seeking.count]',
      'int data#0 tok2 1002 物品 ID [seeking.item]',
      'int data#0 tok3 5 数量 [seeking.count]',
    ]);
  });

  it('a general rule of another layer still merges with the when rule (layers add up)', () => {
    const out = explain(['[type]', '\t`[seeking]`', '[int data]', '\t1001\t2', '[/int data]'], stacked);
    expect(out.map(brief)).toEqual(['int data#0 tok0 1001 我的说明 [mine.general,seeking.item]', 'int data#0 tok1 2 数量 [seeking.count]']);
    expect(out[0]?.blocks.map((b) => b.ruleId)).toEqual(['mine.general', 'seeking.item']);
  });

  it('a file of another type, or without the deciding section, gets only the general rule', () => {
    const hunt = explain(['[type]', '\t`[hunt monster]`', '[int data]', '\t1001\t2\t1002\t5', '[/int data]']);
    expect(hunt.map(brief)).toEqual(['int data#0 tok0 1001 条件参数 1 [general]']);
    const none = explain(['[int data]', '\t1001\t2', '[/int data]']);
    expect(none.map(brief)).toEqual(['int data#0 tok0 1001 条件参数 1 [general]']);
    // An empty deciding section has no token 0: the condition fails.
    const empty = explain(['[type]', '[int data]', '\t1001\t2', '[/int data]']);
    expect(empty.map(brief)).toEqual(['int data#0 tok0 1001 条件参数 1 [general]']);
  });

  it('compares values case-insensitively; the deciding section may come after the target', () => {
    const out = explain(['[int data]', '\t7\t1', '[/int data]', '[type]', '\t`[Seeking]`']);
    expect(out.map((a) => a.ruleIds[0])).toEqual(['seeking.item', 'seeking.count']);
  });

  it('the first occurrence of the deciding section decides', () => {
    const out = explain(['[type]', '\t`[hunt monster]`', '[type]', '\t`[seeking]`', '[int data]', '\t7\t1', '[/int data]']);
    expect(out.map((a) => a.ruleIds.join(','))).toEqual(['general']);
  });

  it('every condition must hold; numbers compare as their canonical values', () => {
    const lines = (sub: string) => ['[type]', '\t`[condition under clear]`', '[sub type]', `\t${sub}`, '[int data]', '\t10\t0\t300', '[/int data]'];
    expect(explain(lines('2')).map(brief)).toEqual(['int data#0 tok0 10 条件参数 1 [general]', 'int data#0 tok2 300 时限 [clear.time]']);
    expect(explain(lines('3')).map(brief)).toEqual(['int data#0 tok0 10 条件参数 1 [general]']);
  });

  it('reads the token at the condition index (here the second token of [level]) and works on section targets', () => {
    const out = (level: string) => explain(['[level]', `\t${level}`, '[int data]', '[/int data]']).map(brief);
    expect(out('39\t99')).toEqual(['int data#0 tok- ' + ' 满级条件 [level.second]']);
    expect(out('39\t60')).toEqual([]);
    expect(out('99')).toEqual([]);
  });
});
