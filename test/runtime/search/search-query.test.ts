import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import type { BundleDocument } from '../../../runtime/bundle/schema.js';
import { SUMMARY_MAX_CODE_POINTS } from '../../../runtime/bundle/constants.js';
import { MAX_MATCHED_VALUES } from '../../../runtime/search/search-schema.js';
import { coveredIds, fixtureBundle, itemNamed, names, search, searchAll } from './helpers.js';

let bundle: Bundle;
beforeAll(async () => {
  bundle = await fixtureBundle();
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

function queryNames(query: string, extra: Parameters<typeof search>[1] = {}): string[] {
  return names(searchAll(bundle, { pvfVersion: '90US', limit: 100, query, ...extra }).items);
}

describe('search: Chinese and substring queries', () => {
  it('finds Chinese content by a substring ("攻击" in "物理攻击力数值")', () => {
    const got = queryNames('攻击');
    expect(got).toEqual(expect.arrayContaining(['field equ.attack', 'rule.attack-uses-field', 'rule.attack-own-target']));
    expect(queryNames('攻击力数')).toEqual(expect.arrayContaining(['field equ.attack']));
    expect(queryNames('伤害')).toEqual(expect.arrayContaining(['field equ.attack']));
  });

  it('finds a substring inside a longer title, description and id', () => {
    expect(queryNames('堆叠')).toEqual(['token.stack-limit']);
    expect(queryNames('目录说明')).toEqual(['path.equipment']);
    expect(queryNames('stack-lim')).toEqual(['token.stack-limit']);
    expect(queryNames('ack-li')).toEqual(['token.stack-limit']);
  });

  it('finds a document by a substring of an enum label and reports the matched values', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', query: '史诗', limit: 100 });
    expect(names(out.items).sort()).toEqual(['field equ.rarity', 'field:equ.rarity']);
    for (const item of out.items) {
      expect(item.matchedValues).toEqual([{ key: '4', label: '史诗' }]);
      expect(item.matchReasons).toContain('query');
    }
    const partial = itemNamed(search(bundle, { pvfVersion: '90US', query: '神', kinds: ['field'] }).items, 'field equ.rarity');
    expect(partial.matchedValues).toEqual([{ key: '3', label: '神器' }, { key: '6', label: '神话候补' }]);
  });

  it('returns at most five matched values when many labels hit, in source order', () => {
    const item = itemNamed(search(bundle, { pvfVersion: '90US', query: '红色', kinds: ['field'] }).items, 'field colors');
    expect(item.matchedValues).toHaveLength(MAX_MATCHED_VALUES);
    expect(item.matchedValues?.map((v) => v.key)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(item.valueCount).toBe(8);
  });

  it('finds a document by an enum key', () => {
    const item = itemNamed(search(bundle, { pvfVersion: '90US', query: 'c8', kinds: ['field'] }).items, 'field colors');
    expect(item.matchedValues).toEqual([{ key: 'c8', label: '蓝色' }]);
  });

  it('does not attach matchedValues when the query hits no enum text', () => {
    const item = itemNamed(search(bundle, { pvfVersion: '90US', query: '稀有度', kinds: ['field'] }).items, 'field equ.rarity');
    expect(item.matchedValues).toBeUndefined();
    expect(search(bundle, { pvfVersion: '90US', query: '价格' }).items.every((i) => i.matchedValues === undefined)).toBe(true);
  });

  it('finds a document by its relation name and by a shared field id', () => {
    expect(queryNames('任意引用')).toEqual(['ref.any']);
    expect(queryNames('equ.attack')).toEqual(expect.arrayContaining(['rule.attack-uses-field', 'rule.attack-own-target', 'field equ.attack']));
  });

  it('finds a document by section name, with or without brackets', () => {
    expect(queryNames('[growth]', { pvfVersion: '110US' })).toEqual(['ver.110-only']);
    expect(queryNames('growth', { pvfVersion: '110US' })).toEqual(['ver.110-only']);
  });

  it('finds nothing for a word that no field contains', () => {
    expect(search(bundle, { pvfVersion: '90US', query: '不存在的词' })).toMatchObject({ items: [], totalMatches: 0, nextCursor: null });
  });
});

describe('search: queries against a model', () => {
  /** The searchable texts of a document: its fields, then every enum key and label. */
  function texts(doc: BundleDocument): string[] {
    const out = [doc.id, doc.description, doc.title, doc.content, doc.section ?? '', doc.fieldId ?? '', doc.relation ?? ''];
    for (const [key, label] of bundle.valuesOf(doc.documentId)) out.push(key, label);
    return out;
  }

  /**
   * The query words, written independently of search-documents.ts: a "[" that starts a word opens a
   * group up to the next "]" (no "[" inside) when whitespace or the end follows it, and that group is one
   * word with its inner whitespace folded to one space; anything else splits on whitespace.
   */
  function modelWords(query: string): string[] {
    const text = query.toLowerCase();
    const isSpace = (c: string | undefined) => c !== undefined && /\s/u.test(c);
    const words: string[] = [];
    let i = 0;
    while (i < text.length) {
      if (isSpace(text[i])) {
        i++;
        continue;
      }
      if (text[i] === '[') {
        const close = text.indexOf(']', i + 1);
        const inner = close < 0 ? '' : text.slice(i + 1, close);
        if (close >= 0 && !inner.includes('[') && (close + 1 === text.length || isSpace(text[close + 1]))) {
          words.push(`[${inner.replace(/\s+/gu, ' ')}]`);
          i = close + 1;
          continue;
        }
      }
      let j = i;
      while (j < text.length && !isSpace(text[j])) j++;
      words.push(text.slice(i, j));
      i = j;
    }
    return words;
  }

  /**
   * Model of the protocol: every word is a case-insensitive substring of some text, or, without its one
   * pair of brackets and trimmed, of the section.
   */
  function modelMatches(query: string): string[] {
    const words = modelWords(query);
    return bundle.documents
      .filter((doc) => {
        const lower = texts(doc).map((t) => t.toLowerCase());
        const section = (doc.section ?? '').toLowerCase();
        return words.every((w) => {
          const bare = (w.startsWith('[') && w.endsWith(']') ? w.slice(1, -1) : w).trim();
          return lower.some((t) => t.includes(w)) || (bare !== '' && section.includes(bare));
        });
      })
      .map((d) => d.documentId)
      .sort();
  }

  function found(query: string): string[] {
    return coveredIds(searchAll(bundle, { pvfVersion: 'all', status: 'all', limit: 100, query }).items).sort();
  }

  it('finds a word longer than the indexed term length anywhere inside a long term', () => {
    expect(queryNames('ghijklmnopqrstuvwxyz0123456789后')).toEqual(['long.term']);
    expect(queryNames('缀ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef')).toEqual(['long.term']);
    expect(queryNames('ünïcödé·οδος')).toEqual(['long.term']);
  });

  it('finds emoji and other symbol-only words by substring', () => {
    expect(queryNames('😀😀😀')).toEqual(['emoji.long']);
    expect(queryNames('x😀')).toEqual(['emoji.long']);
  });

  it('returns exactly the documents whose texts contain every query word (property)', () => {
    const all = bundle.documents;
    /** A substring of one of the texts of one document, possibly upper-cased. */
    const word = fc
      .record({ doc: fc.nat({ max: all.length - 1 }), text: fc.nat(), start: fc.nat(), length: fc.integer({ min: 1, max: 40 }), upper: fc.boolean() })
      .map(({ doc, text, start, length, upper }) => {
        const candidates = texts(all[doc] as BundleDocument).filter((t) => t.trim() !== '');
        const chosen = Array.from(candidates[text % candidates.length] ?? '');
        const from = start % Math.max(chosen.length, 1);
        const piece = chosen.slice(from, from + length).join('');
        return upper ? piece.toUpperCase() : piece;
      });
    const bracketed = fc.tuple(word, fc.constantFrom(' ', '  ', '\t', '')).map(([w, space]) => `[${space}${w}${space}]`);
    const query = fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: bracketed }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 })
      .map((words) => words.join(' '));
    fc.assert(
      fc.property(query, (q) => {
        expect(found(q)).toEqual(modelMatches(q));
      }),
      { numRuns: 300 },
    );
  });
});

describe('search: multi-word queries', () => {
  it('requires every word (AND), letting different words hit different fields', () => {
    // title + enum label
    expect(queryNames('稀有度 史诗').sort()).toEqual(['field equ.rarity', 'field:equ.rarity']);
    // id + content
    expect(queryNames('token.price 商店')).toEqual(['token.price']);
    // section + title
    expect(queryNames('growth 成长', { pvfVersion: '110US' })).toEqual(['ver.110-only']);
    // relation + title
    expect(queryNames('物品 升级')).toEqual(['ref.item']);
    expect(queryNames('稀有度 不存在的词')).toEqual([]);
  });

  it('ignores extra whitespace between and around words', () => {
    expect(queryNames('  稀有度 \t\n 史诗  ').sort()).toEqual(['field equ.rarity', 'field:equ.rarity']);
  });

  it('treats a blank query like no query', () => {
    expect(search(bundle, { pvfVersion: '90US', query: '   ' }).totalMatches).toBe(search(bundle, { pvfVersion: '90US' }).totalMatches);
  });

  it('matches words made only of punctuation as substrings too', () => {
    expect(queryNames('。', { section: 'price' }).sort()).toEqual(['section.price', 'token.price']);
    expect(queryNames('-', { targetKinds: ['path'] })).toEqual(['path.equ-file']);
  });
});

describe('search: case-insensitivity', () => {
  it('ignores the case of query words', () => {
    expect(queryNames('PRICE VALUE')).toEqual(['token.price']);
    expect(queryNames('Token.Price')).toEqual(['token.price']);
    expect(queryNames('price value')).toEqual(queryNames('PRICE VALUE'));
  });

  it('ignores the case of enum keys', () => {
    expect(queryNames('C8', { kinds: ['field'] })).toEqual(['field colors']);
  });
});

describe('search: ranking', () => {
  it('puts documents whose title equals a query word before those that only contain it in content', () => {
    const got = queryNames('稀有度');
    expect(got).toEqual(['field:equ.rarity', 'field equ.rarity', 'rank.content']);
  });

  it('puts a document whose section equals a query word first, brackets ignored', () => {
    expect(queryNames('name')).toEqual(['token.name', 'override.me']);
    expect(queryNames('[NAME]')).toEqual(['token.name', 'override.me']);
  });

  it('puts a document whose id equals a query word first', () => {
    const got = queryNames('token.zero');
    expect(got[0]).toBe('token.zero');
    // id "colors" equals the word; "field:colors" only contains it.
    expect(queryNames('colors')).toEqual(['field:colors', 'field colors']);
  });

  it('puts an exact title before a title that only contains the word', () => {
    expect(queryNames('价格')).toEqual(['section.price', 'token.price']);
  });

  it('orders ties with rules before fields, then by id', () => {
    // The field and its implicit rule are one hit, the field's: after the rules.
    expect(queryNames('同分')).toEqual(['tie.a', 'tie.b', 'field:zz.tie', 'field zz.tie']);
    expect(queryNames('同分标题')).toEqual(['tie.a', 'tie.b', 'field:zz.tie', 'field zz.tie']);
  });

  it('keeps the same order across pages', () => {
    const whole = queryNames('同分');
    const paged = names(searchAll(bundle, { pvfVersion: '90US', query: '同分', limit: 1 }).items);
    expect(paged).toEqual(whole);
  });
});

describe('search: summaries', () => {
  it('cuts a long summary to 512 code points without splitting a surrogate pair', () => {
    const [item] = search(bundle, { pvfVersion: '90US', query: 'emoji.long' }).items;
    expect(item?.ruleId).toBe('emoji.long');
    const summary = item?.summary ?? '';
    expect(item?.summaryTruncated).toBe(true);
    expect(Array.from(summary)).toHaveLength(SUMMARY_MAX_CODE_POINTS);
    expect(summary.length).toBe(1 + 2 * (SUMMARY_MAX_CODE_POINTS - 1)); // "x" + 511 emoji
    expect(LONE_SURROGATE.test(summary)).toBe(false);
    expect(summary.endsWith('😀')).toBe(true);
    const content = bundle.documents.find((d) => d.id === 'emoji.long')?.content ?? '';
    expect(content.startsWith(summary)).toBe(true);
  });

  it('leaves short summaries whole and marks them not truncated', () => {
    const out = searchAll(bundle, { pvfVersion: '90US', limit: 100 });
    for (const item of out.items) {
      expect(Array.from(item.summary).length).toBeLessThanOrEqual(SUMMARY_MAX_CODE_POINTS);
      expect(LONE_SURROGATE.test(item.summary)).toBe(false);
      if (item.ruleId !== 'emoji.long') expect(item.summaryTruncated).toBe(false);
    }
    expect(itemNamed(out.items, 'token.price').summary).toBe('商店出售价格 price value。');
  });

  it('does not carry raw definitions or the values map in search items', () => {
    const item = itemNamed(search(bundle, { pvfVersion: '90US', query: '稀有度', kinds: ['field'] }).items, 'field equ.rarity');
    expect(item).not.toHaveProperty('values');
    expect(item).not.toHaveProperty('rawDefinition');
    expect(item.valueCount).toBe(7);
  });
});
