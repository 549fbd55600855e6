import { describe, expect, it } from 'vitest';
import { AnchorTable } from '../../../runtime/explain/anchor-table.js';
import { entryAt, type BlockedColumn } from '../../../runtime/script/int-column.js';
import { seededRandom } from '../../support/random.js';

const FIELDS = ['kind', 'section', 'token', 'tokenIndex', 'lastTokenIndex', 'start', 'end', 'record', 'column', 'contextToken', 'imageToken'] as const;

/** Pushes `n` rows of pseudo-random fields (rule changes every 97 rows) and returns what was pushed. */
function fill(table: AnchorTable, n: number, seed: number): number[][] {
  const rand = seededRandom(seed);
  const rows: number[][] = [];
  for (let i = 0; i < n; i++) {
    table.rule = Math.floor(i / 97);
    const row = FIELDS.map(() => Math.floor(rand() * 2 ** 31) - 2 ** 30);
    table.push(...(row as [number, number, number, number, number, number, number, number, number, number, number]));
    rows.push([table.rule, ...row]);
  }
  return rows;
}

describe('AnchorTable', () => {
  it.each([
    ['fewer than expected', 300, 4096],
    ['exactly the first block', 4096, 4096],
    ['one more than the first block', 4097, 4096],
    ['many blocks past a small guess', 50_000, 1024],
    ['a large guess, several full blocks and a short last one', 200_000, 190_000],
  ])('keeps every row in push order: %s', (_name, n, expected) => {
    const table = new AnchorTable(Number.POSITIVE_INFINITY, () => new Error('too many'), expected);
    const rows = fill(table, n, n);
    const a = table.finish();
    expect(a.count).toBe(n);
    const columns = [a.rule, a.kind, a.section, a.token, a.tokenIndex, a.lastTokenIndex, a.start, a.end, a.record, a.column, a.contextToken, a.imageToken];
    for (const column of columns) {
      // Every block but the last is full; together they hold exactly the rows.
      const sizes = column.blocks.map((b) => b.length);
      expect(sizes.slice(0, -1).every((size) => size === 1 << column.bits)).toBe(true);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
    }
    const mismatches = rows.filter((row, i) => row.some((v, f) => entryAt(columns[f] as BlockedColumn, i) !== v));
    expect(mismatches).toEqual([]);
  });

  it('throws the caller’s error at the limit, past any block boundary', () => {
    const table = new AnchorTable(3000, () => new Error('over 3000 anchors'), 1024);
    fill(table, 3000, 1);
    expect(() => fill(table, 1, 2)).toThrow('over 3000 anchors');
    expect(table.count).toBe(3000);
  });
});
