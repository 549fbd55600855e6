/**
 * The search index shared by the build (which serializes it into the bundle) and every reader (MCP
 * and site load the same JSON). Substring semantics (protocol: 中文按子串匹配) come from indexing every
 * suffix of every term, so a prefix lookup of a query part finds it anywhere inside a term; candidates
 * are then checked exactly against the document text.
 */
import MiniSearch, { type Options } from 'minisearch';
import type { BundleDocument, TokenizerInfo } from '../bundle/schema.js';

export const TOKENIZER: TokenizerInfo = { id: 'pvfdoc-suffix', version: 1 };

/** Suffixes longer than this are cut: a query part is looked up by at most this many code points. */
export const MAX_TERM_CODE_POINTS = 24;

export const SEARCH_FIELDS = ['id', 'description', 'title', 'content', 'section', 'fieldId', 'relation', 'values'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export interface SearchableRecord {
  /** Internal numeric id: the document's position in documents.json. */
  n: number;
  id: string;
  description: string;
  title: string;
  content: string;
  section: string;
  fieldId: string;
  relation: string;
  values: string;
}

const SEPARATOR = /[\s\p{P}\p{S}]+/u;

export function splitTerms(text: string): string[] {
  return text.toLowerCase().split(SEPARATOR).filter((t) => t.length > 0);
}

function suffixes(term: string): string[] {
  const points = Array.from(term);
  const out: string[] = [];
  for (let i = 0; i < points.length; i++) out.push(points.slice(i, i + MAX_TERM_CODE_POINTS).join(''));
  return out;
}

/** Query part as looked up in the index: lower-cased and cut like an indexed suffix. */
export function queryTerm(part: string): string {
  return Array.from(part.toLowerCase()).slice(0, MAX_TERM_CODE_POINTS).join('');
}

export function miniSearchOptions(): Options<SearchableRecord> {
  return {
    idField: 'n',
    fields: [...SEARCH_FIELDS],
    storeFields: [],
    tokenize: (text) => splitTerms(text),
    processTerm: (term) => suffixes(term),
    searchOptions: {
      tokenize: (text) => splitTerms(text),
      processTerm: (term) => queryTerm(term),
      prefix: true,
      combineWith: 'AND',
    },
  };
}

export function toSearchableRecord(doc: BundleDocument, n: number, values: readonly (readonly [string, string])[] | undefined): SearchableRecord {
  return {
    n,
    id: doc.id,
    description: doc.description,
    title: doc.title,
    content: doc.content,
    section: doc.section ?? '',
    fieldId: doc.fieldId ?? '',
    relation: doc.relation ?? '',
    values: values ? values.map(([k, v]) => `${k}\n${v}`).join('\n') : '',
  };
}

export function createSearchIndex(records: readonly SearchableRecord[]): MiniSearch<SearchableRecord> {
  const index = new MiniSearch<SearchableRecord>(miniSearchOptions());
  index.addAll(records);
  return index;
}

export function loadSearchIndex(plain: unknown): MiniSearch<SearchableRecord> {
  return MiniSearch.loadJS<SearchableRecord>(plain as Parameters<typeof MiniSearch.loadJS>[0], miniSearchOptions());
}
