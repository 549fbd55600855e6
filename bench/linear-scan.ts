/**
 * Baseline for search: no index, just a pass over every document that applies the same filters as
 * `searchDocuments` and checks each lower-cased query word (split as searchDocuments splits them, so
 * `[skill levelup]` is one word) as a substring of the document's text (id,
 * description, title, content, section, field id, relation, enum keys and labels). It returns the same
 * page size, sorted by id, so it does comparable work per hit; it does not rank.
 */
import type { Bundle } from '../runtime/bundle/load-bundle.js';
import type { BundleDocument } from '../runtime/bundle/schema.js';
import { normalizeSection, queryWords, statusIn } from '../runtime/search/search-documents.js';
import { DEFAULT_SEARCH_LIMIT, type SearchInput } from '../runtime/search/search-schema.js';

interface LinearResult {
  totalMatches: number;
  documentIds: string[];
}

export function linearSearch(bundle: Bundle, input: SearchInput): LinearResult {
  const words = queryWords(input.query);
  const requested = input.pvfVersion ?? 'all';
  if (requested === 'current') throw new Error('the linear baseline takes an explicit pvfVersion or "all"');
  const versionKey = requested === 'all' ? null : requested;
  const extensions = input.extensions?.length ? input.extensions.map((e) => e.trim().toLowerCase()) : null;
  const section = input.section !== undefined && input.section.trim() !== '' ? normalizeSection(input.section) : null;
  const relation = input.relation !== undefined && input.relation !== '' ? input.relation : null;
  const kinds = input.kinds?.length ? input.kinds : null;
  const targetKinds = input.targetKinds?.length ? input.targetKinds : null;
  const annotationTypes = input.annotationTypes?.length ? input.annotationTypes : null;
  const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;

  const hits: BundleDocument[] = [];
  for (const doc of bundle.documents) {
    if (kinds && !kinds.includes(doc.kind)) continue;
    if (targetKinds && !targetKinds.includes(doc.targetKind)) continue;
    if (annotationTypes && !annotationTypes.includes(doc.annotationType)) continue;
    if (relation !== null && doc.relation !== relation) continue;
    if (section !== null && (doc.section === null || doc.section.trim().toLowerCase() !== section)) continue;
    if (extensions) {
      const own = doc.match.extensions.map((e) => e.toLowerCase());
      if (own.length > 0 && !own.some((e) => extensions.includes(e))) continue;
    }
    if ((input.status ?? 'effective') === 'effective' && !statusIn(doc, versionKey).effective) continue;
    if (!words.every((word) => containsWord(bundle, doc, word))) continue;
    hits.push(doc);
  }
  const merged = mergeImplicitRules(hits, versionKey);
  merged.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { totalMatches: merged.length, documentIds: merged.slice(0, limit).map((d) => d.documentId) };
}

/**
 * The hits with each implicit `field:<id>` rule left out when the first hit field of that id is in
 * the same state (search gives them as one hit, the field's).
 */
export function mergeImplicitRules(hits: readonly BundleDocument[], versionKey: string | null): BundleDocument[] {
  const fields = new Map<string, BundleDocument>();
  for (const d of hits) if (d.kind === 'field' && !fields.has(d.id)) fields.set(d.id, d);
  const used = new Set<string>();
  return hits.filter((d) => {
    if (d.kind !== 'rule' || d.origin !== 'generated' || d.fieldId === null || d.id !== `field:${d.fieldId}`) return true;
    const field = fields.get(d.fieldId);
    if (field === undefined || used.has(field.documentId) || statusIn(field, versionKey).state !== statusIn(d, versionKey).state) return true;
    used.add(field.documentId);
    return false;
  });
}

function containsWord(bundle: Bundle, doc: BundleDocument, word: string): boolean {
  const texts = [doc.id, doc.description, doc.title, doc.content, doc.section ?? '', doc.fieldId ?? '', doc.relation ?? ''];
  if (texts.some((t) => t.toLowerCase().includes(word))) return true;
  // Same courtesy as searchDocuments: "[rarity]" finds the section "rarity".
  const bare = normalizeSection(word);
  if (bare !== '' && doc.section !== null && doc.section.toLowerCase().includes(bare)) return true;
  if (doc.valueCount === 0) return false;
  return bundle.valuesOf(doc.documentId).some(([k, v]) => k.toLowerCase().includes(word) || v.toLowerCase().includes(word));
}
