import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { DEFAULT_SEARCH_LIMIT, type SearchInput } from '../../../runtime/search/search-schema.js';
import { compileBundle, coveredIds, documentIdOf, errorOf, fixtureBundle, get, search, searchAll } from './helpers.js';

let bundle: Bundle;
let otherSnapshot: Bundle;
beforeAll(async () => {
  bundle = await fixtureBundle();
  // The base layer alone: another snapshot with the same filters available.
  otherSnapshot = await compileBundle('search-base');
});

describe('search: paging without filters', () => {
  it('pages through every document exactly once when no filter at all is given', () => {
    const { items, totalMatches, pages } = searchAll(bundle, { pvfVersion: 'all', status: 'all', limit: 7 });
    expect(items).toHaveLength(totalMatches);
    // A field hit carries its implicit rule: together they cover every document once.
    const ids = coveredIds(items);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(bundle.documents.length);
    expect(totalMatches).toBeLessThan(bundle.documents.length);
    expect(new Set(ids)).toEqual(new Set(bundle.documents.map((d) => d.documentId)));
    expect(pages).toBe(Math.ceil(totalMatches / 7));
  });

  it('pages through the effective documents of a version exactly once, whatever the page size', () => {
    const whole = search(bundle, { pvfVersion: '90US', limit: 100 });
    expect(whole.nextCursor).toBeNull();
    expect(whole.items).toHaveLength(whole.totalMatches);
    for (const limit of [1, 3, 20]) {
      const paged = searchAll(bundle, { pvfVersion: '90US', limit });
      expect(paged.items.map((i) => i.documentId)).toEqual(whole.items.map((i) => i.documentId));
      expect(paged.totalMatches).toBe(whole.totalMatches);
    }
  });

  it('uses a page size of 20 by default and ends with a null nextCursor', () => {
    const first = search(bundle, { pvfVersion: 'all', status: 'all' });
    expect(first.items).toHaveLength(DEFAULT_SEARCH_LIMIT);
    expect(first.nextCursor).not.toBeNull();
    const second = search(bundle, { pvfVersion: 'all', status: 'all', cursor: first.nextCursor ?? '' });
    expect(second.items).toHaveLength(first.totalMatches - DEFAULT_SEARCH_LIMIT);
    expect(second.nextCursor).toBeNull();
  });

  it('gives the same page for the same cursor twice', () => {
    const first = search(bundle, { pvfVersion: '90US', limit: 4 });
    const cursor = first.nextCursor ?? '';
    const a = search(bundle, { pvfVersion: '90US', limit: 4, cursor });
    const b = search(bundle, { pvfVersion: '90US', limit: 4, cursor });
    expect(b).toEqual(a);
    expect(a.items[0]?.documentId).not.toBe(first.items[0]?.documentId);
  });

  it('pages a filtered query the same way', () => {
    const whole = search(bundle, { pvfVersion: '90US', query: '同分', limit: 100 });
    const paged = searchAll(bundle, { pvfVersion: '90US', query: '同分', limit: 1 });
    expect(paged.pages).toBe(3); // tie.a, tie.b, and field zz.tie with its implicit rule
    expect(paged.items.map((i) => i.documentId)).toEqual(whole.items.map((i) => i.documentId));
  });
});

describe('search: cursors', () => {
  const base: SearchInput = { pvfVersion: '90US', limit: 2 };
  function firstCursor(input: SearchInput = base, options?: Parameters<typeof search>[2]): string {
    const cursor = search(bundle, input, options).nextCursor;
    expect(cursor).not.toBeNull();
    return cursor as string;
  }

  it('rejects a cursor used with other filters as INVALID_CURSOR', () => {
    const cursor = firstCursor();
    const changed: SearchInput[] = [
      { query: '价格' },
      { section: 'price' },
      { filePath: 'equipment/a.equ' },
      { filePath: 'equipment', pathKind: 'directory' },
      { extensions: ['.equ'] },
      { kinds: ['rule'] },
      { targetKinds: ['token'] },
      { annotationTypes: ['text'] },
      { relation: '装备' },
      { pvfVersion: '110US' },
      { pvfVersion: 'all' },
      { status: 'all' },
    ];
    for (const change of changed) {
      const error = errorOf(() => search(bundle, { ...base, ...change, cursor }));
      expect(error.code, JSON.stringify(change)).toBe('INVALID_CURSOR');
    }
  });

  it('rejects a cursor from a query with other words, even when one word is shared', () => {
    const cursor = firstCursor({ pvfVersion: '90US', query: '同分', limit: 1 });
    expect(() => search(bundle, { pvfVersion: '90US', query: '同分 内容', limit: 1, cursor })).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });

  it('accepts a cursor with the same filters written in another normal form', () => {
    const cursor = firstCursor({ pvfVersion: '90US', section: '[PRICE]', extensions: ['.STK', '.equ'], kinds: ['field', 'rule'], limit: 1 });
    const next = search(bundle, { pvfVersion: '90US', section: 'price', extensions: ['.equ', '.stk'], kinds: ['rule', 'field'], limit: 1, cursor });
    expect(next.items).toHaveLength(1);
    const queryCursor = firstCursor({ pvfVersion: '90US', query: 'PRICE', limit: 1 });
    expect(() => search(bundle, { pvfVersion: '90US', query: '  price ', limit: 1, cursor: queryCursor })).not.toThrow();
  });

  it('binds a "current" cursor to the workspace and to its version', () => {
    const input: SearchInput = { pvfVersion: 'current', workspaceId: 'w1', limit: 2 };
    const cursor = firstCursor(input, { currentVersion: '110US' });
    expect(search(bundle, { ...input, cursor }, { currentVersion: '110US' }).items).toHaveLength(2);
    expect(() => search(bundle, { ...input, workspaceId: 'w2', cursor }, { currentVersion: '110US' })).toThrow(
      expect.objectContaining({ code: 'INVALID_CURSOR' }),
    );
    // The workspace switched to an archive of another version.
    expect(() => search(bundle, { ...input, cursor }, { currentVersion: '90US' })).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    // The archive was closed.
    expect(() => search(bundle, { ...input, cursor })).toThrow(expect.objectContaining({ code: 'NO_ARCHIVE' }));
  });

  it('rejects a cursor of another snapshot as STALE_RULES naming the active revision', () => {
    expect(otherSnapshot.rulesRevision).not.toBe(bundle.rulesRevision);
    const cursor = search(otherSnapshot, base).nextCursor ?? '';
    const error = errorOf(() => search(bundle, { ...base, cursor }));
    expect(error.code).toBe('STALE_RULES');
    expect(error.data?.rulesRevision).toBe(bundle.rulesRevision);
  });

  it('rejects a values cursor of pvf_annotation_get as INVALID_CURSOR', () => {
    const documentId = documentIdOf(bundle, 'field', 'colors');
    const valuesCursor = get(bundle, { documentId, valuesLimit: 2 }).valuesNextCursor ?? '';
    expect(valuesCursor).not.toBe('');
    expect(() => search(bundle, { ...base, cursor: valuesCursor })).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });

  it('rejects a search cursor given to get as a values cursor with INVALID_CURSOR', () => {
    const cursor = firstCursor();
    const documentId = documentIdOf(bundle, 'field', 'colors');
    expect(() => get(bundle, { documentId, valuesCursor: cursor })).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });

  it('rejects foreign and altered strings as INVALID_CURSOR', () => {
    const cursor = firstCursor();
    const foreign = ['abc', 'c1.', 'c1..', 'c2.' + cursor.slice(3), cursor + 'x', cursor.slice(0, -1), cursor.toUpperCase(), ' ' + cursor, '{"offset":2}', '😀'];
    for (const bad of foreign) {
      expect(() => search(bundle, { ...base, cursor: bad }), bad).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    }
  });

  it('treats an empty cursor as the first page', () => {
    expect(search(bundle, { ...base, cursor: '' })).toEqual(search(bundle, base));
  });
});
