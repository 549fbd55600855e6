import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffBundles } from '../../../build/diff/diff-bundles.js';
import { SnapshotDiffSchema, type DocumentChange, type SnapshotDiff } from '../../../runtime/diff/diff-schema.js';
import { renderDiffMarkdown } from '../../../build/diff/render-markdown.js';
import { renderDiffText } from '../../../build/diff/render-text.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { GOLDEN, openScenario, scenarios, withoutRevisions } from './helpers.js';

const SCENARIOS = [
  'enum-relabelled',
  'moved-between-layers',
  'nothing-changed',
  'relation-changed',
  'rule-added',
  'rule-disabled',
  'rule-removed',
  'target-changed',
  'user-override-added',
  'version-list-changed',
];

const opened = new Map<string, { old: Bundle; new: Bundle; diff: SnapshotDiff }>();

beforeAll(async () => {
  for (const name of SCENARIOS) {
    const sides = await openScenario(name);
    opened.set(name, { ...sides, diff: diffBundles(sides.old, sides.new) });
  }
});

function diffOf(name: string): SnapshotDiff {
  const entry = opened.get(name);
  if (!entry) throw new Error(`no scenario ${name}`);
  return entry.diff;
}

function documents(diff: SnapshotDiff): DocumentChange[] {
  return diff.fileTypes.flatMap((g) => g.documents);
}

describe('golden diffs of the scenario pairs (test/fixtures/diff)', () => {
  it('covers every scenario folder', () => {
    expect(scenarios()).toEqual(SCENARIOS);
  });

  for (const name of SCENARIOS) {
    it(`${name}: text, Markdown and JSON`, async () => {
      const diff = diffOf(name);
      // The JSON output is what the schema describes.
      expect(SnapshotDiffSchema.parse(JSON.parse(JSON.stringify(diff)))).toEqual(diff);
      const clean = (text: string) => withoutRevisions(text, diff.old.rulesRevision, diff.new.rulesRevision);
      await expect(clean(renderDiffText(diff, { color: false }))).toMatchFileSnapshot(path.join(GOLDEN, `${name}.txt`));
      await expect(clean(renderDiffMarkdown(diff))).toMatchFileSnapshot(path.join(GOLDEN, `${name}.md`));
      await expect(clean(`${JSON.stringify(diff, null, 2)}\n`)).toMatchFileSnapshot(path.join(GOLDEN, `${name}.json`));
    });
  }
});

describe('what each scenario reports', () => {
  it('nothing changed: no changes, empty text and Markdown', () => {
    const diff = diffOf('nothing-changed');
    expect(diff.hasChanges).toBe(false);
    expect(diff.old.rulesRevision).toBe(diff.new.rulesRevision);
    expect(renderDiffText(diff, { color: true })).toBe('');
    expect(renderDiffMarkdown(diff)).toBe('');
    expect(diff.fileTypes).toEqual([]);
  });

  it('rule added: one added document under its file type', () => {
    const diff = diffOf('rule-added');
    expect(diff.summary.documents).toEqual({ added: 1, removed: 0, moved: 0, changed: 0 });
    expect(diff.fileTypes.map((g) => g.fileType)).toEqual(['.stk']);
    expect(documents(diff)[0]).toMatchObject({ change: 'added', old: null, new: { id: 'r.price', layer: 'builtin' } });
  });

  it('rule removed: one removed document under (all files)', () => {
    const diff = diffOf('rule-removed');
    expect(diff.summary.documents).toEqual({ added: 0, removed: 1, moved: 0, changed: 0 });
    expect(diff.fileTypes.map((g) => g.fileType)).toEqual(['(all files)']);
    expect(documents(diff)[0]).toMatchObject({ change: 'removed', new: null, old: { id: 'r.cool' } });
  });

  it('target changed: the target member and the title, part by part', () => {
    const [change] = documents(diffOf('target-changed'));
    expect(change?.change).toBe('changed');
    expect(change?.parts).toEqual([
      { part: 'target.index', old: 0, new: 1 },
      { part: 'annotation.title', old: '名称', new: '名称（第二个）' },
    ]);
  });

  it('enum relabelled: a field and its implicit rule share one enum change; a big enum is summarised', () => {
    const diff = diffOf('enum-relabelled');
    const enums = diff.fileTypes.flatMap((g) => g.enumValues);
    const rarity = enums.find((e) => e.documents.some((d) => d.id === 'f.rarity'));
    expect(rarity?.documents.map((d) => `${d.kind} ${d.id}`)).toEqual(['field f.rarity', 'rule field:f.rarity']);
    expect(rarity?.added).toEqual({ count: 1, items: [['5', '传说']] });
    expect(rarity?.relabelled).toEqual({ count: 1, items: [{ key: '1', old: '魔法', new: '魔法装备' }] });
    const job = enums.find((e) => e.documents[0]?.id === 'r.job');
    expect(job).toMatchObject({ oldCount: 30, newCount: 45, added: { count: 15 }, relabelled: { count: 30 }, removed: { count: 0 }, reordered: false });
    expect(job?.added.items).toHaveLength(10);
    expect(job?.relabelled.items).toHaveLength(10);
    expect(renderDiffText(diff, { color: false })).toContain('… 20 more relabelled');
    expect(diff.summary.enumValues).toEqual({ enums: 2, added: 16, removed: 0, relabelled: 31, reordered: 0 });
  });

  it('relation changed: the list path, the union members and a new relation', () => {
    const diff = diffOf('relation-changed');
    expect(diff.relations.map((r) => `${r.change} ${(r.new ?? r.old)?.name ?? ''}`)).toEqual(['added 宠物', 'changed 物品', 'changed 道具']);
    const item = diff.relations.find((r) => r.new?.name === '道具');
    expect(item?.parts[0]).toEqual({ part: 'listPath', old: 'stackable/stackable.lst', new: 'stackable/stackable2.lst' });
    expect(diff.fileTypes).toEqual([]);
  });

  it('user override added: the builtin definition is now overridden in every version', () => {
    const diff = diffOf('user-override-added');
    expect(diff.bundle.layers).toEqual([{ change: 'added', name: 'user', kind: 'user', parts: [] }]);
    const effective = diff.fileTypes.flatMap((g) => g.effective);
    expect(effective).toHaveLength(1);
    expect(effective[0]?.document).toMatchObject({ id: 'r.name', layer: 'builtin', status: 'overridden' });
    expect(effective[0]?.transitions).toHaveLength(1);
    expect(effective[0]?.transitions[0]).toMatchObject({ versions: ['', '90US', '90CN', '110US'], old: { state: 'effective' }, new: { state: 'overridden', effective: false } });
    expect(documents(diff).map((d) => `${d.change} ${d.new?.layer ?? ''}`)).toEqual(['added user', 'changed builtin']);
  });

  it('a rule disabled: the layer setting, the status with its reason and the effective state', () => {
    const diff = diffOf('rule-disabled');
    expect(diff.bundle.layers).toEqual([{ change: 'changed', name: 'user', kind: 'user', parts: [{ part: 'disable', old: [], new: ['rule:r.cool'] }] }]);
    const [change] = documents(diff);
    expect(change?.parts[0]?.part).toBe('status');
    expect(change?.parts[0]?.new).toMatchObject({ status: 'disabled' });
    expect(String((change?.parts[0]?.new as { reason: string }).reason)).toContain('user');
    expect(diff.summary.effective.documents).toBe(1);
  });

  it('version list changed: the new version with its effective count, and the narrowed rule', () => {
    const diff = diffOf('version-list-changed');
    expect(diff.bundle.pvfVersions.added.map((v) => v.version)).toEqual(['110CN']);
    expect(diff.bundle.pvfVersions.removed).toEqual([]);
    const [change] = documents(diff);
    expect(change?.parts).toEqual([{ part: 'pvfVersions', old: [], new: ['110US', '110CN'] }]);
    // States are compared only in the versions both sides know: 110US stays effective, 110CN is new.
    const versions = diff.fileTypes.flatMap((g) => g.effective).flatMap((e) => e.transitions.flatMap((t) => t.versions));
    expect(versions.sort()).toEqual(['', '90CN', '90US']);
  });

  it('moved between layers: moved (new documentId), not removed and added', () => {
    const diff = diffOf('moved-between-layers');
    expect(diff.summary.documents).toEqual({ added: 0, removed: 0, moved: 1, changed: 0 });
    const [change] = documents(diff);
    expect(change).toMatchObject({ change: 'moved', old: { id: 'r.cool', layer: 'builtin' }, new: { id: 'r.cool', layer: 'extra' } });
    expect(change?.old?.documentId).not.toBe(change?.new?.documentId);
    expect(change?.parts).toEqual([
      { part: 'layer', old: 'builtin', new: 'extra' },
      { part: 'source', old: 'builtin', new: 'user' },
    ]);
    // A later layer's rules come first in explain order, so the move changes it.
    expect(diff.bundle.ruleOrder.length).toBeGreaterThan(0);
  });
});

describe('diffBundles properties', () => {
  it('is deterministic and mirrors when the sides swap', () => {
    for (const name of SCENARIOS) {
      const entry = opened.get(name);
      if (!entry) throw new Error(name);
      expect(JSON.stringify(diffBundles(entry.old, entry.new))).toBe(JSON.stringify(entry.diff));
      const back = diffBundles(entry.new, entry.old);
      expect(back.hasChanges).toBe(entry.diff.hasChanges);
      const d = entry.diff.summary.documents;
      expect(back.summary.documents).toEqual({ added: d.removed, removed: d.added, moved: d.moved, changed: d.changed });
      expect(back.summary.effective).toEqual(entry.diff.summary.effective);
    }
  });

  it('a bundle against itself is empty', () => {
    const entry = opened.get('enum-relabelled');
    if (!entry) throw new Error('enum-relabelled');
    expect(diffBundles(entry.new, entry.new).hasChanges).toBe(false);
  });

  it('lists as many enum values per change as asked, counts stay exact', () => {
    const entry = opened.get('enum-relabelled');
    if (!entry) throw new Error('enum-relabelled');
    const none = diffBundles(entry.old, entry.new, { enumSampleSize: 0 });
    const all = diffBundles(entry.old, entry.new, { enumSampleSize: 1000 });
    const job = (d: SnapshotDiff) => d.fileTypes.flatMap((g) => g.enumValues).find((e) => e.documents[0]?.id === 'r.job');
    expect(job(none)?.relabelled).toEqual({ count: 30, items: [] });
    expect(job(all)?.relabelled.items).toHaveLength(30);
    expect(job(all)?.added.items.at(-1)).toEqual(['44', 'job44']);
  });

  it('colours text only when asked', () => {
    const diff = diffOf('rule-added');
    expect(renderDiffText(diff, { color: false })).not.toContain('\u001b[');
    const coloured = renderDiffText(diff, { color: true });
    expect(coloured).toContain('\u001b[32m+ rule r.price');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(renderDiffText(diff, { color: false }));
  });
});
