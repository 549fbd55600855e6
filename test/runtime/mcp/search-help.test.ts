/**
 * Issue 14, point 5 (search that helps), through a real SDK Client with the builtin rules: a shared
 * field and its implicit `field:<id>` rule are one hit, an unknown relation or section gets a warning
 * naming the closest known names, and a query that finds nothing gets shorter queries that would match,
 * with their counts only — the filters are never loosened (protocol: 规则搜索).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCurrentBundle } from '../../../runtime/bundle/watch-current.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { PvfAnnotationSearchOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-search.js';
import { closestNames, MAX_SUGGESTION_TRIES, shorterQueries } from '../../../runtime/search/search-documents.js';
import type { SearchOutput } from '../../../runtime/search/search-schema.js';
import { buildSnapshot, callOk, connect, tempDir, type Connected } from './helpers.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let conn: Connected;

beforeAll(async () => {
  tmp = await tempDir('mcp-search-help');
  const snapshots = path.join(tmp.dir, 'snapshots');
  await buildSnapshot(snapshots);
  conn = await connect({ rules: createRulesHolder(await loadCurrentBundle(snapshots)), workspaces: new Map() });
});

afterAll(async () => {
  await conn?.close();
  await tmp?.cleanup();
});

function search(args: Record<string, unknown>): Promise<{ out: SearchOutput; text: string }> {
  return callOk(conn.client, 'pvf_annotation_search', { pvfVersion: 'all', limit: 100, ...args }, PvfAnnotationSearchOutputSchema);
}

describe('search: one hit per shared field (issue 14)', () => {
  it('gives a shared field and its implicit rule as one hit, the field naming the rule', async () => {
    const { out, text } = await search({ query: '稀有度' });
    const fieldHits = out.items.filter((i) => i.kind === 'field');
    expect(fieldHits.length).toBeGreaterThan(0);
    // No implicit rule beside its own field any more.
    const ruleIds = new Set(out.items.map((i) => i.ruleId));
    for (const field of fieldHits) {
      expect(ruleIds.has(`field:${field.fieldId ?? ''}`), field.fieldId ?? '').toBe(false);
      expect(field.implicitRuleId).toBe(`field:${field.fieldId ?? ''}`);
      expect(field.implicitRuleDocumentId).toEqual(expect.any(String));
    }
    expect(out.items.filter((i) => i.kind === 'rule').every((i) => i.implicitRuleId === undefined)).toBe(true);
    expect(out.totalMatches).toBe(out.items.length);
    expect(text).toContain('(+ rule field:builtin.equ.rarity');

    // Paging counts merged hits: one item a page gives the same hits.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: SearchOutput = (await search({ query: '稀有度', limit: 10, ...(cursor ? { cursor } : {}) })).out;
      expect(page.totalMatches).toBe(out.totalMatches);
      paged.push(...page.items.map((i) => i.documentId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(out.items.map((i) => i.documentId));
  });

  it('still finds the implicit rule alone when only rules are asked for', async () => {
    const fields = (await search({ query: '稀有度' })).out.items.filter((i) => i.kind === 'field');
    const rules = (await search({ query: '稀有度', kinds: ['rule'] })).out.items;
    for (const field of fields) {
      const rule = rules.find((r) => r.ruleId === field.implicitRuleId);
      expect(rule).toMatchObject({ kind: 'rule', origin: 'generated', documentId: field.implicitRuleDocumentId });
      expect(rule?.implicitRuleId).toBeUndefined();
    }
    // Fields alone: the implicit rule is not a hit, so the field names none.
    const onlyFields = (await search({ query: '稀有度', kinds: ['field'] })).out.items;
    expect(onlyFields.length).toBe(fields.length);
    expect(onlyFields.every((i) => i.implicitRuleId === null && i.implicitRuleDocumentId === null)).toBe(true);
  });
});

describe('search: warnings for unknown names (issue 14)', () => {
  it('warns about an unknown relation, naming the closest known ones, and still matches nothing', async () => {
    const { out, text } = await search({ relation: 'skill' });
    expect(out.items).toEqual([]);
    expect(out.totalMatches).toBe(0);
    expect(out.suggestions).toBeUndefined();
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings?.[0]).toMatch(/relation "skill"/);
    expect(out.warnings?.[0]).toContain('"技能"');
    expect((out.warnings?.[0]?.match(/"[^"]*"/gu) ?? []).length - 1).toBeLessThanOrEqual(5);
    expect(text).toContain('warning: no definition has relation "skill"');
    // A known relation: no warning.
    const known = (await search({ relation: '技能' })).out;
    expect(known.totalMatches).toBeGreaterThan(0);
    expect(known.warnings).toBeUndefined();
  });

  it('warns about a section no definition has; the results stay exactly as filtered', async () => {
    const { out } = await search({ section: '[rarty]', query: '稀有度' });
    expect(out.items).toEqual([]);
    expect(out.totalMatches).toBe(0);
    expect(out.warnings?.[0]).toMatch(/section "rarty"; closest known: "rarity"/);
    // Suggestions keep the section too: no shorter query finds anything under it.
    expect(out.suggestions).toBeUndefined();
    expect((await search({ section: 'rarity' })).out.warnings).toBeUndefined();
    // A section that only a sectionPattern fits is known.
    const usable = (await search({ section: 'usable' })).out;
    expect(usable.warnings?.[0]).toContain('"usable job"');
  });
});

describe('search: suggestions when nothing matches (issue 14)', () => {
  it('lists shorter queries by dropping words, with the counts a search of each gives', async () => {
    const { out, text } = await search({ query: '物理攻击力 没有这个词', annotationTypes: ['text'] });
    expect(out.items).toEqual([]);
    expect(out.totalMatches).toBe(0);
    expect(out.suggestions?.map((s) => s.query)).toEqual(['物理攻击力']);
    for (const s of out.suggestions ?? []) {
      // The same filters: the count is that of the shorter query with annotationTypes kept.
      expect(s.totalMatches).toBe((await search({ query: s.query, annotationTypes: ['text'] })).out.totalMatches);
      expect(s.totalMatches).toBeGreaterThan(0);
    }
    expect(text).toMatch(/shorter queries that match: "物理攻击力" \(\d+\)/u);
  });

  it('lists shorter substrings of a single Chinese word, never the loosened results', async () => {
    const { out } = await search({ query: '物理攻击力翻倍' });
    expect(out.items).toEqual([]);
    expect(out.totalMatches).toBe(0);
    const suggestions = out.suggestions ?? [];
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(MAX_SUGGESTION_TRIES);
    for (const s of suggestions) {
      expect('物理攻击力翻倍'.includes(s.query)).toBe(true);
      expect(s.query.length).toBeLessThan('物理攻击力翻倍'.length);
      expect(s.totalMatches).toBe((await search({ query: s.query })).out.totalMatches);
    }
    expect(suggestions.map((s) => s.query)).toContain('物理攻击力');
  });

  it('gives no suggestions when there are matches or no query', async () => {
    expect((await search({ query: '稀有度' })).out.suggestions).toBeUndefined();
    expect((await search({ relation: 'skill' })).out.suggestions).toBeUndefined();
  });
});

describe('search: bounded helpers', () => {
  it('tries at most MAX_SUGGESTION_TRIES shorter queries, longest first', () => {
    expect(shorterQueries(['a', 'b', 'c'])).toEqual([['a', 'b'], ['a', 'c'], ['b', 'c']]);
    const many = shorterQueries(['一二三四五六七八九十']);
    expect(many).toHaveLength(MAX_SUGGESTION_TRIES);
    expect(many[0]).toEqual(['一二三四五六七八九']);
    expect(shorterQueries(Array.from({ length: 30 }, (_, i) => `w${i}`))).toHaveLength(MAX_SUGGESTION_TRIES);
    expect(shorterQueries(['[rarity]'])[0]).toEqual(['rarity']);
    expect(shorterQueries(['ab'])).toEqual([]);
  });

  it('names at most five close names: substrings, then by edit distance', () => {
    expect(closestNames('rarty', ['rarity', 'price', 'gravity', 'name'])).toEqual(['rarity', 'gravity']);
    expect(closestNames('job', ['usable job', 'job', 'a', 'b'])).toEqual(['job', 'usable job']);
    expect(closestNames('e', ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'])).toHaveLength(5);
  });
});
