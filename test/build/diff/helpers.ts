import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { openDiffSides } from '../../../build/diff/open-sides.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const FIXTURES = path.join(ROOT, 'test/fixtures/diff');
export const GOLDEN = path.join(ROOT, 'test/golden/diff');

/** Scenario folders: test/fixtures/diff/<scenario>/{old,new}/<n>-<layer>/. */
export function scenarios(): string[] {
  return readdirSync(FIXTURES)
    .filter((name) => statSync(path.join(FIXTURES, name)).isDirectory())
    .sort();
}

/** Layer folders of one side, in build order (their names start with the position). */
export function layerDirs(scenario: string, side: 'old' | 'new'): string[] {
  const dir = path.join(FIXTURES, scenario, side);
  return readdirSync(dir)
    .sort()
    .map((name) => path.join(dir, name));
}

/** Both sides of a scenario compiled in memory, through the same code as `pvfdoc diff --old-layer`. */
export async function openScenario(scenario: string): Promise<{ old: Bundle; new: Bundle }> {
  const sides = await openDiffSides(
    { old: { kind: 'layers', dirs: layerDirs(scenario, 'old') }, new: { kind: 'layers', dirs: layerDirs(scenario, 'new') } },
    path.join(FIXTURES, 'no-snapshots'),
  );
  return { old: sides.old.bundle, new: sides.new.bundle };
}

/** Goldens must not change when the bundle format (and so every revision) does. */
export function withoutRevisions(text: string, oldRevision: string, newRevision: string): string {
  return text.replaceAll(oldRevision, '<old-revision>').replaceAll(newRevision, '<new-revision>');
}
