import type { BundleDocument, SearchIndexFile } from '../runtime/bundle/schema.js';
import { createSearchIndex, serializeSearchIndex, toSearchableRecord } from '../runtime/bundle/search-index.js';

/** Builds the serialized search index of a bundle; position i is documents[i]. */
export function indexSearch(documents: readonly BundleDocument[], values: Record<string, [string, string][]>): SearchIndexFile {
  const index = createSearchIndex(documents.map((doc, n) => toSearchableRecord(doc, n, values[doc.documentId])));
  return serializeSearchIndex(index, documents.map((d) => d.documentId));
}
