/**
 * Issue 15, finding 1 (a 31 MiB script held the server and gigabytes): explain holds a file in columns,
 * so a text beyond the old 4 Mi limit explains; it refuses texts over MAX_EXPLAIN_TEXT_UNITS (the read
 * limit) before parsing them and files with more than MAX_EXPLAIN_ANNOTATIONS anchors while explaining
 * them, and the explain cache is bounded by the bytes its explanations hold, not by a count of files.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { annotateScript } from '../../../runtime/explain/annotate-script.js';
import { createExplainCache, explainFile, MAX_EXPLAIN_TEXT_UNITS } from '../../../runtime/explain/explain-file.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { caught, layerBundle, openFolder, pollUntil, removeTempDirs, WORKSPACE_LAYER } from '../workspace/helpers.js';

/** A script of `blocks` equipment-like blocks (about 60 characters each). */
function script(blocks: number): string {
  return Array.from({ length: blocks }, (_, i) => `[name]\n\`Sword ${i}\`\n[rarity]\n${i % 5}\n`).join('');
}

let bundle: Bundle;
let workspace: Workspace;
const BIG = `${'[name]\n`x`\n'.repeat(Math.ceil((MAX_EXPLAIN_TEXT_UNITS + 1) / 11))}`;
const LARGE = script(Math.ceil((5 * 1024 * 1024) / 35));

beforeAll(async () => {
  bundle = await layerBundle(WORKSPACE_LAYER);
  ({ workspace } = await openFolder({ 'equipment/big.equ': BIG, 'equipment/large.equ': LARGE, 'equipment/large2.equ': `${LARGE}\n`, 'equipment/a.equ': script(400), 'equipment/b.equ': script(400), 'equipment/c.equ': script(400) }));
});

afterAll(async () => {
  await workspace?.close();
  removeTempDirs();
});

async function explain(filePath: string, cache = createExplainCache(), ws: Workspace = workspace) {
  const expectedRevision = (await ws.view()).revision;
  return explainFile({ bundle, workspace: ws, cache, input: { workspaceId: ws.workspaceId, expectedRevision, filePath } });
}

describe('explain is bounded (issue 15)', () => {
  it('refuses a text over the explain limit with RESPONSE_TOO_LARGE and its size, before any work', async () => {
    expect(BIG.length).toBeGreaterThan(MAX_EXPLAIN_TEXT_UNITS);
    const cache = createExplainCache();
    const error = await caught(() => explain('equipment/big.equ', cache));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.data).toMatchObject({ path: 'equipment/big.equ', size: BIG.length });
    // Refused before any work: nothing was explained, nothing is held.
    expect(cache.files.size).toBe(0);
    // And the files around it still explain.
    expect((await explain('equipment/a.equ', cache)).annotations.length).toBeGreaterThan(0);
  });

  it('explains a file of 5 Mi characters (refused before explanations were held in columns), every page agreeing with annotateScript', async () => {
    const cache = createExplainCache();
    const pages = [];
    let cursor: string | undefined;
    do {
      const expectedRevision = (await workspace.view()).revision;
      const page = await explainFile({ bundle, workspace, cache, input: { workspaceId: workspace.workspaceId, expectedRevision, filePath: 'equipment/large.equ', limit: 500, cursor } });
      pages.push(page);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined && pages.length < 3);
    const all = annotateScript({ bundle, versionKey: '90US', filePath: 'equipment/large.equ', text: LARGE }).annotations;
    expect(all.length).toBeGreaterThan(200_000);
    const got = pages.flatMap((p) => p.annotations);
    expect(pages).toHaveLength(3);
    expect(got.length).toBeGreaterThan(100);
    expect(got.map((a) => [a.range.start, a.range.end, a.title, a.value])).toEqual(all.slice(0, got.length).map((a) => [a.range.start, a.range.end, a.title, a.value]));
    expect(cache.files.size).toBeGreaterThan(LARGE.length);
  });

  it('stops explaining a file once it has more annotations than the limit, with RESPONSE_TOO_LARGE', () => {
    const text = script(50);
    const all = annotateScript({ bundle, versionKey: '90US', filePath: 'equipment/x.equ', text }).annotations.length;
    expect(all).toBeGreaterThan(20);
    expect(annotateScript({ bundle, versionKey: '90US', filePath: 'equipment/x.equ', text, maxAnnotations: all }).annotations).toHaveLength(all);
    let error: unknown;
    try {
      annotateScript({ bundle, versionKey: '90US', filePath: 'equipment/x.equ', text, maxAnnotations: 20 });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', data: { path: 'equipment/x.equ', limit: 20 } });
  });

  it('stops reading a file once it has more distinct section names than a quarter of the limit (each costs more than an anchor)', () => {
    const text = Array.from({ length: 20 }, (_, i) => `[tag ${i}]\n${i}\n`).join('');
    let error: unknown;
    try {
      annotateScript({ bundle, versionKey: '90US', filePath: 'equipment/names.equ', text, maxAnnotations: 40 });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', data: { path: 'equipment/names.equ', limit: 10 } });
    // The same names repeated are one name each: that file is read.
    const repeated = Array.from({ length: 200 }, (_, i) => `[tag ${i % 5}]\n${i}\n`).join('');
    expect(() => annotateScript({ bundle, versionKey: '90US', filePath: 'equipment/names.equ', text: repeated, maxAnnotations: 40 })).not.toThrow();
  });

  it('keeps explanations by the bytes they hold: older ones go when the budget is full, one over it is not kept', async () => {
    const probe = createExplainCache();
    await explain('equipment/a.equ', probe);
    const one = probe.files.size;
    expect(one).toBeGreaterThan(0);
    const cache = createExplainCache(2 * one + 1);
    await explain('equipment/a.equ', cache);
    await explain('equipment/b.equ', cache);
    expect(cache.files.size).toBe(2 * one);
    await explain('equipment/c.equ', cache);
    expect(cache.files.size).toBe(2 * one);
    const small = createExplainCache(one - 1);
    await explain('equipment/a.equ', small);
    expect(small.files.size).toBe(0);
  });

  it('drops the explanations of a revision once a newer one of the workspace is explained', async () => {
    const { workspace: edited, root } = await openFolder({ 'equipment/a.equ': script(400), 'equipment/b.equ': script(400), 'equipment/c.equ': script(10) });
    try {
      const cache = createExplainCache();
      const explainIn = (filePath: string) => explain(filePath, cache, edited);
      await explainIn('equipment/a.equ');
      const one = cache.files.size;
      await explainIn('equipment/b.equ');
      expect(cache.files.size).toBe(2 * one);
      // Another file changes: a and b of the old revision can no longer be asked for.
      const before = (await edited.view()).revision;
      writeFileSync(path.join(root, 'equipment', 'c.equ'), script(11));
      await pollUntil(async () => ((await edited.view()).revision > before ? true : undefined), 10_000, 'the new revision');
      await explainIn('equipment/a.equ');
      expect(cache.files.size).toBe(one);
    } finally {
      await edited.close();
    }
  });

  it('makes room in the cache before a large text is explained, and explains large texts one at a time', async () => {
    const probe = createExplainCache();
    await explain('equipment/large.equ', probe);
    const large = probe.files.size;
    await explain('equipment/a.equ', probe);
    await explain('equipment/b.equ', probe);
    const small = probe.files.size - large;
    // Room for exactly the large explanation and the two small ones: without making room first, all three stay.
    const cache = createExplainCache(large + small);
    await explain('equipment/a.equ', cache);
    await explain('equipment/b.equ', cache);
    expect(cache.files.size).toBe(small);
    await explain('equipment/large.equ', cache);
    expect(cache.files.size).toBe(large);
    // Two large requests at once: the second waits for the first (one turn), both answered.
    const other = createExplainCache();
    const first = explain('equipment/large.equ', other);
    const firstTurn = await pollUntil(() => other.largeTurn ?? undefined, 10_000, 'the first large turn');
    const second = explain('equipment/large2.equ', other);
    await pollUntil(() => (other.largeTurn !== firstTurn ? true : undefined), 10_000, 'the second large turn');
    const [a, b] = await Promise.all([first, second]);
    expect(a.annotations.length).toBeGreaterThan(0);
    expect(b.annotations.length).toBeGreaterThan(0);
    expect(other.largeTurn).toBeNull();
  });

  it('two requests for one file at once share one explanation', async () => {
    const cache = createExplainCache();
    const [a, b] = await Promise.all([explain('equipment/b.equ', cache), explain('equipment/b.equ', cache)]);
    expect(a).toEqual(b);
    expect(cache.pending.size).toBe(0);
    const probe = createExplainCache();
    await explain('equipment/b.equ', probe);
    expect(cache.files.size).toBe(probe.files.size);
  });

  it('a cached explanation answers the next page without explaining again', async () => {
    const cache = createExplainCache();
    const first = await explain('equipment/a.equ', cache);
    const held = cache.files.size;
    const expectedRevision = (await workspace.view()).revision;
    const next = await explainFile({ bundle, workspace, cache, input: { workspaceId: workspace.workspaceId, expectedRevision, filePath: 'equipment/a.equ', cursor: first.nextCursor ?? undefined } });
    expect(next.annotations.length).toBeGreaterThan(0);
    expect(cache.files.size).toBe(held);
  });
});
