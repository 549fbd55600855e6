/**
 * The search index shared by the build (which serializes it into the bundle) and every reader (MCP and
 * site load the same JSON). It only proposes candidates; search-documents.ts then checks every query
 * word as a real case-insensitive substring of the document's text (protocol: 中文按子串匹配).
 *
 * Terms are UTF-16 code-unit bigrams of the lower-cased text of each searchable field. A bigram that
 * touches whitespace is not indexed; instead a code unit followed by whitespace (or by the end of the
 * field) is indexed on its own, as a unigram. Every substring of a field therefore has all its bigrams
 * (and the unigram of each unit it holds before whitespace) among the document's terms, so:
 *
 * - a query word of two or more units → the AND of its terms (exact term lookups, no prefix search);
 * - a one-unit word → the union of every term that starts with that unit (bigram or unigram).
 *
 * Postings are document positions (index i = documents[i]), one per (term, document), kept sorted. On
 * disk each posting list is a string of gap-encoded positions (see `encodePostings`), so the file is a
 * small JSON object of a few thousand strings and loads without any per-posting object.
 */
import type { BundleDocument, SearchIndexFile, TokenizerInfo } from './schema.js';

export const TOKENIZER: TokenizerInfo = { id: 'pvfdoc-bigram', version: 1 };

/** Texts of one document that the index covers, in positional order of the documents. */
export interface SearchableRecord {
  /** The document's position in documents.json. */
  n: number;
  id: string;
  description: string;
  title: string;
  content: string;
  section: string;
  fieldId: string;
  relation: string;
  /** Enum keys and labels, each on its own line. */
  values: string;
  /** Sentinel labels and column titles (pvfdoc extensions), each on its own line. */
  labels: string;
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
    labels: extensionLabels(doc),
  };
}

/**
 * The sentinel labels and column titles of a document, one a line: searched like content, so a column
 * title such as 发布任务的 NPC finds its rule.
 */
export function extensionLabels(doc: BundleDocument): string {
  const { sentinels, columns } = doc.resolved.annotation;
  return [...(sentinels ?? []).map(([, label]) => label), ...(columns ?? [])].filter((t) => t !== '').join('\n');
}

/**
 * Whether a UTF-16 code unit is whitespace in the sense of the regular expression `\s` (the class query
 * words are split on), so that index and query agree on which units border whitespace.
 */
function isSpaceUnit(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Calls `emit` with every term of an already lower-cased text (a term may repeat). */
export function forEachTerm(text: string, emit: (term: string) => void): void {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    if (isSpaceUnit(text.charCodeAt(i))) continue;
    if (i + 1 < n && !isSpaceUnit(text.charCodeAt(i + 1))) emit(text.slice(i, i + 2));
    else emit(text[i] as string);
  }
}

/**
 * Terms a document must hold when `word` (lower-case, no leading or trailing whitespace, at least two
 * code units) is a substring of one of its fields: its bigrams without whitespace, and the unigram of
 * each unit that is followed by whitespace inside the word.
 */
export function wordTerms(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 1 < word.length; i++) {
    if (isSpaceUnit(word.charCodeAt(i))) continue;
    out.add(isSpaceUnit(word.charCodeAt(i + 1)) ? (word[i] as string) : word.slice(i, i + 2));
  }
  return [...out];
}

// Gap encoding. Each posting is stored as gap − 1, where gap is its distance from the previous posting
// (the first is counted from −1), written in mixed radix: zero or more continuation digits (base 27,
// most significant first) and one final digit (base 64). Digits are printable ASCII from '#' (0x23) to
// '~' (0x7e) except '\' (0x5c), so JSON never escapes them: the first 64 are final digits, the last 27
// continuation digits. A gap below 65 takes one character, below 1 729 two.
const FINAL_RADIX = 64;
const CONTINUATION_RADIX = 27;
const DIGITS = Array.from({ length: 0x7f - 0x23 }, (_, i) => String.fromCharCode(0x23 + i)).filter((c) => c !== '\\');
/** Code unit → digit value (final digits 0–63, continuation digits 64–90); −1 for other units. */
const DIGIT_OF = new Int8Array(128).fill(-1);
DIGITS.forEach((c, i) => {
  DIGIT_OF[c.charCodeAt(0)] = i;
});

export function encodePostings(positions: ArrayLike<number>): string {
  const out: string[] = [];
  let previous = -1;
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i] as number;
    let v = position - previous - 1;
    if (v < 0) throw new Error(`internal: postings are not strictly increasing at ${position}`);
    previous = position;
    let digits = DIGITS[v % FINAL_RADIX] as string;
    v = Math.floor(v / FINAL_RADIX);
    while (v > 0) {
      digits = (DIGITS[FINAL_RADIX + (v % CONTINUATION_RADIX)] as string) + digits;
      v = Math.floor(v / CONTINUATION_RADIX);
    }
    out.push(digits);
  }
  return out.join('');
}

/** Decodes `text` into `out` from `at`; returns the count, or throws on a malformed list. */
function decodePostingsInto(text: string, documentCount: number, out: Int32Array, at: number): number {
  let k = at;
  let previous = -1;
  let v = 0;
  let pending = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? (DIGIT_OF[c] as number) : -1;
    if (d < 0) throw new Error(`unexpected character ${JSON.stringify(text[i])}`);
    if (d >= FINAL_RADIX) {
      v = v * CONTINUATION_RADIX + (d - FINAL_RADIX);
      pending = true;
      continue;
    }
    previous += v * FINAL_RADIX + d + 1;
    if (previous >= documentCount) throw new Error(`position ${previous} is beyond the ${documentCount} documents`);
    out[k++] = previous;
    v = 0;
    pending = false;
  }
  if (pending) throw new Error('the list ends in the middle of a number');
  return k - at;
}

function countFinalDigits(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && (DIGIT_OF[c] as number) >= 0 && (DIGIT_OF[c] as number) < FINAL_RADIX) count++;
  }
  return count;
}

export function decodePostings(text: string, documentCount: number): Int32Array {
  const out = new Int32Array(countFinalDigits(text));
  decodePostingsInto(text, documentCount, out, 0);
  return out;
}

/** A loaded (or freshly built) index: term → sorted document positions. */
export class SearchIndex {
  readonly documentCount: number;
  readonly termCount: number;
  /** Number of (term, document) pairs. */
  readonly postingCount: number;
  private readonly postings: Map<string, Int32Array>;
  /** First code unit → every posting list of a term starting with it (built on first use). */
  private byFirstUnit: Map<number, Int32Array[]> | undefined;

  constructor(documentCount: number, postings: Map<string, Int32Array>) {
    this.documentCount = documentCount;
    this.postings = postings;
    this.termCount = postings.size;
    let count = 0;
    for (const list of postings.values()) count += list.length;
    this.postingCount = count;
  }

  /** Sorted positions of the documents holding `term`, or an empty list. */
  postingsOf(term: string): Int32Array {
    return this.postings.get(term) ?? EMPTY;
  }

  /**
   * Positions (ascending) of the documents that may contain every word as a substring of one of their
   * fields, or null when the words put no constraint on them (every document is a candidate). Words are
   * lower-case, without leading or trailing whitespace, and not empty.
   */
  candidates(words: readonly string[]): Int32Array | null {
    const lists: Int32Array[] = [];
    const terms = new Set<string>();
    for (const word of words) {
      if (word.length === 1) lists.push(this.unitUnion(word.charCodeAt(0)));
      else for (const term of wordTerms(word)) terms.add(term);
    }
    for (const term of terms) lists.push(this.postingsOf(term));
    return intersectAll(lists);
  }

  /** Every term as a map from term to sorted positions (build output; the map is not copied). */
  entries(): ReadonlyMap<string, Int32Array> {
    return this.postings;
  }

  private unitUnion(unit: number): Int32Array {
    if (this.byFirstUnit === undefined) {
      const groups = new Map<number, Int32Array[]>();
      for (const [term, list] of this.postings) {
        const first = term.charCodeAt(0);
        const group = groups.get(first);
        if (group) group.push(list);
        else groups.set(first, [list]);
      }
      this.byFirstUnit = groups;
    }
    const group = this.byFirstUnit.get(unit);
    if (!group) return EMPTY;
    if (group.length === 1) return group[0] as Int32Array;
    const seen = new Uint8Array(this.documentCount);
    let count = 0;
    for (const list of group) {
      for (let i = 0; i < list.length; i++) {
        const p = list[i] as number;
        if (seen[p] === 0) {
          seen[p] = 1;
          count++;
        }
      }
    }
    const out = new Int32Array(count);
    for (let p = 0, k = 0; k < count; p++) if (seen[p] === 1) out[k++] = p;
    return out;
  }
}

const EMPTY = new Int32Array(0);

/** Intersection of sorted lists (shortest first), or null for no lists. */
export function intersectAll(lists: readonly Int32Array[]): Int32Array | null {
  if (lists.length === 0) return null;
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let result = sorted[0] as Int32Array;
  for (let i = 1; i < sorted.length && result.length > 0; i++) result = intersect(result, sorted[i] as Int32Array);
  return result;
}

/** Intersection of two sorted lists. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out[k++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, k);
}

const RECORD_FIELDS = ['id', 'description', 'title', 'content', 'section', 'fieldId', 'relation', 'values', 'labels'] as const;

/** Term codes: a bigram is (first unit × 65 536 + second unit), a unigram UNIGRAM + its unit. */
const UNIT_RANGE = 0x10000;
const UNIGRAM = UNIT_RANGE * UNIT_RANGE;

/** Builds the index of records given in position order (record i has n = i). */
export function createSearchIndex(records: readonly SearchableRecord[]): SearchIndex {
  // Terms are collected as numbers, not strings: no string per term occurrence.
  const lists = new Map<number, number[]>();
  records.forEach((record, n) => {
    if (record.n !== n) throw new Error(`internal: search record ${record.n} is at position ${n}`);
    for (const field of RECORD_FIELDS) {
      const raw = record[field];
      if (raw === '') continue;
      const text = raw.toLowerCase();
      const length = text.length;
      for (let i = 0; i < length; i++) {
        const c = text.charCodeAt(i);
        if (isSpaceUnit(c)) continue;
        const next = i + 1 < length ? text.charCodeAt(i + 1) : -1;
        const code = next >= 0 && !isSpaceUnit(next) ? c * UNIT_RANGE + next : UNIGRAM + c;
        const list = lists.get(code);
        if (list === undefined) lists.set(code, [n]);
        else if (list[list.length - 1] !== n) list.push(n);
      }
    }
  });
  const postings = new Map<string, Int32Array>();
  for (const [code, list] of lists) {
    const term = code >= UNIGRAM ? String.fromCharCode(code - UNIGRAM) : String.fromCharCode(Math.floor(code / UNIT_RANGE), code % UNIT_RANGE);
    postings.set(term, Int32Array.from(list));
  }
  return new SearchIndex(records.length, postings);
}

/** The index as stored in search-index.json (terms in code-unit order, so the bytes are stable). */
export function serializeSearchIndex(index: SearchIndex, documentIds: readonly string[]): SearchIndexFile {
  if (documentIds.length !== index.documentCount) throw new Error('internal: documentIds do not match the index');
  const terms: Record<string, string> = {};
  for (const term of [...index.entries().keys()].sort()) terms[term] = encodePostings(index.postingsOf(term));
  return { tokenizer: TOKENIZER, documentIds: [...documentIds], terms };
}

/** Reads the `terms` of search-index.json; throws an Error naming the first malformed list. */
export function loadSearchIndex(terms: Readonly<Record<string, string>>, documentCount: number): SearchIndex {
  const entries = Object.entries(terms);
  let total = 0;
  for (const [, text] of entries) total += countFinalDigits(text);
  // One buffer for every list: a few thousand views instead of a few thousand small allocations.
  const buffer = new Int32Array(total);
  const postings = new Map<string, Int32Array>();
  let at = 0;
  for (const [term, text] of entries) {
    if (term === '' || term.length > 2) throw new Error(`term ${JSON.stringify(term)} is not a unigram or bigram`);
    let count: number;
    try {
      count = decodePostingsInto(text, documentCount, buffer, at);
    } catch (cause) {
      throw new Error(`postings of term ${JSON.stringify(term)}: ${(cause as Error).message}`, { cause });
    }
    const list = buffer.subarray(at, at + count);
    at += count;
    postings.set(term, list);
  }
  return new SearchIndex(documentCount, postings);
}
