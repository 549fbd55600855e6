/**
 * The layout drawing data (site/src/lib/layout.ts) of pvfdoc's target.topLevel, target.sectionPattern
 * and target.when rules, on the layer test/fixtures/layers/target-extensions.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledBundle } from '../support/compiled-bundle.js';
import type { Bundle } from '../../runtime/bundle/load-bundle.js';
import { layoutOf } from '../../site/src/lib/layout.js';
import { writeRuleLayer } from '../support/rule-layer.js';

const LAYER = fileURLToPath(new URL('../fixtures/layers/target-extensions/', import.meta.url));

let bundle: Bundle;
beforeAll(async () => {
  bundle = await compiledBundle([LAYER]);
});

const docOf = (id: string, from: () => Bundle = () => bundle) => {
  const doc = from().documents.find((d) => d.id === id);
  if (!doc) throw new Error(`no document ${id}`);
  return doc;
};

describe('layout drawing of topLevel and sectionPattern targets', () => {
  it('topLevel records: the header is the file start, the run ends at the first section', () => {
    const drawing = layoutOf(docOf('lst.id'));
    expect(drawing).toMatchObject({ mode: 'records', where: 'top-level', section: null, scope: ['第一个段之前'] });
    expect(drawing.segments[0]?.boxes[0]).toMatchObject({ role: 'header', position: '文件开头', caption: '第一个段之前' });
    expect(drawing.segments.at(-1)?.boxes[0]).toMatchObject({ role: 'end', caption: '第一个段' });
    expect(drawing.facts.map((f) => f.label)).toContain('位置');
    expect(drawing.facts.map((f) => f.label)).not.toContain('段');
  });

  it('topLevel index-free columns and ranges draw like any other target', () => {
    expect(layoutOf(docOf('dat.cols'))).toMatchObject({ mode: 'columns', where: 'top-level' });
    expect(layoutOf(docOf('dat.first'))).toMatchObject({ mode: 'range', where: 'top-level' });
  });

  it('sectionPattern: the header and the facts show the pattern', () => {
    const section = layoutOf(docOf('ani.frame'));
    expect(section).toMatchObject({ mode: 'section', where: 'pattern', section: 'FRAME[0-9][0-9][0-9]', scope: ['段名匹配 FRAME[0-9][0-9][0-9]'] });
    expect(section.segments[0]?.boxes[0]).toMatchObject({ role: 'target', position: '[FRAME[0-9][0-9][0-9]]' });
    expect(section.facts.find((f) => f.label === '段名模式')?.value).toContain('FRAME[0-9][0-9][0-9]');
    const token = layoutOf(docOf('ani.group-delay'));
    expect(token).toMatchObject({ mode: 'index', where: 'pattern', scope: ['段名匹配 *DELAY', '仅在 [group] 内'] });
    expect(token.notes.join('\n')).toContain('[*DELAY] 段中');
  });

  it('when: the scope and the facts name each condition', () => {
    const drawing = layoutOf(docOf('qst.seeking-item'));
    expect(drawing.scope).toEqual(['仅当 [type] 第 0 个为 `[seeking]` 或 `[use item]`', '仅当 [level] 第 1 个为 `99`']);
    expect(drawing.facts.find((f) => f.label === '适用条件')?.value).toMatch(/^\[type\] 第 0 个为 `\[seeking\]` 或 `\[use item\]`，且 \[level\] 第 1 个为 `99`（when：/);
  });

  it('countedGroups: a count box and records per group, the target box in its group only', () => {
    const drawing = layoutOf(docOf('stk.recipe-product'));
    expect(drawing.mode).toBe('records');
    const groups = drawing.segments.filter((s) => s.kind === 'group');
    expect(groups.map((g) => g.caption)).toEqual(['组 1（每条 2 个）', '组 2（每条 2 个）', '组 3（每条 3 个）']);
    expect(groups.map((g) => g.boxes[0]?.caption)).toEqual(['条数', '条数', '条数']);
    const targets = (g: (typeof groups)[number]) => (g.children ?? []).flatMap((c) => c.boxes).filter((b) => b.role === 'target').length;
    expect(groups.map(targets)).toEqual([0, 2, 0]);
    expect(drawing.facts.find((f) => f.label === '计数分组')?.value).toContain('第 3 组每条 3 个');
    expect(drawing.facts.find((f) => f.label === '目标')?.value).toBe('第 2 组每条记录内第 0 个（index）');
  });

  it('variableRecords: one record of each width, the target only in the records the rule selects, the count and its tail', async () => {
    const records = { width: 3, widthByFirst: { '[SKILL_LEVEL]': 4 } };
    const own = await compiledBundle([
      await writeRuleLayer([
        { id: 'skill', match: { extensions: ['.equ'] }, target: { kind: 'token', section: 'avatar select ability', index: 2, variableRecords: { ...records, first: ['[SKILL_LEVEL]'] } }, annotation: { title: '技能', type: 'text' } },
        { id: 'socket', match: { extensions: ['.equ'] }, target: { kind: 'token', section: 'avatar type select', variableRecords: { width: 5, countAt: 4, tail: true } }, annotation: { title: '孔', type: 'text' } },
      ]),
    ]);
    const skill = layoutOf(docOf('skill', () => own));
    expect(skill.mode).toBe('records');
    const shapes = skill.segments.find((s) => s.kind === 'group')?.children?.filter((c) => c.kind === 'record') ?? [];
    expect(shapes.map((c) => c.caption)).toEqual(['记录（3 个）：不标注', '首个为 [SKILL_LEVEL] 的记录（4 个）']);
    expect(shapes.map((c) => c.boxes.filter((b) => b.role === 'target').map((b) => b.position))).toEqual([[], ['[2]']]);
    expect(skill.facts.find((f) => f.label === '变宽记录')?.value).toBe('每条 3 个；首个为 [SKILL_LEVEL] 时 4 个（variableRecords）');
    expect(skill.facts.find((f) => f.label === '只取')?.value).toContain('[SKILL_LEVEL]');
    const socket = layoutOf(docOf('socket', () => own));
    const record = socket.segments.find((s) => s.kind === 'group')?.children?.[0];
    expect(record?.caption).toBe('记录（5 个 + N）');
    expect(record?.boxes.map((b) => `${b.position} ${b.role} ${b.caption}`)).toEqual(['[0] token ', '[1] token ', '[2] token ', '[3] token ', '[4] sentinel 条数 N', '[5…] target 目标：N 个']);
    expect(socket.facts.find((f) => f.label === '目标')?.value).toBe('条数之后的每个标记值（tail）');
  });

  it('variableRecords with keyAt: the key column named in the captions and facts, and drawn', async () => {
    const own = await compiledBundle([
      await writeRuleLayer([
        { id: 'job', match: { extensions: ['.qst'] }, target: { kind: 'token', section: 'reward int data', index: 2, variableRecords: { width: 2, keyAt: 1, widthByFirst: { '[job]': 5 }, first: ['[job]'] } }, annotation: { title: '职业', type: 'text' } },
      ]),
    ]);
    const job = layoutOf(docOf('job', () => own));
    const shapes = job.segments.find((s) => s.kind === 'group')?.children?.filter((c) => c.kind === 'record') ?? [];
    expect(shapes.map((c) => c.caption)).toEqual(['记录（2 个）：不标注', '第 1 个为 [job] 的记录（5 个）']);
    expect(shapes.map((c) => c.boxes.filter((b) => b.role === 'target').map((b) => b.position))).toEqual([[], ['[2]']]);
    expect(job.facts.find((f) => f.label === '变宽记录')?.value).toBe('每条 2 个；第 1 个为 [job] 时 5 个（variableRecords）');
    expect(job.facts.find((f) => f.label === '键所在列')?.value).toBe('记录内第 1 个决定宽度与取舍（keyAt）');
    expect(job.facts.find((f) => f.label === '只取')?.value).toBe('第 1 个标记值为 [job] 的记录（first）');
  });

  it('a plain section target is "section"', () => {
    expect(layoutOf(docOf('act.base-ani'))).toMatchObject({ where: 'section', section: 'BASE ANI', scope: [] });
  });
});
