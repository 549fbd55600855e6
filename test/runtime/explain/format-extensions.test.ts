/**
 * Explain with pvfdoc's format extensions, on the small layer test/fixtures/layers/format-extensions:
 * target.parent / target.notInside, annotation.sentinels (reference and enum), annotation.columns over
 * a tokensPerLineIndex section, and trust on each block.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledBundle } from '../../support/compiled-bundle.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { annotateScript, type ExplainAnnotation } from '../../../runtime/explain/annotate-script.js';
import type { ReferenceQuery } from '../../../runtime/references/reference-query.js';

const LAYER = fileURLToPath(new URL('../../fixtures/layers/format-extensions/', import.meta.url));

let bundle: Bundle;
beforeAll(async () => {
  bundle = await compiledBundle([LAYER]);
});

const lookups: ReferenceQuery[] = [];
function explain(filePath: string, lines: string[]): ExplainAnnotation[] {
  return annotateScript({
    bundle,
    versionKey: '',
    filePath,
    text: `${lines.join('\n')}\n`,
    resolveReference: (query) => {
      lookups.push(query);
      return { status: 'missing', name: null, path: null };
    },
  }).annotations;
}

/** `value title [rules]` per token annotation, for compact expectations. */
const tokens = (annotations: ExplainAnnotation[]) =>
  annotations.filter((a) => a.tokenIndex !== null).map((a) => `${a.value} ${a.title} [${a.ruleIds.join(',')}]`);

describe('target.parent and target.notInside', () => {
  const SKILL = [
    '[skill apply condition]',
    '\t[value]\t5\t[/value]',
    '\t[group]',
    '\t\t[value]\t6\t[/value]',
    '\t[/group]',
    '[/skill apply condition]',
    '[SKILL APPLY CONDITION]',
    '\t[value]\t4\t[/value]',
    '[/SKILL APPLY CONDITION]',
    '[value]\t7\t[/value]',
    '[other]',
    '\t[value]\t8\t[/value]',
    '[/other]',
  ];

  it('[value] directly inside [skill apply condition] gets the parent rule; elsewhere the notInside rule; deeper inside neither', () => {
    expect(tokens(explain('skill/a.skl', SKILL))).toEqual([
      '5 条件值 [skl.condition value]',
      // 6 sits in [group] inside the condition: not direct (parent), and inside it at depth 2 (notInside).
      '4 条件值 [skl.condition value]',
      '7 数值 [skl.plain value]',
      '8 数值 [skl.plain value]',
    ]);
  });

  it('applies to section targets too, names compared case-insensitively', () => {
    const tags = explain('skill/a.skl', SKILL).filter((a) => a.tokenIndex === null);
    expect(tags.map((a) => `${a.start.line} ${a.title}`)).toEqual(['2 条件段', '8 条件段']);
  });
});

describe('annotation.sentinels', () => {
  it('a -1 on a reference is labelled and not looked up (no reference, no missing)', () => {
    lookups.length = 0;
    const [none, five] = explain('n_quest/a.qst', ['[npc]', '\t-1', '[npc]', '\t5']);
    expect(none).toMatchObject({ value: '-1', title: 'NPC', valueLabel: '无 NPC', type: 'reference' });
    expect(none?.reference).toBeUndefined();
    expect(none?.unknownValue).toBeUndefined();
    expect(five?.reference).toMatchObject({ id: '5', resolutionStatus: 'missing' });
    expect(lookups.map((q) => q.id)).toEqual(['5']);
  });

  it('matches the canonical value (+0 and 00 read "0")', () => {
    expect(explain('n_quest/a.qst', ['[npc] +0', '[npc] 00']).map((a) => a.valueLabel)).toEqual(['任意 NPC', '任意 NPC']);
  });

  it('on an enum the sentinel wins over values; other values are looked up as usual', () => {
    const [sentinel, known, unknown] = explain('n_quest/a.qst', ['[kind]\t-1', '[kind]\t1', '[kind]\t3']);
    expect(sentinel).toMatchObject({ value: '-1', title: '种类', valueLabel: '不限' });
    expect(sentinel?.unknownValue).toBeUndefined();
    expect(known).toMatchObject({ value: '1', title: '种类', valueLabel: '一' });
    expect(unknown).toMatchObject({ value: '3', title: '种类', unknownValue: true });
  });
});

describe('annotation.columns', () => {
  it('annotates every token of every record, titled by column, {record}/{column}/{recordIndex} filled in', () => {
    // Width from token 0 (tokensPerLineIndex 0, skipped by offset 1): 2 in the first section, 3 in the second.
    const annotations = explain('n_quest/a.qst', ['[quest list]', '\t2', '\t101\t5', '\t102\t6', '[quest list]', '\t3', '\t201\t7\t1']);
    expect(annotations.map((a) => [a.value, a.title, a.content, a.recordIndex, a.occurrence])).toEqual([
      ['101', '任务 1 编号', '记录 1（下标 0），第 1 列', 0, 0],
      ['5', '发布任务的 NPC', '记录 1（下标 0），第 2 列', 0, 0],
      ['102', '任务 2 编号', '记录 2（下标 1），第 1 列', 1, 0],
      ['6', '发布任务的 NPC', '记录 2（下标 1），第 2 列', 1, 0],
      ['201', '任务 1 编号', '记录 1（下标 0），第 1 列', 0, 1],
      ['7', '发布任务的 NPC', '记录 1（下标 0），第 2 列', 0, 1],
      // An empty column title falls back to the annotation title.
      ['1', '第3列', '记录 1（下标 0），第 3 列', 0, 1],
    ]);
    expect(annotations.every((a) => a.blocks[0]?.title === a.title)).toBe(true);
  });

  it('ignores an incomplete trailing record and the width token', () => {
    const annotations = explain('n_quest/a.qst', ['[quest list]', '\t2', '\t101\t5', '\t102']);
    expect(annotations.map((a) => a.value)).toEqual(['101', '5']);
  });
});

describe('trust on blocks', () => {
  it('each block carries its definition trust; a rule without one has none; implicit field rules inherit the field’s', () => {
    const skill = explain('skill/a.skl', ['[skill apply condition]', '\t[value]\t5\t[/value]', '[/skill apply condition]', '[value] 7 [/value]', '[level] 3']);
    const blocks = skill.flatMap((a) => a.blocks.map((b) => [b.ruleId, b.trust ?? null]));
    expect(blocks).toEqual([
      ['skl.condition tag', null],
      ['skl.condition value', 'confirmed'],
      ['skl.plain value', 'likely'],
      ['field:skl.level', 'confirmed'],
    ]);
    const blockOf = (a: ExplainAnnotation | undefined) => a?.blocks[0];
    expect(blockOf(skill[0])).not.toHaveProperty('trust');
    const quest = explain('n_quest/a.qst', ['[npc] -1', '[kind] 1']);
    expect(quest.map((a) => blockOf(a)?.trust ?? null)).toEqual(['unverified', null]);
  });
});
