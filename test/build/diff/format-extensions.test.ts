/**
 * `pvfdoc diff` reports changes of pvfdoc's format extensions as field changes like any other part:
 * trust, sources, target.parent / target.notInside, annotation.sentinels / annotation.columns.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffBundles } from '../../../build/diff/diff-bundles.js';
import { openDiffSides } from '../../../build/diff/open-sides.js';
import { renderDiffMarkdown } from '../../../build/diff/render-markdown.js';
import { renderDiffText } from '../../../build/diff/render-text.js';
import type { SnapshotDiff } from '../../../runtime/diff/diff-schema.js';
import { ROOT } from './helpers.js';

const LAYER = path.join(ROOT, 'test/fixtures/layers/format-extensions');

let work = '';
let diff: SnapshotDiff;

type Json = Record<string, unknown> & { rules: Record<string, unknown>[] };

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-diff-extensions-'));
  const newDir = path.join(work, 'new');
  await cp(LAYER, newDir, { recursive: true });
  const file = path.join(newDir, 'annotations.json');
  const doc = JSON.parse(await readFile(file, 'utf8')) as Json;
  const rule = (id: string) => doc.rules.find((r) => r.id === id) as Record<string, unknown> & { target: Record<string, unknown>; annotation: Record<string, unknown> };
  rule('skl.condition value').trust = 'likely';
  rule('skl.condition value').sources = ['OFF/skill.skl', 'KR/skill.skl'];
  rule('skl.plain value').target.notInside = ['skill apply condition', 'group'];
  rule('skl.condition tag').target.parent = 'other';
  rule('qst.npc').annotation.sentinels = { '-1': '没有 NPC' };
  rule('qst.list').annotation.columns = ['任务编号', '发布任务的 NPC'];
  await writeFile(file, JSON.stringify(doc));
  const sides = await openDiffSides({ old: { kind: 'layers', dirs: [LAYER] }, new: { kind: 'layers', dirs: [newDir] } }, path.join(work, 'no-snapshots'));
  diff = diffBundles(sides.old.bundle, sides.new.bundle);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const partsOf = (id: string) =>
  diff.fileTypes
    .flatMap((g) => g.documents)
    .filter((c) => (c.new ?? c.old)?.id === id)
    .flatMap((c) => c.parts.map((p) => [p.part, p.old, p.new]));

describe('diff of the format extensions', () => {
  it('reports a changed trust and sources as field changes', () => {
    expect(partsOf('skl.condition value')).toEqual([
      ['trust', 'confirmed', 'likely'],
      ['sources', ['OFF/skill.skl'], ['OFF/skill.skl', 'KR/skill.skl']],
    ]);
  });

  it('reports parent, notInside, sentinels and columns as target and annotation members', () => {
    expect(partsOf('skl.plain value')).toEqual([['target.notInside', ['skill apply condition'], ['skill apply condition', 'group']]]);
    expect(partsOf('skl.condition tag')).toEqual([['target.parent', 'Skill Apply Condition', 'other']]);
    expect(partsOf('qst.npc')).toEqual([['annotation.sentinels', [['-1', '无 NPC'], ['0', '任意 NPC']], [['-1', '没有 NPC']]]]);
    expect(partsOf('qst.list')).toEqual([['annotation.columns', ['任务 {record} 编号', '发布任务的 NPC', ''], ['任务编号', '发布任务的 NPC']]]);
  });

  it('shows them in the text and Markdown reports', () => {
    const text = renderDiffText(diff, { color: false });
    expect(text).toContain('trust: "confirmed" → "likely"');
    expect(text).toContain('target.parent: "Skill Apply Condition" → "other"');
    expect(renderDiffMarkdown(diff)).toContain('`trust`: `"confirmed"` → `"likely"`');
  });
});
