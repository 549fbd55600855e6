/**
 * coverage:corpus on a folder written for the test: what counts as an explained tag and value.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../runtime/bundle/load-bundle.js';
import { openDirectoryWorkspace } from '../../runtime/workspace/open-directory-workspace.js';
import { formatReport, measureWorkspace, summarise } from '../../scripts/coverage-corpus.js';

let root = '';
let bundle: Bundle;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pvfdoc-corpus-'));
  const layer = path.join(root, 'layer');
  await mkdir(layer);
  await writeFile(path.join(layer, 'layer.json'), JSON.stringify({ name: 'probe', kind: 'user' }));
  const rules = [
    { id: 'note', match: { extensions: ['.equ'] }, target: { kind: 'section', section: 'noted' }, annotation: { title: '只有标签说明', type: 'text' } },
    { id: 'value', match: { extensions: ['.equ'] }, target: { kind: 'token', section: 'valued', index: 0 }, annotation: { title: '第一个值', type: 'text' } },
    { id: 'blank', match: { extensions: ['.equ'] }, target: { kind: 'token', section: 'blank', index: 0 }, annotation: { title: '', type: 'text' } },
  ];
  await writeFile(path.join(layer, 'annotations.json'), JSON.stringify({ version: 1, rules }));
  const compiled = await compileLayers([layer]);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
  bundle = openBuiltBundle(compiled.bundle.files);
  const ws = path.join(root, 'ws');
  await mkdir(path.join(ws, 'equipment'), { recursive: true });
  await writeFile(path.join(ws, 'equipment', 'a.equ'), '[noted]\n1 2\n[valued]\n3 4\n[blank]\n5\n[unknown]\n6\n');
  await writeFile(path.join(ws, 'equipment', 'icon.img'), Buffer.from([0, 1, 2, 0, 0, 0]));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('coverage:corpus counting', () => {
  it('counts a tag explained by its note or by a value; a value only by an annotation that says something', async () => {
    const workspace = await openDirectoryWorkspace({ workspaceId: 'w', name: 'w', root: path.join(root, 'ws') });
    try {
      const { files, skipped } = await measureWorkspace(bundle, workspace);
      expect(skipped).toBe(1);
      const [equ] = summarise(files);
      expect(equ).toMatchObject({ extension: '.equ', files: 1, tags: 4, tagsExplained: 2, values: 6, valuesExplained: 1 });
      expect([...(equ?.uncovered.keys() ?? [])].sort()).toEqual(['blank', 'unknown']);
      // Five values say nothing: both of [noted] (a note on the tag is not about its values), the
      // second of [valued], [blank]'s (an empty title) and [unknown]'s.
      expect(Object.fromEntries(equ?.uncoveredValues ?? [])).toEqual({ noted: 2, valued: 1, blank: 1, unknown: 1 });
      expect(formatReport(summarise(files), 5, skipped)).toContain('- .equ: [noted]×2 [blank]×1 [unknown]×1 [valued]×1');
    } finally {
      await workspace.close();
    }
  });
});
