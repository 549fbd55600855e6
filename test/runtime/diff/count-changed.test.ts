import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../../build/compile-layers.js';
import { writeBundle } from '../../../build/write-bundle.js';
import { openBuiltBundle } from '../../../runtime/bundle/load-bundle.js';
import { countChangedDocuments, countChangedSince } from '../../../runtime/diff/count-changed.js';
import { layerDirs, openScenario } from '../../build/diff/helpers.js';

const idOf = (bundle: { documents: readonly { documentId: string; layer: string; kind: string; id: string }[] }, layer: string, kind: string, id: string) => {
  const doc = bundle.documents.find((d) => d.layer === layer && d.kind === kind && d.id === id);
  if (!doc) throw new Error(`no ${layer}/${kind}/${id}`);
  return doc.documentId;
};

describe('countChangedDocuments', () => {
  it('counts the documents a client holds that a user override changed', async () => {
    const { old, new: neu } = await openScenario('user-override-added');
    const held = old.documents.map((d) => d.documentId);
    const result = countChangedDocuments(old, neu, held);
    expect(result).toEqual({
      total: held.length,
      unchanged: held.length - 1,
      changed: 1,
      removed: 0,
      unknown: 0,
      changedDocumentIds: [idOf(old, 'builtin', 'rule', 'r.name')],
    });
  });

  it('counts enum changes, removed (moved) documents and ids the old snapshot never had', async () => {
    const relabelled = await openScenario('enum-relabelled');
    const rarity = idOf(relabelled.old, 'builtin', 'field', 'f.rarity');
    const implicit = idOf(relabelled.old, 'builtin', 'rule', 'field:f.rarity');
    const name = idOf(relabelled.old, 'builtin', 'rule', 'r.name');
    expect(countChangedDocuments(relabelled.old, relabelled.new, [rarity, implicit, name, rarity, 'nope'])).toEqual({
      total: 4,
      unchanged: 1,
      changed: 2,
      removed: 0,
      unknown: 1,
      changedDocumentIds: [rarity, implicit],
    });
    const moved = await openScenario('moved-between-layers');
    const cool = idOf(moved.old, 'builtin', 'rule', 'r.cool');
    expect(countChangedDocuments(moved.old, moved.new, [cool])).toMatchObject({ removed: 1, changed: 0, changedDocumentIds: [cool] });
  });

  it('counts per-version state changes and nothing for identical snapshots', async () => {
    const versions = await openScenario('version-list-changed');
    const item = idOf(versions.old, 'builtin', 'rule', 'r.item');
    expect(countChangedDocuments(versions.old, versions.new, [item]).changed).toBe(1);
    const same = await openScenario('nothing-changed');
    const all = same.old.documents.map((d) => d.documentId);
    expect(countChangedDocuments(same.old, same.new, all)).toMatchObject({ unchanged: all.length, changed: 0, removed: 0 });
  });
});

describe('countChangedSince (an old revision still on disk)', () => {
  let snapshots: string;
  let oldRevision: string;

  beforeAll(async () => {
    snapshots = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-diff-count-'));
    const built = await compileLayers(layerDirs('rule-disabled', 'old'));
    if (!built.ok) throw new Error('fixture does not compile');
    await writeBundle(snapshots, built.bundle, { setCurrent: false });
    oldRevision = built.bundle.rulesRevision;
  });

  afterAll(async () => {
    await rm(snapshots, { recursive: true, force: true });
  });

  it('loads the old bundle and counts', async () => {
    const built = await compileLayers(layerDirs('rule-disabled', 'new'));
    if (!built.ok) throw new Error('fixture does not compile');
    const active = openBuiltBundle(built.bundle.files);
    const cool = idOf(active, 'builtin', 'rule', 'r.cool');
    const name = idOf(active, 'builtin', 'rule', 'r.name');
    expect(await countChangedSince(snapshots, oldRevision, active, [cool, name])).toMatchObject({ total: 2, changed: 1, unchanged: 1, changedDocumentIds: [cool] });
  });

  it('returns null for a revision that is not on disk, or is not a revision at all', async () => {
    const built = await compileLayers(layerDirs('rule-disabled', 'new'));
    if (!built.ok) throw new Error('fixture does not compile');
    const active = openBuiltBundle(built.bundle.files);
    expect(await countChangedSince(snapshots, '0123456789abcdef0123', active, [])).toBeNull();
    expect(await countChangedSince(snapshots, '../../etc', active, [])).toBeNull();
    expect(await countChangedSince(path.join(snapshots, 'missing'), oldRevision, active, [])).toBeNull();
  });
});
