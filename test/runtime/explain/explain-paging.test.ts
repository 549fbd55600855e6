/**
 * Paging of explainFile when one explanation serves many requests: each filter set's selection is
 * computed once and reused across its pages (explain-file.ts `selectAnnotations`), so pages of
 * different filter sets, interleaved and more numerous than the selections kept, must still each be
 * exactly the slice of their own filtered list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { createExplainCache, explainFile, type ExplainCache } from '../../../runtime/explain/explain-file.js';
import { ExplainOutputSchema, type ExplainOutputAnnotation } from '../../../runtime/explain/explain-schema.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { layerBundle, openFolder, removeTempDirs, WORKSPACE_LAYER } from '../workspace/helpers.js';

const FILE = 'equipment/many.equ';
const BLOCKS = 60;

let bundle: Bundle;
let workspace: Workspace;

beforeAll(async () => {
  bundle = await layerBundle(WORKSPACE_LAYER);
  const text = Array.from({ length: BLOCKS }, (_, i) => `[name]\n\t\`n${i}\`\n[rarity]\n\t${i % 6}\n[stats]\n\t1\t2\t3\n`).join('');
  ({ workspace } = await openFolder({ [FILE]: text }, { pvfVersion: '90US' }));
});

afterAll(async () => {
  await workspace.close();
  removeTempDirs();
});

async function page(cache: ExplainCache, filters: Record<string, unknown>, cursor: string | null, limit: number) {
  const view = await workspace.view();
  const input = { workspaceId: workspace.workspaceId, expectedRevision: view.revision, filePath: FILE, limit, ...filters, ...(cursor === null ? {} : { cursor }) };
  return ExplainOutputSchema.parse(await explainFile({ bundle, workspace, input, cache }));
}

describe('explainFile paging with a shared cache', () => {
  it('gives each filter set its own pages when requests of many filter sets interleave', async () => {
    const filterSets: Record<string, unknown>[] = [
      {},
      { section: 'rarity' },
      { section: 'name' },
      { section: 'stats' },
      { section: 'rarity', occurrence: 3 },
      { section: 'rarity', occurrence: 5, tokenIndex: 0 },
      { startLine: 10 },
      { endLine: 40 },
      { startLine: 20, endLine: 90 },
      { section: 'name', startLine: 100 },
      { section: '[RARITY]' },
    ];
    // The expected list of each set: pages of 100, each computed with a fresh cache.
    const expected: ExplainOutputAnnotation[][] = [];
    for (const filters of filterSets) {
      const list: ExplainOutputAnnotation[] = [];
      let cursor: string | null = null;
      do {
        const out = await page(createExplainCache(), filters, cursor, 100);
        list.push(...out.annotations);
        cursor = out.nextCursor;
      } while (cursor !== null);
      expected.push(list);
    }
    // name token, rarity tag and token, stats range per block.
    expect(expected[0]?.length).toBe(BLOCKS * 4);
    expect(expected[1]).toEqual(expected[10]);

    // Round-robin, one page of 7 at a time per set, all through one cache.
    const cache = createExplainCache();
    const got: ExplainOutputAnnotation[][] = filterSets.map(() => []);
    const cursors: (string | null | undefined)[] = filterSets.map(() => undefined);
    for (let round = 0; cursors.some((c) => c !== null) && round < 100; round++) {
      for (let i = 0; i < filterSets.length; i++) {
        const cursor = cursors[i];
        if (cursor === null) continue;
        const out = await page(cache, filterSets[i] as Record<string, unknown>, cursor ?? null, 7);
        got[i]?.push(...out.annotations);
        cursors[i] = out.nextCursor;
      }
    }
    expect(got).toEqual(expected);
  });

  it('returns copies: changing a returned annotation does not change later pages', async () => {
    const cache = createExplainCache();
    const first = await page(cache, {}, null, 5);
    const original = structuredClone(first.annotations);
    for (const a of first.annotations) a.title = 'changed by the caller';
    expect((await page(cache, {}, null, 5)).annotations).toEqual(original);
  });
});
