/**
 * openSearchBundle (load-bundle.ts): the part of a bundle search reads, with documents the caller
 * brings (the site's light search). It reads and checks only manifest.json, relations.json,
 * search-index.json and values.json, searches exactly like the whole bundle, reads a document's content
 * only when a search looks at it and never keeps a content read before it arrived, and refuses
 * documents that do not follow the index.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileLayers, type BuiltBundle } from '../../../build/compile-layers.js';
import { openBuiltBundle, openSearchBundle, SEARCH_BUNDLE_FILES, type Bundle, type SearchBundleFileName } from '../../../runtime/bundle/load-bundle.js';
import type { BundleDocument } from '../../../runtime/bundle/schema.js';
import { SearchTexts } from '../../../runtime/bundle/search-text.js';
import { PvfdocError } from '../../../runtime/errors.js';
import { searchDocuments } from '../../../runtime/search/search-documents.js';
import type { SearchInput } from '../../../runtime/search/search-schema.js';
import { thrownBy } from '../../support/caught.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
let built: BuiltBundle;
let whole: Bundle;

beforeAll(async () => {
  const result = await compileLayers([path.join(ROOT, 'rules/builtin')]);
  if (!result.ok) throw new Error('rules/builtin does not compile');
  built = result.bundle;
  whole = openBuiltBundle(built.files);
}, 120_000);

/** A reader of the built files that records what was asked for and refuses anything beyond the four search files. */
function reader(files: ReadonlyMap<string, string> = built.files, asked: string[] = []) {
  return (name: SearchBundleFileName): string => {
    asked.push(name);
    if (!(SEARCH_BUNDLE_FILES as readonly string[]).includes(name)) throw new Error(`openSearchBundle read ${name}`);
    const text = files.get(name);
    if (text === undefined) throw new Error(`no ${name}`);
    return text;
  };
}

/** Copies of the documents whose content (and summary) come from `contentOf`, counting the reads. */
function withContent(documents: readonly BundleDocument[], contentOf: (i: number) => string, reads: Set<number>): BundleDocument[] {
  return documents.map((doc, i) => {
    const copy = { ...doc };
    Object.defineProperty(copy, 'content', {
      get: () => {
        reads.add(i);
        return contentOf(i);
      },
    });
    return copy;
  });
}


const QUERIES: SearchInput[] = [
  { query: '稀有', pvfVersion: 'all' },
  { query: '稀有度', pvfVersion: 'all' },
  { query: '攻击 速度', pvfVersion: '110US' },
  { query: '[usable job]', pvfVersion: 'all' },
  { query: 'equ.rarity', pvfVersion: 'all' },
  { query: '的', pvfVersion: 'all', limit: 7 },
  { query: '没有这个词的规则', pvfVersion: 'all' },
  { section: 'rarity', pvfVersion: 'all' },
  { filePath: 'equipment/character/swordman/weapon/a.equ', pvfVersion: '90US' },
  { query: 'name', status: 'all', kinds: ['field'], pvfVersion: 'all' },
];

describe('openSearchBundle', () => {
  it('reads only the four search files and searches exactly like the whole bundle', () => {
    const asked: string[] = [];
    const bundle = openSearchBundle(reader(built.files, asked), () => whole.documents);
    expect(new Set(asked)).toEqual(new Set(SEARCH_BUNDLE_FILES));
    expect(bundle.rulesRevision).toBe(whole.rulesRevision);
    for (const input of QUERIES) expect(searchDocuments(bundle, input), JSON.stringify(input)).toEqual(searchDocuments(whole, input));
    // Later pages through the cursor too.
    const first = searchDocuments(bundle, { query: '的', pvfVersion: 'all', limit: 20 });
    expect(first.nextCursor).not.toBeNull();
    const input = { query: '的', pvfVersion: 'all', limit: 20, cursor: first.nextCursor as string };
    expect(searchDocuments(bundle, input)).toEqual(searchDocuments(whole, input));
  });

  it('reads a content only when a search looks at it', () => {
    const reads = new Set<number>();
    const documents = withContent(whole.documents, (i) => whole.documents[i]?.content ?? '', reads);
    const bundle = openSearchBundle(reader(), () => documents);
    expect(bundle.searchTexts.all()).toHaveLength(documents.length);
    expect(reads.size).toBe(0);
    // Found by id: ranking it reads no content, only the shown hits' summaries (not counted here).
    const result = searchDocuments(bundle, { query: 'equ.rarity', pvfVersion: 'all' });
    expect(result.items.length).toBeGreaterThan(0);
    expect(reads.size).toBeLessThan(documents.length / 10);
    // The whole bundle's search texts read every content when they are built.
    const eager = new Set<number>();
    expect(new SearchTexts(withContent(whole.documents, (i) => whole.documents[i]?.content ?? '', eager), whole.valuesOf).all()).toHaveLength(documents.length);
    expect(eager.size).toBe(documents.length);
  });

  it('never keeps a content read before it arrived', () => {
    // A rule whose only mention of the word is its content: titles, descriptions, value labels, sentinels and column titles are searched without it.
    const onlyInContent = (d: BundleDocument) =>
      d.kind === 'rule' && d.content.includes('稀有') && !d.title.includes('稀有') && !d.description.includes('稀有') && d.valueCount === 0 && d.resolved.annotation.sentinels === null && d.resolved.annotation.columns === null;
    const target = whole.documents.findIndex(onlyInContent);
    expect(target).toBeGreaterThanOrEqual(0);
    const arrived = new Set<number>();
    const documents = withContent(whole.documents, (i) => (arrived.has(i) ? (whole.documents[i]?.content ?? '') : ''), new Set());
    const bundle = openSearchBundle(reader(), () => documents);
    const ids = () => searchDocuments(bundle, { query: '稀有', pvfVersion: 'all', limit: 200 }).items.map((i) => i.documentId);
    expect(ids()).not.toContain(whole.documents[target]?.documentId);
    for (let i = 0; i < documents.length; i++) arrived.add(i);
    expect(ids()).toContain(whole.documents[target]?.documentId);
    expect(searchDocuments(bundle, { query: '稀有', pvfVersion: 'all' })).toEqual(searchDocuments(whole, { query: '稀有', pvfVersion: 'all' }));
  });

  it('refuses documents that do not follow the index, naming search-index.json', () => {
    for (const documentsOf of [() => whole.documents.slice(1), () => [...whole.documents].reverse()]) {
      const error = thrownBy(() => openSearchBundle(reader(), documentsOf));
      expect(error).toBeInstanceOf(PvfdocError);
      expect((error as PvfdocError).code).toBe('INVALID_BUNDLE');
      expect((error as PvfdocError).data?.file).toBe('search-index.json');
    }
  });

  it('hands the index ids to documentsOf', () => {
    let given: readonly string[] = [];
    openSearchBundle(reader(), (ids) => {
      given = ids;
      return whole.documents;
    });
    expect(given).toEqual(whole.documents.map((d) => d.documentId));
  });

  it('checks the hashes of the files it reads, as openBundle does', () => {
    for (const name of ['values.json', 'relations.json', 'search-index.json'] as const) {
      const files = new Map(built.files);
      files.set(name, `${files.get(name) ?? ''} `);
      const error = thrownBy(() => openSearchBundle(reader(files), () => whole.documents));
      expect(error, name).toBeInstanceOf(PvfdocError);
      expect((error as PvfdocError).message, name).toContain(`${name} does not match the hash in manifest.json`);
    }
  });

  it('throws INVALID_BUNDLE for the parts it does not hold', () => {
    const bundle = openSearchBundle(reader(), () => whole.documents);
    for (const read of [() => bundle.ruleOrder, () => bundle.rendering]) {
      const error = thrownBy(read);
      expect(error).toBeInstanceOf(PvfdocError);
      expect((error as PvfdocError).message).toContain('not part of a search bundle');
    }
  });
});
