/**
 * documents.json stores each text once (StoredDocumentSchema) and readers restore the full document
 * (fromStoredDocument); `raw` is checked by isJsonValue instead of z.json().
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../build/compile-layers.js';
import { resolveLayers } from '../../build/resolve-layers.js';
import { loadLayers } from '../../build/load-layers.js';
import { openBuiltBundle } from '../../runtime/bundle/load-bundle.js';
import { DocumentSchema, fromStoredDocument, isJsonValue, JsonValueSchema, StoredDocumentSchema, toStoredDocument, type BundleDocument } from '../../runtime/bundle/schema.js';

const LAYERS = fileURLToPath(new URL('../fixtures/layers/', import.meta.url));
const DIRS = [`${LAYERS}search-base`, `${LAYERS}search-user`];

let documents: BundleDocument[];

beforeAll(async () => {
  const { layers, problems } = await loadLayers(DIRS);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  documents = resolveLayers(layers).documents;
});

describe('stored documents', () => {
  it('round-trip: fromStoredDocument(toStoredDocument(doc)) equals the document', () => {
    expect(documents.length).toBeGreaterThan(20);
    for (const doc of documents) {
      const stored = StoredDocumentSchema.parse(toStoredDocument(doc));
      expect(stored).not.toHaveProperty('title');
      expect(stored).not.toHaveProperty('content');
      const restored = fromStoredDocument(stored);
      expect(restored).toEqual(doc);
      expect(DocumentSchema.parse(restored)).toEqual(doc);
      expect(Object.keys(restored)).toEqual(Object.keys(DocumentSchema.shape));
    }
  });

  it('keeps the summary only when it differs from the content: cut, or taken from the description or title', () => {
    const truncated = documents.find((d) => d.summaryTruncated);
    expect(truncated).toBeDefined();
    expect(toStoredDocument(truncated as BundleDocument).summary).toBe(truncated?.summary);
    const plain = documents.find((d) => !d.summaryTruncated && d.content !== '');
    expect(toStoredDocument(plain as BundleDocument)).not.toHaveProperty('summary');
    const noContent: BundleDocument = { ...(plain as BundleDocument), content: '', summary: 'from the description', resolved: { ...(plain as BundleDocument).resolved } };
    noContent.resolved.annotation = { ...noContent.resolved.annotation, content: '' };
    expect(toStoredDocument(noContent).summary).toBe('from the description');
    expect(fromStoredDocument(toStoredDocument(noContent)).summary).toBe('from the description');
  });

  it('refuses a document whose title or content is not its resolved annotation\'s', () => {
    const doc = documents[0] as BundleDocument;
    expect(() => toStoredDocument({ ...doc, title: `${doc.title}!` })).toThrow(/internal/);
  });

  it('a loaded bundle holds the full documents', async () => {
    const result = await compileLayers(DIRS);
    if (!result.ok) throw new Error('fixture layers do not compile');
    const bundle = openBuiltBundle(result.bundle.files);
    expect(bundle.documents).toEqual(documents);
  });
});

describe('isJsonValue', () => {
  it('accepts JSON values and rejects everything JSON cannot hold', () => {
    for (const ok of [null, 0, -1.5, '', 'x', true, [], {}, { a: [1, { b: null }] }, JSON.parse('{"__proto__":{"x":1}}') as unknown, Object.create(null) as unknown]) {
      expect(isJsonValue(ok), JSON.stringify(ok)).toBe(true);
      expect(JsonValueSchema.safeParse(ok).success).toBe(true);
    }
    for (const bad of [undefined, Number.NaN, Number.POSITIVE_INFINITY, () => 1, 1n, Symbol('s'), new Date(0), [1, undefined], { a: undefined }, { a: [Number.NaN] }]) {
      expect(isJsonValue(bad), String(bad)).toBe(false);
      expect(JsonValueSchema.safeParse(bad).success).toBe(false);
    }
  });
});
