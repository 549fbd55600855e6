import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffBundles } from '../../../build/diff/diff-bundles.js';
import { SnapshotDiffSchema, type SnapshotDiff } from '../../../runtime/diff/diff-schema.js';
import { openDiffSides } from '../../../build/diff/open-sides.js';
import { codeSpan, markdownText, renderDiffMarkdown } from '../../../build/diff/render-markdown.js';
import { renderDiffText } from '../../../build/diff/render-text.js';
import { layerDirs } from './helpers.js';

type Json = Record<string, unknown>;

let work: string;
const BASE = layerDirs('nothing-changed', 'old')[0] as string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-diff-edge-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A copy of the base layer with `edit` applied to its parsed files. */
async function variant(name: string, edit: (files: Record<string, Json>) => void): Promise<string> {
  const dir = path.join(work, name);
  await cp(BASE, dir, { recursive: true });
  const files: Record<string, Json> = {};
  for (const file of ['layer.json', 'annotations.json', 'lists.json', 'rendering.json']) {
    files[file] = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Json;
  }
  edit(files);
  for (const [file, value] of Object.entries(files)) await writeFile(path.join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
  return dir;
}

async function diffLayers(oldDirs: string[], newDirs: string[]): Promise<SnapshotDiff> {
  const sides = await openDiffSides({ old: { kind: 'layers', dirs: oldDirs }, new: { kind: 'layers', dirs: newDirs } }, work);
  return diffBundles(sides.old.bundle, sides.new.bundle);
}

const rules = (files: Record<string, Json>) => (files['annotations.json'] as { rules: Json[] }).rules;

describe('diff edge cases', () => {
  it('a definition that differs only as written is reported by its raw part', async () => {
    const dir = await variant('raw-only', (files) => {
      const cool = rules(files).find((r) => r.id === 'r.cool') as { annotation: Json };
      cool.annotation.content = '';
    });
    const diff = await diffLayers([BASE], [dir]);
    const changes = diff.fileTypes.flatMap((g) => g.documents);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.parts.map((p) => p.part)).toEqual(['raw']);
  });

  it('reordered relations: a note instead of an empty diff; reordered rendering rules: the precedence order', async () => {
    const relations = await variant('relations-reordered', (files) => {
      const lists = files['lists.json'] as { relations: Record<string, Json> };
      const { 装备: a, 道具: b, 物品: c } = lists.relations as Record<string, Json>;
      lists.relations = { 道具: b as Json, 装备: a as Json, 物品: c as Json };
    });
    const relationsDiff = await diffLayers([BASE], [relations]);
    expect(relationsDiff.old.rulesRevision).not.toBe(relationsDiff.new.rulesRevision);
    expect(relationsDiff.hasChanges).toBe(true);
    expect(relationsDiff.relations).toEqual([]);
    expect(relationsDiff.bundle.notes).toHaveLength(1);
    expect(renderDiffText(relationsDiff, { color: false })).toContain('note: the rules revisions differ');

    const twoRules = await variant('rendering-two', (files) => {
      const rendering = files['rendering.json'] as { rules: Json[] };
      rendering.rules.push({ id: 'file.equ', match: { extensions: ['.equ'] }, target: { kind: 'file' }, format: { tokensPerLine: 3 } });
    });
    const swapped = await variant('rendering-swapped', (files) => {
      const rendering = files['rendering.json'] as { rules: Json[] };
      rendering.rules.unshift({ id: 'file.equ', match: { extensions: ['.equ'] }, target: { kind: 'file' }, format: { tokensPerLine: 3 } });
    });
    const renderingDiff = await diffLayers([twoRules], [swapped]);
    expect(renderingDiff.bundle.renderingOrder).toBe(true);
    expect(renderingDiff.rendering).toEqual([]);
    const added = await diffLayers([BASE], [twoRules]);
    expect(added.bundle.renderingOrder).toBe(false);
    expect(added.rendering).toEqual([{ change: 'added', old: null, new: { id: 'file.equ', layer: 'builtin', status: 'effective' }, parts: [] }]);
  });

  it('a renamed layer: its definitions moved, the layer removed and added', async () => {
    const renamed = await variant('renamed', (files) => {
      (files['layer.json'] as Json).name = 'core';
    });
    const diff = await diffLayers([BASE], [renamed]);
    expect(diff.summary.documents.added + diff.summary.documents.removed).toBe(0);
    expect(diff.summary.documents.moved).toBe(diff.old.documents);
    expect(diff.summary.relations.moved).toBe(3);
    expect(diff.bundle.layers.map((l) => `${l.change} ${l.name}`)).toEqual(['added core', 'removed builtin']);
    // Nothing but the layer changed, so no document lists another part.
    for (const c of diff.fileTypes.flatMap((g) => g.documents)) expect(c.parts.map((p) => p.part)).toEqual(['layer']);
  });

  it('rule text cannot become Markdown or HTML', async () => {
    expect(markdownText('*bold* <script>x</script> [a](b) | `c` &amp;')).toBe(
      '\\*bold\\* \\<script\\>x\\</script\\> \\[a\\](b) \\| \\`c\\` \\&amp;',
    );
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('line\nbreak')).toBe('`line break`');
    const dir = await variant('markup-title', (files) => {
      const name = rules(files).find((r) => r.id === 'r.name') as { annotation: Json };
      name.annotation.title = '<b>名称</b> *x*';
    });
    const md = renderDiffMarkdown(await diffLayers([BASE], [dir]));
    expect(md).toContain('\\<b\\>名称\\</b\\> \\*x\\*');
    // Inside code spans it is literal text; outside them it is always escaped.
    expect(md.replace(/(`+)[^`]*?\1/g, '')).not.toMatch(/(^|[^\\])</m);
  });

  it('the JSON schema converts to a JSON Schema for tools', () => {
    const schema = z.toJSONSchema(SnapshotDiffSchema) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(['formatVersion', 'old', 'new', 'hasChanges', 'summary', 'bundle', 'fileTypes', 'relations', 'rendering']);
  });
});
