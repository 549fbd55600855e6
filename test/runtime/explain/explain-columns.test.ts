/**
 * Explanations held in columns (issues 15 and 16): the span order is the stable order by start and end,
 * the warning count survives the cap on kept warnings, and the columns grow without losing entries.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { createExplainCache, explainFile, MAX_EXPLAIN_WARNINGS } from '../../../runtime/explain/explain-file.js';
import { sortBySpan } from '../../../runtime/explain/span-order.js';
import { IntColumn, wholeColumn, type BlockedColumn } from '../../../runtime/script/int-column.js';
import { MAX_VIEW_WARNINGS } from '../../../runtime/script/parse-script-view.js';
import { runSteps } from '../../../runtime/script/run-steps.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { layerBundle, openFolder, removeTempDirs, WORKSPACE_LAYER } from '../workspace/helpers.js';

function sorted(start: Int32Array, end: Int32Array): Int32Array {
  return runSteps(sortBySpan(wholeColumn(start), wholeColumn(end), start.length));
}

describe('sortBySpan', () => {
  it('orders ids by start, then end, then id, for offsets up to 2^26 - 1', () => {
    const offset = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 2 ** 26 - 1 }), fc.constantFrom(8191, 8192, 8193, 2 ** 26 - 1));
    fc.assert(
      fc.property(fc.array(fc.tuple(offset, offset), { maxLength: 300 }), (pairs) => {
        const start = Int32Array.from(pairs.map(([a, b]) => Math.min(a, b)));
        const end = Int32Array.from(pairs.map(([a, b]) => Math.max(a, b)));
        const expected = pairs.map((_, i) => i).sort((a, b) => (start[a] as number) - (start[b] as number) || (end[a] as number) - (end[b] as number) || a - b);
        expect([...sorted(start, end)]).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('reads columns kept in blocks as the same column whole', () => {
    const blocked = (column: Int32Array, bits: number): BlockedColumn => ({
      bits,
      blocks: Array.from({ length: Math.max(1, Math.ceil(column.length / 2 ** bits)) }, (_, b) => column.subarray(b * 2 ** bits, (b + 1) * 2 ** bits)),
    });
    const offset = fc.integer({ min: 0, max: 5000 });
    fc.assert(
      fc.property(fc.array(fc.tuple(offset, offset), { maxLength: 200 }), fc.integer({ min: 0, max: 5 }), (pairs, bits) => {
        const start = Int32Array.from(pairs.map(([a, b]) => Math.min(a, b)));
        const end = Int32Array.from(pairs.map(([a, b]) => Math.max(a, b)));
        expect([...runSteps(sortBySpan(blocked(start, bits), blocked(end, bits), start.length))]).toEqual([...sorted(start, end)]);
      }),
      { numRuns: 200 },
    );
  });

  it('yields after each pass (one per 11 bits of the largest start) and after ordering equal starts', () => {
    const passes = (start: Int32Array, end: Int32Array) => {
      const steps = sortBySpan(wholeColumn(start), wholeColumn(end), start.length);
      let yields = 0;
      for (let step = steps.next(); !step.done; step = steps.next()) yields++;
      return yields;
    };
    expect(passes(Int32Array.of(3, 1, 2), Int32Array.of(4, 2, 3))).toBe(2);
    expect(passes(Int32Array.of(3, 2047), Int32Array.of(4, 2048))).toBe(2);
    expect(passes(Int32Array.of(3, 2048), Int32Array.of(4, 2049))).toBe(3);
    expect(passes(Int32Array.of(3, 1), Int32Array.of(4, 70_001))).toBe(2);
    expect(passes(Int32Array.of(3, 2 ** 22 - 1), Int32Array.of(4, 2 ** 22))).toBe(3);
  });

  it('orders long runs of one start by end, then id (the comparison-sort path)', () => {
    const n = 200;
    const start = new Int32Array(n).fill(7);
    const end = Int32Array.from({ length: n }, (_, i) => 7 + ((i * 37) % 11));
    const expected = [...Array(n).keys()].sort((a, b) => (end[a] as number) - (end[b] as number) || a - b);
    expect([...sorted(start, end)]).toEqual(expected);
  });
});

describe('IntColumn', () => {
  it('keeps every entry across growth and trims its copy', () => {
    const column = new IntColumn(16);
    for (let i = 0; i < 10_000; i++) column.push(i * 3 - 7);
    const done = column.finish();
    expect(done.length).toBe(10_000);
    expect(done[0]).toBe(-7);
    expect(done[9_999]).toBe(9_999 * 3 - 7);
    expect(column.at(5)).toBe(8);
  });
});

describe('explain warnings beyond the kept ones', () => {
  let bundle: Bundle;
  let workspace: Workspace;
  const STRAYS = 5_000;

  beforeAll(async () => {
    bundle = await layerBundle(WORKSPACE_LAYER);
    ({ workspace } = await openFolder({ 'equipment/strays.equ': `[name]\n\`x\`\n${'[/nothing]\n'.repeat(STRAYS)}[rarity]\n4\n` }));
  });

  afterAll(async () => {
    await workspace?.close();
    removeTempDirs();
  });

  it('counts every warning in the truncation note, though the view keeps only the first MAX_VIEW_WARNINGS', async () => {
    expect(STRAYS).toBeGreaterThan(MAX_VIEW_WARNINGS);
    const expectedRevision = (await workspace.view()).revision;
    const out = await explainFile({ bundle, workspace, cache: createExplainCache(), input: { workspaceId: workspace.workspaceId, expectedRevision, filePath: 'equipment/strays.equ' } });
    expect(out.warnings).toHaveLength(MAX_EXPLAIN_WARNINGS);
    const note = out.warnings.at(-1);
    expect(note?.code).toBe('EXPLAIN_WARNINGS_TRUNCATED');
    expect(note?.message).toContain(`${STRAYS - (MAX_EXPLAIN_WARNINGS - 1)} more warnings are not shown (${STRAYS} in all)`);
    // The sections after the strays are still explained.
    expect(out.annotations.some((a) => a.section === 'rarity')).toBe(true);
  });
});
