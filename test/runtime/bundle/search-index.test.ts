/**
 * The bigram index (runtime/bundle/search-index.ts) only proposes candidates, so the one property that
 * matters is completeness: every document that holds a word as a substring is proposed. Also: the
 * posting-list encoding round-trips and refuses damaged lists, and query words keep a bracketed group.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryWords } from '../../../runtime/search/search-documents.js';
import {
  createSearchIndex,
  decodePostings,
  encodePostings,
  forEachTerm,
  loadSearchIndex,
  serializeSearchIndex,
  wordTerms,
  type SearchableRecord,
} from '../../../runtime/bundle/search-index.js';

function record(n: number, fields: Partial<SearchableRecord>): SearchableRecord {
  return { n, id: '', description: '', title: '', content: '', section: '', fieldId: '', relation: '', values: '', labels: '', ...fields };
}

function terms(text: string): string[] {
  const out: string[] = [];
  forEachTerm(text, (t) => out.push(t));
  return out;
}

/** Candidates as a plain array (null = every document). */
function candidates(records: SearchableRecord[], words: string[]): number[] | null {
  const found = createSearchIndex(records).candidates(words);
  return found === null ? null : [...found];
}

describe('search index: terms', () => {
  it('indexes code-unit bigrams, and a unit before whitespace or the end on its own', () => {
    expect(terms('equ.rarity')).toEqual(['eq', 'qu', 'u.', '.r', 'ra', 'ar', 'ri', 'it', 'ty', 'y']);
    expect(terms('物理 攻击')).toEqual(['物理', '理', '攻击', '击']);
    expect(terms('帧')).toEqual(['帧']);
    expect(terms(' \t a\u3000b ')).toEqual(['a', 'b']);
    expect(terms('x😀')).toEqual(['x\uD83D', '😀', '\uDE00']);
  });

  it('builds the index from exactly the terms forEachTerm lists (property)', () => {
    const alphabet = fc.constantFrom('a', 'Z', '.', ' ', '\n', '\u3000', '攻', '击', '😀', '\uDE00', 'İ', '\uFFFF', '\u0000');
    const text = fc.array(alphabet, { maxLength: 16 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, text, (content, values) => {
        const index = createSearchIndex([record(0, { content, values })]);
        const expected = new Set([...terms(content.toLowerCase()), ...terms(values.toLowerCase())]);
        expect(new Set(index.entries().keys())).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('asks for the bigrams of a word, and the unit before whitespace inside a bracketed group', () => {
    expect(wordTerms('equ.rarity')).toEqual(['eq', 'qu', 'u.', '.r', 'ra', 'ar', 'ri', 'it', 'ty']);
    expect(wordTerms('skill levelup')).toEqual(['sk', 'ki', 'il', 'll', 'l', 'le', 'ev', 've', 'el', 'lu', 'up']);
    expect(wordTerms('攻击')).toEqual(['攻击']);
  });
});

describe('search index: candidates', () => {
  const records = [
    record(0, { title: '动画帧', content: '每一帧' }),
    record(1, { content: '帧 后面是空格' }),
    record(2, { title: '动画', content: '没有那个字' }),
    record(3, { id: 'equ.rarity', section: 'rarity' }),
    record(4, { id: 'equ', content: 'rarity' }),
    record(5, { section: 'skill levelup', values: '1\n等级提升' }),
    record(6, { section: 'skill', content: 'levelup' }),
  ];

  it('proposes every document holding a one-character Chinese word: at the end of a field, before a space, alone', () => {
    expect(candidates(records, ['帧'])).toEqual([0, 1]);
    expect(candidates([record(0, { title: '帧' }), record(1, { title: '字' })], ['帧'])).toEqual([0]);
  });

  it('finds a word across a punctuation boundary', () => {
    expect(candidates(records, ['equ.rarity'])).toEqual([3]);
    expect(candidates(records, ['u.ra'])).toEqual([3]);
    expect(candidates(records, ['.'])).toEqual([3]);
  });

  it('finds a word with a space inside, and an enum label', () => {
    // Only a superset: 6 holds every term ("skill" ends in "l"), and search's exact check drops it.
    expect(candidates(records, ['skill levelup'])).toEqual([5, 6]);
    expect(candidates(records, ['级提'])).toEqual([5]);
  });

  it('intersects the words (AND) and returns nothing for an unknown term', () => {
    expect(candidates(records, ['动画', '帧'])).toEqual([0]);
    expect(candidates(records, ['zz'])).toEqual([]);
    expect(candidates(records, [])).toBeNull();
  });

  it('proposes every document that holds each word as a substring (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', '.', ' ', '\t', '攻', '击', '帧', '😀', '\uD83D', 'ß', 'İ');
    const text = fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join(''));
    const doc = fc.record({ title: text, content: text, values: text });
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 8 }), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 5 }), (docs, which, start, length) => {
        const recs = docs.map((d, n) => record(n, d));
        const source = docs[which % docs.length] as { title: string; content: string; values: string };
        const field = [source.title, source.content, source.values][which % 3] as string;
        const word = field.toLowerCase().slice(start % Math.max(field.length, 1)).slice(0, length).trim();
        if (word === '' || /\s/u.test(word)) return;
        const expected = recs.filter((r) => [r.title, r.content, r.values].some((t) => t.toLowerCase().includes(word))).map((r) => r.n);
        const found = candidates(recs, [word]);
        const proposed = found ?? recs.map((r) => r.n);
        for (const n of expected) expect(proposed).toContain(n);
      }),
      { numRuns: 500 },
    );
  });

  it('survives serialization: the loaded index proposes the same candidates', () => {
    const index = createSearchIndex(records);
    const file = serializeSearchIndex(index, records.map((r) => `doc${r.n}`));
    const loaded = loadSearchIndex(JSON.parse(JSON.stringify(file.terms)) as Record<string, string>, records.length);
    expect(loaded.termCount).toBe(index.termCount);
    for (const words of [['帧'], ['equ.rarity'], ['skill levelup'], ['动画', '帧'], ['y']]) {
      expect([...(loaded.candidates(words) ?? [])]).toEqual([...(index.candidates(words) ?? [])]);
    }
  });
});

describe('search index: posting lists', () => {
  it('round-trips any strictly increasing list (property)', () => {
    const list = fc.uniqueArray(fc.integer({ min: 0, max: 200_000 }), { maxLength: 200 }).map((xs) => xs.sort((a, b) => a - b));
    fc.assert(
      fc.property(list, (positions) => {
        const text = encodePostings(positions);
        expect(text).toMatch(/^[#-[\]-~]*$/u);
        expect([...decodePostings(text, 200_001)]).toEqual(positions);
      }),
      { numRuns: 300 },
    );
  });

  it('writes small gaps as one character', () => {
    expect(encodePostings([0, 1, 2, 3])).toHaveLength(4);
    expect(encodePostings([63])).toHaveLength(1);
    expect(encodePostings([64])).toHaveLength(2);
  });

  it('refuses a damaged list: a foreign character, a cut number, a position past the documents', () => {
    expect(() => decodePostings('#"', 10)).toThrow(/unexpected character/);
    expect(() => decodePostings('#~', 10)).toThrow(/middle of a number/);
    expect(() => decodePostings(encodePostings([3, 12]), 10)).toThrow(/beyond the 10 documents/);
    expect(() => loadSearchIndex({ ab: '#', abc: '#' }, 1)).toThrow(/term "abc"/);
  });
});

describe('query words', () => {
  it('splits on whitespace and lower-cases', () => {
    expect(queryWords('  Rarity \t 攻击\n')).toEqual(['rarity', '攻击']);
    expect(queryWords(undefined)).toEqual([]);
    expect(queryWords('   ')).toEqual([]);
  });

  it('keeps a bracketed group as one word, whitespace inside folded to one space', () => {
    expect(queryWords('[skill levelup]')).toEqual(['[skill levelup]']);
    expect(queryWords('[Skill \t LevelUp] 攻击 [IMAGE]')).toEqual(['[skill levelup]', '攻击', '[image]']);
  });

  it('splits brackets that do not enclose a whole group on whitespace as usual', () => {
    expect(queryWords('[skill levelup')).toEqual(['[skill', 'levelup']);
    expect(queryWords('skill levelup]')).toEqual(['skill', 'levelup]']);
    expect(queryWords('a[b c]')).toEqual(['a[b', 'c]']);
    expect(queryWords('[b c]d')).toEqual(['[b', 'c]d']);
    expect(queryWords('[a [b c]')).toEqual(['[a', '[b c]']);
  });
});
