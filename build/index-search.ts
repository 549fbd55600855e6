import type { BundleDocument, SearchIndexFile } from '../runtime/bundle/schema.js';
import { TOKENIZER, createSearchIndex, toSearchableRecord } from '../runtime/search/search-index.js';

/** Builds the serialized search index of a bundle; internal id i is documents[i]. */
export function indexSearch(documents: readonly BundleDocument[], values: Record<string, [string, string][]>): SearchIndexFile {
  const index = createSearchIndex(documents.map((doc, n) => toSearchableRecord(doc, n, values[doc.documentId])));
  return {
    tokenizer: TOKENIZER,
    documentIds: documents.map((d) => d.documentId),
    index: JSON.parse(JSON.stringify(index)) as SearchIndexFile['index'],
  };
}
