/**
 * `pvf_annotation_search` over a bundle (protocol: 规则搜索; protocol-notes: Search).
 */
import type { Bundle } from '../bundle/load-bundle.js';
import type { BundleDocument, VersionStatus } from '../bundle/schema.js';
import { UNKNOWN_VERSION } from '../bundle/constants.js';
import { bindingHash, checkOffset, decodeCursor, encodeCursor, type CursorKey } from '../bundle/cursor.js';
import { PvfdocError } from '../errors.js';
import { extensionOf } from '../script/archive-path.js';
import { matchesDefinition, matchKey, matchSectionPattern } from '../script/match-glob.js';
import { foldSectionName } from '../script/parse-script-view.js';
import { DEFAULT_SEARCH_LIMIT, MAX_MATCHED_VALUES, MAX_SEARCH_RESPONSE_BYTES, type SearchInput, type SearchItem, type SearchOutput } from './search-schema.js';
import { intersectAll } from '../bundle/search-index.js';
import { valueAt, type DocumentText } from '../bundle/search-text.js';

export const SEARCH_TOOL = 'pvf_annotation_search';

export interface SearchOptions {
  /** The client version of the workspace named by `workspaceId`, when `pvfVersion` is "current". */
  currentVersion?: string;
  /** Signs and checks cursors (runtime/bundle/cursor.ts); default LOCAL_CURSOR_KEY. */
  cursorKey?: CursorKey;
}

/** Weight of a query word by the best field it is found in (see `matchScore`). */
const NAME_WEIGHT = 3;
const SHORT_TEXT_WEIGHT = 2;
const LONG_TEXT_WEIGHT = 1;

/**
 * A bracketed group that starts a word and is followed by whitespace or the end, such as
 * `[skill levelup]` (no brackets nested inside), or else a run of non-whitespace.
 */
const QUERY_WORD = /\[[^[\]]*\](?=\s|$)|\S+/gu;

/**
 * The words of a query, lower-cased: runs of non-whitespace, except that a bracketed group such as
 * `[skill levelup]` stays one word (whitespace inside it folded to one space), so a section name with a
 * space can be searched in its bracketed form.
 */
export function queryWords(query: string | undefined): string[] {
  const words: string[] = [];
  for (const match of (query ?? '').toLowerCase().matchAll(QUERY_WORD)) {
    words.push(match[0].startsWith('[') ? match[0].replace(/\s+/gu, ' ') : match[0]);
  }
  return words;
}

export function normalizeSection(section: string): string {
  const trimmed = section.trim();
  const unbracketed = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  return foldSectionName(unbracketed.trim());
}

interface Word {
  /** The word as typed, lower-cased. */
  text: string;
  /** normalizeSection(text): also found in a section, and compared for an exact id/section/title match. */
  bare: string;
}

export function searchDocuments(bundle: Bundle, input: SearchInput, options: SearchOptions = {}): SearchOutput {
  const requested = input.pvfVersion ?? 'current';
  const versionKey = resolveVersion(bundle, requested, input.workspaceId, options);
  const words = queryWords(input.query);
  const filePath = input.filePath !== undefined && input.filePath.trim() !== '' ? matchKey(input.filePath) : null;
  const pathKind = input.pathKind ?? 'file';
  if (input.pathKind === 'directory' && filePath === null) {
    throw new PvfdocError('INVALID_ARGUMENT', 'pathKind "directory" needs a filePath naming the folder', {
      hint: 'Give filePath (e.g. "equipment/character"), or drop pathKind.',
    });
  }
  const extensions = input.extensions?.length ? [...new Set(input.extensions.map((e) => e.trim().toLowerCase()))].sort() : null;
  if (extensions?.some((e) => !e.startsWith('.') || e.includes('/') || e.includes('\\'))) {
    throw new PvfdocError('INVALID_ARGUMENT', `extensions must look like ".equ": got ${JSON.stringify(input.extensions)}`, {
      hint: 'Give each extension with its leading dot and no path.',
    });
  }
  const section = input.section !== undefined && input.section.trim() !== '' ? normalizeSection(input.section) : null;
  const relation = input.relation !== undefined && input.relation !== '' ? input.relation : null;
  const kinds = input.kinds?.length ? [...new Set(input.kinds)].sort() : null;
  const targetKinds = input.targetKinds?.length ? [...new Set(input.targetKinds)].sort() : null;
  const annotationTypes = input.annotationTypes?.length ? [...new Set(input.annotationTypes)].sort() : null;
  const trust = input.trust?.length ? [...new Set(input.trust)].sort() : null;
  const status = input.status ?? 'effective';
  const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;

  const binding = bindingHash({
    words,
    filePath,
    pathKind,
    extensions,
    section,
    relation,
    kinds,
    targetKinds,
    annotationTypes,
    trust,
    status,
    version: versionKey,
    requested,
    workspaceId: requested === 'current' ? (input.workspaceId ?? null) : null,
  });
  const offset = input.cursor ? decodeCursor(input.cursor, { tool: SEARCH_TOOL, rulesRevision: bundle.rulesRevision, binding }, options.cursorKey) : 0;

  // Every filter is the same for every item, so the reasons are too.
  const reasons: string[] = [];
  if (words.length > 0) reasons.push('query');
  if (kinds) reasons.push('kinds');
  if (targetKinds) reasons.push('targetKinds');
  if (annotationTypes) reasons.push('annotationTypes');
  if (relation !== null) reasons.push('relation');
  if (trust) reasons.push('trust');
  if (section !== null) reasons.push('section');
  if (filePath !== null) reasons.push('filePath');
  if (extensions) reasons.push('extensions');

  const query: Word[] = words.map((text) => ({ text, bare: normalizeSection(text) }));
  const docs = bundle.documents;
  const texts = bundle.searchTexts.all();
  const { rankOf, positionAt } = bundle.searchTexts.order();
  // Candidates narrowed by the filters that compare one property for equality (the same for any
  // query); every candidate is then checked in full below. A file of another extension matches nothing.
  const filterLists: Int32Array[] = [];
  if (extensions !== null && filePath !== null && !extensions.includes(extensionOf(filePath))) filterLists.push(new Int32Array(0));
  if (kinds) filterLists.push(bundle.searchTexts.positionsWith('kind', kinds));
  if (targetKinds) filterLists.push(bundle.searchTexts.positionsWith('targetKind', targetKinds));
  if (annotationTypes) filterLists.push(bundle.searchTexts.positionsWith('annotationType', annotationTypes));
  if (relation !== null) filterLists.push(bundle.searchTexts.positionsWith('relation', [relation]));
  if (trust) filterLists.push(bundle.searchTexts.positionsWith('trust', trust));
  if (section !== null) filterLists.push(bundle.searchTexts.positionsWith('section', [section]));
  if (extensions) filterLists.push(bundle.searchTexts.positionsWith('extension', [...extensions, '']));
  const directory = pathKind === 'directory';
  const n = docs.length;
  const implicit = implicitRules(bundle);

  /**
   * The sort keys of the hits for `q` (exact first, then higher score, then the query-independent order
   * rankOf; key % n is the rank), after a shared field and its implicit `field:<id>` rule are merged into
   * the field's hit. `merged` maps a field's position to the implicit rule's position folded into it.
   */
  const collect = (q: readonly Word[]): { sorted: Float64Array; merged: Map<number, number> } => {
    const lists = [...filterLists];
    if (q.length > 0) {
      const proposed = bundle.searchIndex.candidates(indexWords(q.map((w) => w.text)));
      if (proposed) lists.push(proposed);
    }
    const pool = intersectAll(lists) ?? bundle.searchTexts.allPositions();
    const count = pool.length;
    const maxScore = NAME_WEIGHT * q.length;
    const keys = new Float64Array(count);
    // Where the keys of the shared fields (the first hit of each id) and of implicit rules are in keys.
    const fieldSlot = new Map<string, [position: number, slot: number, state: string]>();
    const ruleSlots: [position: number, slot: number, fieldId: string, state: string][] = [];
    let matches = 0;
    for (let i = 0; i < count; i++) {
      const position = pool[i] as number;
      const doc = docs[position] as BundleDocument;
      const text = texts[position] as DocumentText;
      if (kinds && !kinds.includes(doc.kind)) continue;
      if (targetKinds && !targetKinds.includes(doc.targetKind)) continue;
      if (annotationTypes && !annotationTypes.includes(doc.annotationType)) continue;
      if (relation !== null && doc.relation !== relation) continue;
      if (trust && (doc.trust === null || !trust.includes(doc.trust))) continue;
      if (section !== null && text.sectionKey !== section && !(text.sectionPattern !== null && matchSectionPattern(text.sectionPattern, section))) continue;
      if (extensions && text.extensions.length > 0 && !text.extensions.some((e) => extensions.includes(e))) continue;
      if (status === 'effective' && !statusIn(doc, versionKey).effective) continue;
      if (filePath !== null) {
        if (directory && doc.targetKind !== 'path') continue;
        if (!matchesDefinition(doc.match, filePath, directory)) continue;
      }
      let score = 0;
      let exact = false;
      if (q.length > 0) {
        score = matchScore(bundle, position, doc, text, q);
        if (score < 0) continue;
        exact = isExact(text, q);
      }
      const fieldId = implicit.fieldId.get(position);
      if (fieldId !== undefined && !fieldSlot.has(fieldId)) fieldSlot.set(fieldId, [position, matches, statusIn(doc, versionKey).state]);
      const ruleFieldId = implicit.ruleField.get(position);
      if (ruleFieldId !== undefined) ruleSlots.push([position, matches, ruleFieldId, statusIn(doc, versionKey).state]);
      keys[matches++] = ((exact ? 0 : 1) * (maxScore + 1) + (maxScore - score)) * n + (rankOf[position] as number);
    }
    // One hit per shared field: its implicit rule, when also a hit in the same state, is folded into
    // the field's hit, which takes the better of the two places (a suppressed rule stays its own hit).
    const merged = new Map<number, number>();
    for (const [position, slot, fieldId, state] of ruleSlots) {
      const field = fieldSlot.get(fieldId);
      if (field === undefined || field[2] !== state || merged.has(field[0])) continue;
      const [fieldPosition, fieldAt] = field;
      merged.set(fieldPosition, position);
      const ruleKey = keys[slot] as number;
      keys[fieldAt] = Math.min(keys[fieldAt] as number, ruleKey - (rankOf[position] as number) + (rankOf[fieldPosition] as number));
      keys[slot] = Number.POSITIVE_INFINITY;
    }
    const sorted = keys.subarray(0, matches).sort();
    return { sorted: sorted.subarray(0, matches - merged.size), merged };
  };

  const { sorted, merged } = collect(query);
  const matches = sorted.length;
  checkOffset(offset, matches);

  // Filters stay exactly as given; an unknown relation or section is only pointed out.
  const warnings: string[] = [];
  if (relation !== null && !knownRelations(bundle).has(relation)) {
    warnings.push(unknownName('relation', relation, closestNames(relation, [...knownRelations(bundle)], (name) => relationPaths(bundle, name))));
  }
  if (section !== null && !texts.some((t) => t.sectionKey === section || (t.sectionPattern !== null && matchSectionPattern(t.sectionPattern, section)))) {
    warnings.push(unknownName('section', section, closestNames(section, [...new Set(texts.flatMap((t) => (t.sectionKey === null || t.sectionKey === '' ? [] : [t.sectionKey])))])));
  }
  // Shorter queries that would match with the same filters: counts only, never their results.
  const suggestions: { query: string; totalMatches: number }[] = [];
  if (matches === 0 && query.length > 0) {
    for (const candidate of shorterQueries(words)) {
      const hits = collect(candidate.map((text) => ({ text, bare: normalizeSection(text) }))).sorted.length;
      if (hits > 0) suggestions.push({ query: candidate.join(' '), totalMatches: hits });
    }
  }

  const items: SearchItem[] = [];
  for (let k = offset; k < Math.min(matches, offset + limit); k++) {
    const position = positionAt[(sorted[k] as number) % n] as number;
    const doc = docs[position] as BundleDocument;
    const item = toItem(bundle, doc, query, versionKey, reasons, extensions !== null && filePath === null);
    if (doc.kind === 'field') {
      const rulePosition = merged.get(position);
      const rule = rulePosition === undefined ? undefined : docs[rulePosition];
      item.implicitRuleDocumentId = rule?.documentId ?? null;
      item.implicitRuleId = rule?.id ?? null;
    }
    items.push(item);
  }
  const page = fitPage(items);
  const end = offset + page.length;
  const next = end < matches ? encodeCursor({ tool: SEARCH_TOOL, rulesRevision: bundle.rulesRevision, binding, offset: end }, options.cursorKey) : null;
  return {
    schemaVersion: 1,
    rulesRevision: bundle.rulesRevision,
    context: {
      workspaceId: input.workspaceId ?? null,
      pvfVersion: versionKey ?? 'all',
      filePath,
    },
    items: page,
    totalMatches: matches,
    nextCursor: next,
    truncated: page.length < Math.min(limit, Math.max(0, matches - offset)),
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(suggestions.length > 0 ? { suggestions } : {}),
  };
}

/** At most this many shorter queries are tried when nothing matches. */
export const MAX_SUGGESTION_TRIES = 10;
/** At most this many close names in an unknown-name warning. */
const MAX_CLOSE_NAMES = 5;

/**
 * Shorter queries to try, at most MAX_SUGGESTION_TRIES: each word dropped in turn (from the last), or
 * for a single word, its substrings one code point shorter, then two, … (longest first, left first),
 * down to 2 code points (a bracketed word loses its brackets first).
 */
export function shorterQueries(words: readonly string[]): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  const add = (q: string[]) => {
    const key = q.join(' ');
    if (out.length >= MAX_SUGGESTION_TRIES || q.length === 0 || key === words.join(' ') || seen.has(key)) return;
    seen.add(key);
    out.push(q);
  };
  if (words.length > 1) {
    for (let i = words.length - 1; i >= 0; i--) add(words.filter((_, j) => j !== i));
    return out;
  }
  const word = words[0] ?? '';
  const bare = normalizeSection(word);
  if (bare !== word && bare !== '') add([bare]);
  const points = [...bare];
  for (let length = points.length - 1; length >= 2 && out.length < MAX_SUGGESTION_TRIES; length--) {
    for (let start = 0; start + length <= points.length; start++) add([points.slice(start, start + length).join('')]);
  }
  return out;
}

const relationCache = new WeakMap<Bundle, Set<string>>();

/** Relation names of the bundle: those defined and those documents name. */
function knownRelations(bundle: Bundle): Set<string> {
  let names = relationCache.get(bundle);
  if (names === undefined) {
    names = new Set(bundle.relations.map((r) => r.name));
    for (const doc of bundle.documents) if (doc.relation !== null) names.add(doc.relation);
    relationCache.set(bundle, names);
  }
  return names;
}

/** The list paths of a relation, lower-cased (so "skill" finds 技能 by skill/….lst). */
function relationPaths(bundle: Bundle, name: string): string {
  const r = bundle.relationsByName.get(name);
  if (r === undefined) return '';
  return [r.listPath ?? '', ...(r.contextPaths ?? []).map(([, p]) => p)].join('\n').toLowerCase();
}

function unknownName(what: 'relation' | 'section', name: string, close: readonly string[]): string {
  return `no definition has ${what} ${JSON.stringify(name)}${close.length > 0 ? `; closest known: ${close.map((c) => JSON.stringify(c)).join(', ')}` : ''}`;
}

/**
 * Up to MAX_CLOSE_NAMES known names closest to `name`: the same but for case, then one inside the other
 * (a known name of one code point does not count as inside),
 * then `name` in the name's other text (`also`), then by edit distance (at most half the longer length).
 */
export function closestNames(name: string, known: readonly string[], also?: (known: string) => string): string[] {
  const wanted = name.trim().toLowerCase();
  const ranked: [rank: number, distance: number, name: string][] = [];
  for (const k of known) {
    const lower = k.toLowerCase();
    const distance = editDistance(wanted, lower);
    let rank: number;
    if (lower === wanted) rank = 0;
    else if (wanted !== '' && (lower.includes(wanted) || ([...lower].length > 1 && wanted.includes(lower)))) rank = 1;
    else if (wanted !== '' && also !== undefined && also(k).includes(wanted)) rank = 2;
    else if (distance <= Math.floor(Math.max([...wanted].length, [...lower].length) / 2)) rank = 3;
    else continue;
    ranked.push([rank, distance, k]);
  }
  ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
  return ranked.slice(0, MAX_CLOSE_NAMES).map(([, , k]) => k);
}

/** Levenshtein distance over code points. */
function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length] as number;
}

interface ImplicitRules {
  /** Position of an implicit `field:<id>` rule → the field id. */
  ruleField: Map<number, string>;
  /** Position of a shared field → its id. */
  fieldId: Map<number, string>;
}

const implicitCache = new WeakMap<Bundle, ImplicitRules>();

/** The generated `field:<id>` rules and the shared fields of a bundle (computed once per bundle). */
function implicitRules(bundle: Bundle): ImplicitRules {
  let found = implicitCache.get(bundle);
  if (found === undefined) {
    found = { ruleField: new Map(), fieldId: new Map() };
    for (const [position, doc] of bundle.documents.entries()) {
      if (doc.kind === 'field') found.fieldId.set(position, doc.id);
      else if (doc.origin === 'generated' && doc.fieldId !== null && doc.id === `field:${doc.fieldId}`) found.ruleField.set(position, doc.fieldId);
    }
    implicitCache.set(bundle, found);
  }
  return found;
}

/**
 * What the index must find for each query word: its bracket-free form when it has one (a document that
 * holds the word also holds that part of it, and a section may hold only that part), else the word.
 */
export function indexWords(words: readonly string[]): string[] {
  return words.map((word) => normalizeSection(word) || word);
}

function toItem(bundle: Bundle, doc: BundleDocument, query: readonly Word[], versionKey: string | null, reasons: readonly string[], extensionsWithoutPath: boolean): SearchItem {
  const versionStatus = statusIn(doc, versionKey);
  // A glob may still exclude files of the given extensions: only filePath can prove it applies.
  const applicability = versionKey === null || (extensionsWithoutPath && doc.match.glob.trim() !== '') ? 'unknown' : 'matched';
  const item: SearchItem = {
    documentId: doc.documentId,
    kind: doc.kind,
    ruleId: doc.kind === 'rule' ? doc.id : null,
    fieldId: doc.fieldId,
    origin: doc.origin,
    title: doc.title,
    summary: doc.summary,
    summaryTruncated: doc.summaryTruncated,
    section: doc.section,
    targetKind: doc.targetKind,
    annotationType: doc.annotationType,
    pvfVersions: doc.pvfVersions,
    effective: versionStatus.effective,
    state: versionStatus.state,
    statusReason: versionStatus.reason,
    applicability,
    matchReasons: [...reasons],
    valueCount: doc.valueCount,
    relation: doc.relation,
    layer: doc.layer,
    source: doc.source,
    trust: doc.trust,
  };
  const when = doc.resolved.target.when;
  if (when !== null) item.when = when;
  if (query.length > 0 && doc.valueCount > 0) {
    const position = bundle.positionById.get(doc.documentId);
    const values = position === undefined ? [] : matchedValues(bundle, position, doc, query);
    if (values.length > 0) item.matchedValues = values;
  }
  return item;
}

/** The longest prefix of the page that fits the response budget (at least one item, or an error). */
function fitPage(page: SearchItem[]): SearchItem[] {
  // Room for the envelope (revision, context, cursor) around the items.
  const budget = MAX_SEARCH_RESPONSE_BYTES - 2048;
  let used = 0;
  for (let i = 0; i < page.length; i++) {
    used += Buffer.byteLength(JSON.stringify(page[i])) + 1;
    if (used > budget) {
      if (i === 0) {
        throw new PvfdocError('RESPONSE_TOO_LARGE', `search item ${page[0]?.documentId ?? ''} alone exceeds the ${MAX_SEARCH_RESPONSE_BYTES}-byte response limit`, {
          hint: 'Use pvf_annotation_get for this document.',
          data: { limit: MAX_SEARCH_RESPONSE_BYTES },
        });
      }
      return page.slice(0, i);
    }
  }
  return page;
}

/** The version context key, or null for "all". */
function resolveVersion(bundle: Bundle, requested: string, workspaceId: string | undefined, options: SearchOptions): string | null {
  if (requested === 'all') return null;
  if (requested === 'current') {
    if (options.currentVersion === undefined) {
      throw new PvfdocError('NO_ARCHIVE', workspaceId
        ? `workspace "${workspaceId}" has no archive open, so pvfVersion "current" has no version`
        : 'pvfVersion "current" needs a workspaceId with an open archive', {
        hint: `Pass an explicit pvfVersion (${bundle.manifest.pvfVersions.join(', ')}) or "all".`,
        data: { supportedVersions: bundle.manifest.pvfVersions },
      });
    }
    const v = options.currentVersion;
    return bundle.manifest.pvfVersions.includes(v) ? v : UNKNOWN_VERSION;
  }
  if (!bundle.manifest.pvfVersions.includes(requested)) {
    throw new PvfdocError('INVALID_VERSION', `unknown pvfVersion "${requested}"`, {
      hint: `Use one of ${bundle.manifest.pvfVersions.map((v) => `"${v}"`).join(', ')}, "all" or "current".`,
      data: { supportedVersions: bundle.manifest.pvfVersions },
    });
  }
  return requested;
}

/**
 * Status in a version context. For "all" only override and disable count (protocol); a generated
 * field rule counts as effective there when it applies in at least one version context.
 */
export function statusIn(doc: BundleDocument, versionKey: string | null): VersionStatus {
  if (versionKey !== null) {
    return doc.versions[versionKey] ?? { state: 'notApplicable', effective: false, reason: 'no status recorded for this version' };
  }
  if (doc.status !== 'effective') return { state: doc.status, effective: false, reason: doc.statusReason };
  if (doc.origin === 'generated') {
    const statuses = Object.values(doc.versions);
    if (statuses.length > 0 && !statuses.some((s) => s.effective)) {
      const suppressed = statuses.find((s) => s.state === 'suppressed');
      return suppressed ?? (statuses[0] as VersionStatus);
    }
  }
  return { state: 'effective', effective: true, reason: null };
}

/**
 * The relevance score of a document for the query, or −1 when a word is missing from it. Each word adds
 * the weight of the best field it is found in: 3 for id, title or section (the section also by the
 * word without its brackets), 2 for field id, relation, description or a whole enum label, sentinel
 * label or column title, 1 for content, enum keys and parts of labels. Fields are checked best first and
 * the check stops at the first hit, so the score costs no more than the match itself; it depends only
 * on the document and the words, never on how it was found.
 */
function matchScore(bundle: Bundle, position: number, doc: BundleDocument, text: DocumentText, query: readonly Word[]): number {
  let score = 0;
  for (const { text: word, bare } of query) {
    if (text.id.includes(word) || text.title.includes(word) || text.section.includes(word) || (bare !== '' && text.section.includes(bare))) {
      score += NAME_WEIGHT;
    } else if (text.fieldId.includes(word) || text.relation.includes(word) || text.description.includes(word) || isWholeLabel(bundle, position, doc, text, word)) {
      score += SHORT_TEXT_WEIGHT;
    } else if (
      text.content.includes(word) ||
      text.labels.includes(word) ||
      (doc.valueCount > 0 && bundle.searchTexts.values(position).text.includes(word))
    ) {
      score += LONG_TEXT_WEIGHT;
    } else {
      return -1;
    }
  }
  return score;
}

/**
 * Whether `word` is the whole of one enum label, sentinel label or column title (lower-cased). Someone who
 * searches 背击 is most likely after the value whose label is 背击, not a text that mentions it in passing.
 */
function isWholeLabel(bundle: Bundle, position: number, doc: BundleDocument, text: DocumentText, word: string): boolean {
  if (text.labels !== '' && `\n${text.labels}\n`.includes(`\n${word}\n`)) return true;
  if (doc.valueCount === 0) return false;
  const { text: values, starts } = bundle.searchTexts.values(position);
  for (let at = values.indexOf(`${word}\n`); at >= 0; at = values.indexOf(`${word}\n`, at + 1)) {
    const index = valueAt(starts, at);
    if (starts[2 * index + 1] === at) return true;
  }
  return false;
}

/** Whether the id, section or title equals a word (case and one pair of brackets ignored). */
function isExact(text: DocumentText, query: readonly Word[]): boolean {
  const { id, section, titleKey } = text;
  return query.some(({ text: word, bare }) => id === word || section === word || titleKey === word || id === bare || section === bare || titleKey === bare);
}

/** The first MAX_MATCHED_VALUES values, in source order, whose key or label holds a word. */
function matchedValues(bundle: Bundle, position: number, doc: BundleDocument, query: readonly Word[]): { key: string; label: string }[] {
  const { text, starts } = bundle.searchTexts.values(position);
  const hit = new Set<number>();
  for (const { text: word } of query) {
    let found = 0;
    let at = text.indexOf(word);
    while (at >= 0 && found < MAX_MATCHED_VALUES) {
      const index = valueAt(starts, at);
      hit.add(index);
      found++;
      // Go on from the next value's key: one hit per value is enough.
      const next = 2 * index + 2 < starts.length ? (starts[2 * index + 2] as number) : text.length;
      at = text.indexOf(word, next);
    }
  }
  const values = bundle.valuesOf(doc.documentId);
  return [...hit]
    .sort((a, b) => a - b)
    .slice(0, MAX_MATCHED_VALUES)
    .map((i) => {
      const [key, label] = values[i] as readonly [string, string];
      return { key, label };
    });
}
