import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { bindingHash, decodeCursor, encodeCursor } from '../../../runtime/bundle/cursor.js';
import { PvfdocError } from '../../../runtime/errors.js';
import { documentIdOf, fixtureBundle, get, search } from '../search/helpers.js';

const STATE = { tool: 'pvf_annotation_search', rulesRevision: 'rev-1', binding: bindingHash({ words: ['a'] }), offset: 40 };
const EXPECTED = { tool: STATE.tool, rulesRevision: STATE.rulesRevision, binding: STATE.binding };

/** The error code decodeCursor throws for `cursor`, or "ok". */
function decodeCode(cursor: string, expected = EXPECTED): string {
  try {
    decodeCursor(cursor, expected);
    return 'ok';
  } catch (error) {
    if (error instanceof PvfdocError) return error.code;
    throw error;
  }
}

/** Characters a mutation may put into a cursor: its own alphabet plus a few foreign ones. */
const CURSOR_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ %', '😀', '\u0000'];

type Mutation = { kind: 'replace' | 'insert' | 'delete'; at: number; char: string };

/** One single-character change (replace, insert or delete) of `text`, always a different string. */
function mutation(length: number): fc.Arbitrary<Mutation> {
  return fc.record({
    kind: fc.constantFrom<Mutation['kind']>('replace', 'insert', 'delete'),
    at: fc.nat({ max: length }),
    char: fc.constantFrom(...CURSOR_CHARS),
  });
}

function applyMutation(text: string, m: Mutation): string {
  const at = Math.min(m.at, m.kind === 'insert' ? text.length : text.length - 1);
  if (m.kind === 'insert') return text.slice(0, at) + m.char + text.slice(at);
  if (m.kind === 'delete') return text.slice(0, at) + text.slice(at + 1);
  return text.slice(0, at) + m.char + text.slice(at + 1);
}

describe('cursor encoding', () => {
  it('decodes a cursor to its offset when used with the same request', () => {
    expect(decodeCursor(encodeCursor(STATE), EXPECTED)).toBe(40);
    expect(decodeCursor(encodeCursor({ ...STATE, offset: 0 }), EXPECTED)).toBe(0);
  });

  it('encodes the same state to the same cursor (deterministic) and different offsets differently', () => {
    expect(encodeCursor(STATE)).toBe(encodeCursor({ ...STATE }));
    expect(encodeCursor(STATE)).not.toBe(encodeCursor({ ...STATE, offset: 41 }));
  });

  it('gives the same binding for equal requests regardless of key order', () => {
    expect(bindingHash({ a: 1, b: [2, 3] })).toBe(bindingHash({ b: [2, 3], a: 1 }));
    expect(bindingHash({ a: 1, b: [2, 3] })).not.toBe(bindingHash({ a: 1, b: [3, 2] }));
  });

  it('rejects a cursor of another tool as INVALID_CURSOR', () => {
    const cursor = encodeCursor({ ...STATE, tool: 'pvf_annotation_get' });
    expect(decodeCode(cursor)).toBe('INVALID_CURSOR');
  });

  it('rejects a cursor of another request as INVALID_CURSOR', () => {
    const cursor = encodeCursor({ ...STATE, binding: bindingHash({ words: ['b'] }) });
    expect(decodeCode(cursor)).toBe('INVALID_CURSOR');
  });

  it('rejects a cursor of another snapshot as STALE_RULES with both revisions in the data', () => {
    const cursor = encodeCursor({ ...STATE, rulesRevision: 'rev-0' });
    try {
      decodeCursor(cursor, EXPECTED);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PvfdocError);
      expect(error).toMatchObject({ code: 'STALE_RULES', data: { rulesRevision: 'rev-1', cursorRulesRevision: 'rev-0' } });
    }
  });

  it('rejects foreign strings as INVALID_CURSOR', () => {
    for (const foreign of ['', 'x', 'c1', 'c1.', 'c1..', 'c1.abc', 'c1.abc.def', 'c1.!!!.0123456789abcdef', 'null', '{"tool":"pvf_annotation_search"}', '😀😀']) {
      expect(decodeCode(foreign), JSON.stringify(foreign)).toBe('INVALID_CURSOR');
    }
  });

  it('gives a hint saying how to recover', () => {
    try {
      decodeCursor('nonsense', EXPECTED);
      expect.unreachable();
    } catch (error) {
      expect((error as PvfdocError).hint).toMatch(/without a cursor/);
    }
  });

  it('rejects any single-character change of a cursor as INVALID_CURSOR, never STALE_RULES', () => {
    const cursor = encodeCursor(STATE);
    fc.assert(
      fc.property(mutation(cursor.length), (m) => {
        const altered = applyMutation(cursor, m);
        fc.pre(altered !== cursor);
        expect(decodeCode(altered)).toBe('INVALID_CURSOR');
      }),
      { numRuns: 300 },
    );
  });

  it('rejects any single-character change of a cursor for any state as INVALID_CURSOR', () => {
    fc.assert(
      fc.property(
        fc.record({ tool: fc.string({ maxLength: 20 }), rulesRevision: fc.string({ maxLength: 20 }), binding: fc.string({ maxLength: 30 }), offset: fc.nat() }),
        fc.nat(),
        fc.constantFrom<Mutation['kind']>('replace', 'insert', 'delete'),
        fc.constantFrom(...CURSOR_CHARS),
        (state, at, kind, char) => {
          const cursor = encodeCursor(state);
          expect(decodeCursor(cursor, state)).toBe(state.offset);
          const altered = applyMutation(cursor, { kind, at: at % (cursor.length + 1), char });
          fc.pre(altered !== cursor);
          expect(decodeCode(altered, state)).toBe('INVALID_CURSOR');
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('cursors of the tools', () => {
  let bundle: Bundle;
  beforeAll(async () => {
    bundle = await fixtureBundle();
  });

  function searchCode(cursor: string): string {
    try {
      search(bundle, { pvfVersion: '90US', limit: 3, cursor });
      return 'ok';
    } catch (error) {
      if (error instanceof PvfdocError) return error.code;
      throw error;
    }
  }

  it('rejects any single-character change of a search cursor as INVALID_CURSOR', () => {
    const cursor = search(bundle, { pvfVersion: '90US', limit: 3 }).nextCursor ?? '';
    expect(searchCode(cursor)).toBe('ok');
    fc.assert(
      fc.property(mutation(cursor.length), (m) => {
        const altered = applyMutation(cursor, m);
        fc.pre(altered !== cursor);
        expect(searchCode(altered)).toBe('INVALID_CURSOR');
      }),
      { numRuns: 200 },
    );
  });

  it('rejects any single-character change of a values cursor as INVALID_CURSOR', () => {
    const documentId = documentIdOf(bundle, 'field', 'colors');
    const cursor = get(bundle, { documentId, valuesLimit: 2 }).valuesNextCursor ?? '';
    expect(cursor).not.toBe('');
    fc.assert(
      fc.property(mutation(cursor.length), (m) => {
        const altered = applyMutation(cursor, m);
        fc.pre(altered !== cursor);
        expect(() => get(bundle, { documentId, valuesCursor: altered })).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
      }),
      { numRuns: 200 },
    );
  });

  it('does not accept a search cursor for get or a values cursor for search', () => {
    const searchCursor = search(bundle, { pvfVersion: '90US', limit: 3 }).nextCursor ?? '';
    const documentId = documentIdOf(bundle, 'field', 'colors');
    const valuesCursor = get(bundle, { documentId, valuesLimit: 2 }).valuesNextCursor ?? '';
    expect(() => get(bundle, { documentId, valuesCursor: searchCursor })).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    expect(searchCode(valuesCursor)).toBe('INVALID_CURSOR');
  });
});
