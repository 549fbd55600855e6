import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { MAX_SEARCH_RESPONSE_BYTES } from '../../../runtime/search/search-schema.js';
import { compileBundle, documentIdOf, errorOf, fixtureBundle, get, search, writeTempLayer } from './helpers.js';

describe('search response budget', () => {
  let big: Bundle;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    // 60 rules whose 512-code-point summaries are 4-byte characters: ~2 KiB each, with 40 KiB titles.
    const title = '题'.repeat(4000);
    const rules = Array.from({ length: 60 }, (_, i) => ({
      id: `big.${String(i).padStart(2, '0')}`,
      match: { extensions: ['.equ'] },
      target: { kind: 'section', section: 'big' },
      annotation: { type: 'text', title: `${title}${i}`, content: '😀'.repeat(600) },
    }));
    const layer = await writeTempLayer({
      'layer.json': { name: 'big', kind: 'builtin', pvfVersions: ['110US'] },
      'annotations.json': { version: 1, rules },
    });
    cleanup = layer.cleanup;
    big = await compileBundle(layer.dir);
    return () => cleanup();
  });

  it('shrinks a page to the byte budget, says truncated, and continues with nextCursor', () => {
    const first = search(big, { section: 'big', pvfVersion: 'all', limit: 100 });
    expect(first.items.length).toBeGreaterThan(0);
    expect(first.items.length).toBeLessThan(60);
    expect(first.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(first))).toBeLessThanOrEqual(MAX_SEARCH_RESPONSE_BYTES);
    const seen = new Set(first.items.map((i) => i.documentId));
    let cursor = first.nextCursor;
    while (cursor) {
      const page = search(big, { section: 'big', pvfVersion: 'all', limit: 100, cursor });
      for (const item of page.items) seen.add(item.documentId);
      cursor = page.nextCursor;
    }
    expect(seen.size).toBe(60);
  });

  it('is not truncated when the page fits', () => {
    const page = search(big, { section: 'big', pvfVersion: 'all', limit: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.truncated).toBe(false);
  });
});

describe('argument consistency and details', () => {
  it('rejects pathKind "directory" without a filePath as INVALID_ARGUMENT', async () => {
    const bundle = await fixtureBundle();
    expect(errorOf(() => search(bundle, { pathKind: 'directory', pvfVersion: 'all' })).code).toBe('INVALID_ARGUMENT');
  });

  it("gives a rule that uses a shared field the field's preview spec", async () => {
    const bundle = await fixtureBundle();
    const viaRule = get(bundle, { documentId: documentIdOf(bundle, 'rule', 'rule.attack-uses-field') });
    const field = get(bundle, { documentId: documentIdOf(bundle, 'field', 'equ.attack') });
    expect(field.preview).not.toBeNull();
    expect(viaRule.preview).toEqual(field.preview);
  });

  it('shows the relation a text rule names, as the relation filter of search finds it', async () => {
    // pvfine allows (and ignores) a relation on a text rule; builtin "global.need material" has one.
    const layer = await writeTempLayer({
      'layer.json': { name: 'rel', kind: 'builtin' },
      'lists.json': { version: 1, relations: { 道具: { listPath: 'stackable/stackable.lst', idToken: 0, pathToken: 1, recordTokens: 2, nameSection: 'name' } } },
      'annotations.json': {
        version: 1,
        rules: [{ id: 'need', target: { kind: 'section', section: 'need material' }, annotation: { type: 'text', title: '兑换材料', relation: '道具' } }],
      },
    });
    try {
      const bundle = await compileBundle(layer.dir);
      const found = search(bundle, { relation: '道具', pvfVersion: 'all' });
      expect(found.items.map((i) => i.ruleId)).toEqual(['need']);
      expect(get(bundle, { documentId: found.items[0]?.documentId ?? '' }).relations.map((r) => r.name)).toEqual(['道具']);
    } finally {
      await layer.cleanup();
    }
  });
});
