/**
 * Per-bundle text that search checks query words against: every searchable field lower-cased once, the
 * enum keys and labels of a document joined into one lower-cased text, and the query-independent part
 * of the ranking order. Built lazily, on the first search of a bundle, and kept on the bundle object.
 *
 * With `deferredContent` (the site's light search, whose documents fetch their content in shards) a
 * document's content is read and lower-cased only when a search looks at it, and never kept: a read
 * before the content has arrived must not leave an empty text behind.
 */
import type { BundleDocument } from './schema.js';
import { matchSectionPattern } from '../script/match-glob.js';
import { foldSectionName } from '../script/parse-script-view.js';
import { extensionLabels } from './search-index.js';

/** The searchable fields of one document, lower-cased, plus the keys the filters compare. */
export interface DocumentText {
  id: string;
  title: string;
  /** The section as stored, lower-cased (not trimmed), or "" when the document has none. */
  section: string;
  fieldId: string;
  relation: string;
  description: string;
  content: string;
  /** Sentinel labels and column titles, one a line (search-index.ts `extensionLabels`). */
  labels: string;
  /** title.trim(), lower-cased: compared for an exact title match. */
  titleKey: string;
  /** section.trim(), lower-cased, or null: compared with the section filter. */
  sectionKey: string | null;
  /** The target's `sectionPattern` (pvfdoc), or null: the section filter also matches names it fits. */
  sectionPattern: string | null;
  /** match.extensions, lower-cased. */
  extensions: string[];
}

/** Enum keys and labels of a document, lower-cased, each followed by "\n", with where each one starts. */
interface ValuesText {
  text: string;
  /** starts[2i] is where the key of value i starts, starts[2i + 1] where its label starts. */
  starts: Int32Array;
}

/**
 * Document properties that search filters compare for equality. `extension`: each of the document's
 * own extensions (lower-cased), or "" for a document without any (it applies to every extension).
 */
type FilterKey = 'kind' | 'targetKind' | 'annotationType' | 'relation' | 'section' | 'extension' | 'trust';

export interface SearchTextsOptions {
  /** Read each document's content when a search looks at it, not when the texts are built. */
  deferredContent?: boolean;
}

export class SearchTexts {
  private texts: DocumentText[] | undefined;
  private everyPosition: Int32Array | undefined;
  private readonly byFilter = new Map<FilterKey, Map<string, Int32Array>>();
  private readonly valueTexts: (ValuesText | undefined)[] = [];
  private ranks: { rankOf: Int32Array; positionAt: Int32Array } | undefined;

  constructor(
    private readonly documents: readonly BundleDocument[],
    private readonly valuesOf: (documentId: string) => readonly (readonly [string, string])[],
    private readonly options: SearchTextsOptions = {},
  ) {}

  /** The lower-cased fields of every document, by position. */
  all(): readonly DocumentText[] {
    this.texts ??= this.documents.map(this.options.deferredContent ? (doc) => new DeferredContentText(doc) : (doc) => toDocumentText(doc));
    return this.texts;
  }

  /** The lower-cased enum text of the document at `position` (built on first use). */
  values(position: number): ValuesText {
    let cached = this.valueTexts[position];
    if (cached === undefined) {
      const doc = this.documents[position];
      cached = toValuesText(doc ? this.valuesOf(doc.documentId) : []);
      this.valueTexts[position] = cached;
    }
    return cached;
  }

  /** 0, 1, … documents.length − 1. */
  allPositions(): Int32Array {
    this.everyPosition ??= Int32Array.from(this.documents, (_, i) => i);
    return this.everyPosition;
  }

  /**
   * Positions (ascending) of the documents whose `key` equals one of `values`: kind, target kind,
   * annotation type, relation, section (trimmed and lower-cased, as the section filter compares it),
   * extension, or trust (documents without one are in no list).
   */
  positionsWith(key: FilterKey, values: readonly string[]): Int32Array {
    let groups = this.byFilter.get(key);
    if (groups === undefined) {
      const lists = new Map<string, number[]>();
      const add = (value: string | null, position: number) => {
        if (value === null) return;
        const list = lists.get(value);
        if (list) {
          if (list[list.length - 1] !== position) list.push(position);
        } else lists.set(value, [position]);
      };
      this.all().forEach((text, position) => {
        const doc = this.documents[position] as BundleDocument;
        if (key === 'extension') {
          if (text.extensions.length === 0) add('', position);
          for (const e of text.extensions) add(e, position);
        } else add(key === 'section' ? text.sectionKey : doc[key], position);
      });
      groups = new Map([...lists].map(([value, list]) => [value, Int32Array.from(list)]));
      this.byFilter.set(key, groups);
    }
    const found = [...new Set(values)].map((v) => groups.get(v)).filter((l): l is Int32Array => l !== undefined);
    if (key === 'section') {
      // Documents whose sectionPattern fits one of the names (pvfdoc), beside those of that exact section.
      const fitting = this.all().flatMap((text, position) =>
        text.sectionPattern !== null && values.some((v) => matchSectionPattern(text.sectionPattern as string, v)) ? [position] : [],
      );
      if (fitting.length > 0) found.push(Int32Array.from(fitting));
    }
    if (found.length === 1) return found[0] as Int32Array;
    const all = new Int32Array(found.reduce((n, l) => n + l.length, 0));
    let at = 0;
    for (const list of found) {
      all.set(list, at);
      at += list.length;
    }
    all.sort();
    // A document with several extensions is in several lists.
    let k = 0;
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[k++] = all[i] as number;
    return all.subarray(0, k);
  }

  /**
   * The ranking order that does not depend on the query: rule before field, then id (code-unit order),
   * then layer order, then position. rankOf[position] is a document's place in it; positionAt inverts it.
   */
  order(): { rankOf: Int32Array; positionAt: Int32Array } {
    if (this.ranks === undefined) {
      const docs = this.documents;
      const positions = docs.map((_, i) => i);
      positions.sort((i, j) => {
        const a = docs[i] as BundleDocument;
        const b = docs[j] as BundleDocument;
        if (a.kind !== b.kind) return a.kind === 'rule' ? -1 : 1;
        if (a.id !== b.id) return a.id < b.id ? -1 : 1;
        if (a.layerIndex !== b.layerIndex) return a.layerIndex - b.layerIndex;
        return i - j;
      });
      const positionAt = Int32Array.from(positions);
      const rankOf = new Int32Array(docs.length);
      positionAt.forEach((position, rank) => {
        rankOf[position] = rank;
      });
      this.ranks = { rankOf, positionAt };
    }
    return this.ranks;
  }
}

function toDocumentText(doc: BundleDocument, content = doc.content.toLowerCase()): DocumentText {
  return {
    id: doc.id.toLowerCase(),
    title: doc.title.toLowerCase(),
    section: (doc.section ?? '').toLowerCase(),
    fieldId: (doc.fieldId ?? '').toLowerCase(),
    relation: (doc.relation ?? '').toLowerCase(),
    description: doc.description.toLowerCase(),
    content,
    labels: extensionLabels(doc).toLowerCase(),
    titleKey: doc.title.trim().toLowerCase(),
    sectionKey: doc.section === null ? null : foldSectionName(doc.section.trim()),
    sectionPattern: doc.targetKind === 'path' ? null : doc.resolved.target.sectionPattern,
    extensions: doc.match.extensions.map((e) => e.toLowerCase()),
  };
}

/** A document's text whose content is lower-cased from the document each time it is read. */
class DeferredContentText implements DocumentText {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  readonly fieldId: string;
  readonly relation: string;
  readonly description: string;
  readonly labels: string;
  readonly titleKey: string;
  readonly sectionKey: string | null;
  readonly sectionPattern: string | null;
  readonly extensions: string[];
  readonly #doc: BundleDocument;

  constructor(doc: BundleDocument) {
    const text = toDocumentText(doc, '');
    this.id = text.id;
    this.title = text.title;
    this.section = text.section;
    this.fieldId = text.fieldId;
    this.relation = text.relation;
    this.description = text.description;
    this.labels = text.labels;
    this.titleKey = text.titleKey;
    this.sectionKey = text.sectionKey;
    this.sectionPattern = text.sectionPattern;
    this.extensions = text.extensions;
    this.#doc = doc;
  }

  get content(): string {
    return this.#doc.content.toLowerCase();
  }
}

/**
 * Query words never hold "\n" (search-documents.ts folds whitespace inside a bracketed group to one
 * space), so a word found in the joined text lies inside one key or label.
 */
function toValuesText(values: readonly (readonly [string, string])[]): ValuesText {
  const parts: string[] = [];
  const starts = new Int32Array(values.length * 2);
  let at = 0;
  values.forEach(([key, label], i) => {
    const k = key.toLowerCase();
    const l = label.toLowerCase();
    starts[2 * i] = at;
    at += k.length + 1;
    starts[2 * i + 1] = at;
    at += l.length + 1;
    parts.push(k, l);
  });
  return { text: parts.length > 0 ? `${parts.join('\n')}\n` : '', starts };
}

/** Index of the value whose key or label holds text offset `offset` (starts is ascending). */
export function valueAt(starts: Int32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo >> 1;
}
