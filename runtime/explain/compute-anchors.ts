/**
 * Anchors of one rule target in a script view (rule-format §2.3): the text spans a rule annotates,
 * with the values pvfine reads from them.
 *
 * - `section`: every section whose name matches (case-insensitively, any depth); the opening tag.
 * - `token` + `index`: token `index` of the direct tokens of every matching section occurrence.
 * - `token` + `range`: per occurrence, from the first to the last direct token with an index in
 *   [start, endExclusive); nothing when none is in range.
 * - `token` + `index` + `recordTokens > 0` (repeated records), per occurrence: width (fixed, or the
 *   positive integer at `tokensPerLineIndex`) → skip `offset` once → split at integer tokens (type 0
 *   only) equal to a `standaloneValues` entry → skip `groupOffset` in every group → complete records
 *   only → token `index` of each record (records whose index, image path or context index falls
 *   outside the width are skipped).
 * - pvfdoc's `annotation.columns` (token target, records, no index or range): every token of every
 *   record, with its column.
 * - pvfdoc's `target.topLevel` (token targets): the tokens before the first section, as if they were
 *   the direct tokens (index 0, 1, …) of one section occurrence; its anchors have section id 0, section
 *   null and occurrence null.
 * - pvfdoc's `target.sectionPattern`: every section whose name fits the pattern (Go `path.Match`,
 *   case-insensitive), in text order, instead of the sections of one name.
 * - pvfdoc's scope keys limit the occurrences first: `target.parent` (the direct enclosing section has
 *   that name), `target.notInside` (no enclosing section at any depth has one of those names) and
 *   `target.after` (the section opened right before, in text order, has one of those names).
 * - pvfdoc's `target.countedGroups` (token targets): after `offset`, groups of a count N and N records of
 *   `widths[g]` tokens; the count of group `group`, or token `index` of each of its records.
 * - pvfdoc's `target.variableRecords` (token targets): after `offset`, consecutive records of `width`
 *   tokens (or the width `widthByFirst` gives their first token), plus N tail tokens when `countAt` holds
 *   N; of the records `first` / `notFirst` select, column `index` or the tail.
 * - pvfdoc's `target.when` decides for the whole file: unless every condition holds (token `index` of
 *   the file's first section of that name is one of `values`), the target anchors nothing.
 */
import type { AnnotationType, CountedGroups, TargetSpec, VariableRecords, WhenCondition } from '../bundle/schema.js';
import { parseInt32 } from '../script/canonical-number.js';
import { matchSectionPattern } from '../script/match-glob.js';
import { foldSectionName, tokenValue, tokenValueType, type ScriptView, type TokenValueType } from '../script/parse-script-view.js';
import { trimSpace } from '../script/trim-space.js';
import { runSteps } from '../script/run-steps.js';

/** One anchor as a record (computeAnchors; explain builds them only for the page it returns). */
export interface Anchor {
  start: number;
  end: number;
  /** Value of the anchored token; null for section and range anchors. */
  value: string | null;
  /** How that token is written (int, float, string …); null with `value`. */
  valueType: TokenValueType | null;
  sectionId: number;
  /** Section name as written in the file; null for the tokens before the first section (topLevel). */
  section: string | null;
  /** 0-based occurrence of the section among same-name sections; null with `section`. */
  occurrence: number | null;
  /** Direct-token index of the anchored token (of the first one for a range); null for sections. */
  tokenIndex: number | null;
  /** Direct-token index of the last token covered (equal to tokenIndex except for ranges). */
  lastTokenIndex: number | null;
  /** 0-based ordinal of the record within the section occurrence (across sentinel groups); null outside repeated-record mode. */
  recordIndex: number | null;
  /** Value of the record's context token (contextIndex, or the contextual relation's contextToken); null when there is none. */
  context: string | null;
  /** Value of the record's image path token (image rules); null otherwise. */
  imagePath: string | null;
  /** 0-based column of the token in its record, only for `annotation.columns` rules; else null. */
  column: number | null;
}

export interface AnchorOptions {
  /** The rule's annotation type: `image` rules also read `imagePathToken`. */
  annotationType: AnnotationType;
  /**
   * The relation's `contextToken` when the rule is a `reference` to a relation of kind `contextual`
   * (pvfine's default context index); ignored when the target sets `contextIndex`.
   */
  contextToken?: number | null;
  /** The rule has `annotation.columns`: anchor every token of every record (no index). */
  columns?: boolean;
}

export const SECTION_ANCHOR = 0;
export const TOKEN_ANCHOR = 1;
export const RANGE_ANCHOR = 2;

/**
 * Where anchors go, as numbers: the kind (SECTION_ANCHOR, TOKEN_ANCHOR, RANGE_ANCHOR), the section id
 * (0: top level), the view's token id (-1 for a section), the direct-token indexes of the first and
 * last token covered (-1 for a section), the span, and -1 or the record, column, context token id and
 * image path token id.
 */
export interface AnchorSink {
  push(kind: number, section: number, token: number, tokenIndex: number, lastTokenIndex: number, start: number, end: number, record: number, column: number, contextToken: number, imageToken: number): void;
}

/**
 * Anchors of `target` in `view` as records. Within one rule the anchors come section occurrence by
 * occurrence (by section id); their order never matters downstream, since one rule's anchors all have
 * distinct spans and the explain result is sorted by position.
 */
export function computeAnchors(view: ScriptView, target: TargetSpec, options: AnchorOptions): Anchor[] {
  const anchors: Anchor[] = [];
  const sink: AnchorSink = {
    push: (kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken) =>
      anchors.push(anchorRecord(view, kind, section, token, tokenIndex, lastTokenIndex, start, end, record, column, contextToken, imageToken)),
  };
  anchorTarget(createViewIndex(view, [target]), target, options, sink);
  return anchors;
}

/** The record of one anchor given as numbers (AnchorSink's arguments). */
export function anchorRecord(
  view: ScriptView,
  kind: number,
  section: number,
  token: number,
  tokenIndex: number,
  lastTokenIndex: number,
  start: number,
  end: number,
  record: number,
  column: number,
  contextToken: number,
  imageToken: number,
): Anchor {
  const { sections } = view;
  // A range that covers one token (a record shorter than the rule's range) reads as that token.
  const oneToken = kind === TOKEN_ANCHOR || (kind === RANGE_ANCHOR && tokenIndex === lastTokenIndex);
  return {
    start,
    end,
    value: oneToken ? tokenValue(view, token) : null,
    valueType: oneToken ? tokenValueType(view, token) : null,
    sectionId: section,
    section: section === 0 ? null : (sections.name[section] as string),
    occurrence: section === 0 ? null : (sections.occurrence[section] as number),
    tokenIndex: kind === SECTION_ANCHOR ? null : tokenIndex,
    lastTokenIndex: kind === SECTION_ANCHOR ? null : lastTokenIndex,
    recordIndex: record < 0 ? null : record,
    context: contextToken < 0 ? null : tokenValue(view, contextToken),
    imagePath: imageToken < 0 ? null : tokenValue(view, imageToken),
    column: column < 0 ? null : column,
  };
}

/**
 * The sections a set of targets can anchor in, found in one pass: the direct tokens of every section
 * grouped by section (token ids, in text order; group 0 holds the tokens before any section), and the
 * section ids of each folded name a target asks for.
 */
export interface ViewIndex {
  view: ScriptView;
  /** Group of section s: sectionTokens[groupStart[s] … groupStart[s + 1]). */
  groupStart: Int32Array;
  sectionTokens: Int32Array;
  /** Folded name → its section ids, in text order; only names some target (or its `when`) names. */
  byName: Map<string, number[]>;
}

export function createViewIndex(view: ScriptView, targets: readonly TargetSpec[]): ViewIndex {
  return runSteps(viewIndexSteps(view, targets));
}

/** Tokens placed between two yields of viewIndexSteps. */
const INDEX_STEP_TOKENS = 1 << 20;

/** The same index, yielding between its passes over millions of tokens. */
export function* viewIndexSteps(view: ScriptView, targets: readonly TargetSpec[]): Generator<void, ViewIndex> {
  const { sections, tokens, sectionCount, tokenCount } = view;
  const groupStart = new Int32Array(sectionCount + 2);
  for (let from = 0; from < tokenCount; from += INDEX_STEP_TOKENS) {
    const to = Math.min(tokenCount, from + INDEX_STEP_TOKENS);
    for (let i = from; i < to; i++) {
      const slot = (tokens.section[i] as number) + 1;
      groupStart[slot] = (groupStart[slot] as number) + 1;
    }
    if (to < tokenCount) yield;
  }
  for (let s = 1; s <= sectionCount + 1; s++) groupStart[s] = (groupStart[s] as number) + (groupStart[s - 1] as number);
  const fill = groupStart.slice(0, sectionCount + 1);
  const sectionTokens = new Int32Array(tokenCount);
  for (let from = 0; from < tokenCount; from += INDEX_STEP_TOKENS) {
    if (from > 0) yield;
    const to = Math.min(tokenCount, from + INDEX_STEP_TOKENS);
    for (let i = from; i < to; i++) {
      const s = tokens.section[i] as number;
      const at = fill[s] as number;
      sectionTokens[at] = i;
      fill[s] = at + 1;
    }
  }
  // The sections of each folded name a target asks for, by the view's name keys.
  const byName = new Map<string, number[]>();
  const wanted = new Map<number, number[]>();
  const keyOf = new Map(sections.foldedNames.map((name, key) => [name, key]));
  const want = (name: string): void => {
    const folded = foldSectionName(name);
    if (byName.has(folded)) return;
    const list: number[] = [];
    byName.set(folded, list);
    const key = keyOf.get(folded);
    if (key !== undefined) wanted.set(key, list);
  };
  for (const target of targets) {
    for (const condition of target.when ?? []) want(condition.section);
    if (target.section === null || target.topLevel || target.sectionPattern !== null) continue;
    want(target.section);
  }
  if (wanted.size > 0) {
    for (let s = 1; s <= sectionCount; s++) wanted.get(sections.nameKey[s] as number)?.push(s);
  }
  return { view, groupStart, sectionTokens, byName };
}

/** Anchors of one target into `sink` (see the file comment for what each target kind anchors). */
export function anchorTarget(index: ViewIndex, target: TargetSpec, options: AnchorOptions, sink: AnchorSink): void {
  if (target.kind === 'path') return;
  if (target.when !== null && !whenHolds(index, target.when)) return;
  const { view } = index;
  let occurrences: number[];
  if (target.topLevel) {
    if (target.kind !== 'token') return;
    occurrences = [0];
  } else if (target.sectionPattern !== null) {
    const pattern = target.sectionPattern;
    occurrences = [];
    for (let s = 1; s <= view.sectionCount; s++) if (matchSectionPattern(pattern, view.sections.name[s] as string)) occurrences.push(s);
    occurrences = inScope(view, occurrences, target);
  } else if (target.section !== null) {
    occurrences = inScope(view, index.byName.get(foldSectionName(target.section)) ?? [], target);
  } else {
    return;
  }
  if (target.kind === 'section') {
    for (const s of occurrences) {
      if (s !== 0) sink.push(SECTION_ANCHOR, s, -1, -1, -1, view.sections.start[s] as number, view.sections.end[s] as number, -1, -1, -1, -1);
    }
    return;
  }
  if (target.variableRecords !== null) {
    variableAnchors(index, occurrences, target, target.variableRecords, options, sink);
    return;
  }
  if (target.countedGroups !== null) {
    countedAnchors(index, occurrences, target, target.countedGroups, options, sink);
    return;
  }
  if (options.columns === true) {
    if (target.index === null && target.range === null) repeatedAnchors(index, occurrences, target, options, sink);
    return;
  }
  if (target.index !== null && (target.recordTokens ?? 0) > 0) {
    repeatedAnchors(index, occurrences, target, options, sink);
    return;
  }
  const { start: tokenStart, end: tokenEnd } = view.tokens;
  if (target.index !== null) {
    const at = target.index;
    for (const s of occurrences) {
      const first = index.groupStart[s] as number;
      if (at < 0 || first + at >= (index.groupStart[s + 1] as number)) continue;
      const token = index.sectionTokens[first + at] as number;
      sink.push(TOKEN_ANCHOR, s, token, at, at, tokenStart[token] as number, tokenEnd[token] as number, -1, -1, -1, -1);
    }
    return;
  }
  if (target.range !== null) {
    const { start, endExclusive } = target.range;
    for (const s of occurrences) {
      const first = index.groupStart[s] as number;
      const count = (index.groupStart[s + 1] as number) - first;
      const from = Math.max(start, 0);
      const to = Math.min(endExclusive, count) - 1;
      if (from >= count || to < 0 || to < from) continue;
      const firstToken = index.sectionTokens[first + from] as number;
      const lastToken = index.sectionTokens[first + to] as number;
      sink.push(RANGE_ANCHOR, s, firstToken, from, to, tokenStart[firstToken] as number, tokenEnd[lastToken] as number, -1, -1, -1, -1);
    }
  }
}

// --- Internal helpers ---

/**
 * Whether every condition of `target.when` holds in the file: token `index` of the first section of that
 * name (text order, any depth) exists and its canonical value is one of `values`, case-insensitively.
 */
function whenHolds(index: ViewIndex, when: readonly WhenCondition[]): boolean {
  for (const condition of when) {
    const first = (index.byName.get(foldSectionName(condition.section)) ?? [])[0];
    if (first === undefined) return false;
    const at = (index.groupStart[first] as number) + condition.index;
    if (condition.index < 0 || at >= (index.groupStart[first + 1] as number)) return false;
    const value = tokenValue(index.view, index.sectionTokens[at] as number).toLowerCase();
    if (!condition.values.some((v) => v.toLowerCase() === value)) return false;
  }
  return true;
}

/**
 * The occurrences that sit where the target allows (`parent`, `notInside`, `after`; names case-insensitive like
 * every section name). Without either key, all of them.
 */
function inScope(view: ScriptView, occurrences: number[], target: TargetSpec): number[] {
  const parent = target.parent === null ? null : foldSectionName(target.parent);
  const excluded = target.notInside === null || target.notInside.length === 0 ? null : new Set(target.notInside.map(foldSectionName));
  const after = target.after === null ? null : new Set(target.after.map(foldSectionName));
  if (parent === null && excluded === null && after === null) return occurrences;
  const { name, parent: parentOf } = view.sections;
  return occurrences.filter((s) => {
    if (s === 0) return false;
    // Sections are numbered in text order: the one opened right before is s − 1.
    if (after !== null && (s === 1 || !after.has(foldSectionName(name[s - 1] as string)))) return false;
    if (parent !== null) {
      const direct = parentOf[s] as number;
      if (direct === 0 || foldSectionName(name[direct] as string) !== parent) return false;
    }
    if (excluded !== null) {
      for (let p = parentOf[s] as number; p !== 0; p = parentOf[p] as number) if (excluded.has(foldSectionName(name[p] as string))) return false;
    }
    return true;
  });
}

function repeatedAnchors(index: ViewIndex, occurrences: readonly number[], target: TargetSpec, options: AnchorOptions, sink: AnchorSink): void {
  const { view, groupStart, sectionTokens } = index;
  const { start: tokenStart, end: tokenEnd } = view.tokens;
  const at = target.index ?? 0;
  const allColumns = options.columns === true;
  const imagePathIndex = options.annotationType === 'image' ? target.imagePathToken : null;
  const contextIndex = target.contextIndex ?? options.contextToken ?? null;
  for (const s of occurrences) {
    const first = groupStart[s] as number;
    const count = (groupStart[s + 1] as number) - first;
    const width = recordWidth(target, view, sectionTokens, first, count);
    if (width <= 0) continue;
    let recordIndex = 0;
    for (const group of recordGroups(target, view, sectionTokens, first, count)) {
      for (let start = group.start; start + width <= group.end; start += width) {
        const record = recordIndex++;
        if (allColumns) {
          for (let column = 0; column < width; column++) {
            const token = sectionTokens[first + start + column] as number;
            sink.push(TOKEN_ANCHOR, s, token, start + column, start + column, tokenStart[token] as number, tokenEnd[token] as number, record, column, -1, -1);
          }
          continue;
        }
        if (at < 0 || at >= width) continue;
        let imageToken = -1;
        if (imagePathIndex !== null) {
          if (imagePathIndex < 0 || imagePathIndex >= width) continue;
          imageToken = sectionTokens[first + start + imagePathIndex] as number;
        }
        let contextToken = -1;
        if (contextIndex !== null) {
          if (contextIndex < 0 || contextIndex >= width) continue;
          contextToken = sectionTokens[first + start + contextIndex] as number;
        }
        const token = sectionTokens[first + start + at] as number;
        sink.push(TOKEN_ANCHOR, s, token, start + at, start + at, tokenStart[token] as number, tokenEnd[token] as number, record, -1, contextToken, imageToken);
      }
    }
  }
}

/**
 * pvfdoc's `target.countedGroups`, per occurrence: after `offset` tokens, group g is a count token N (an
 * integer ≥ 0) and N records of `widths[g]` tokens; the target is the count of group `group`, or token
 * `index` of each of its complete records. A count that is no such integer, or the end of the tokens,
 * ends the reading: what comes after it is not known to be a group.
 */
function countedAnchors(index: ViewIndex, occurrences: readonly number[], target: TargetSpec, groups: CountedGroups, options: AnchorOptions, sink: AnchorSink): void {
  const { view, groupStart, sectionTokens } = index;
  const { start: tokenStart, end: tokenEnd, type } = view.tokens;
  const { widths, group } = groups;
  const at = target.index ?? 0;
  const contextIndex = groups.count ? null : (target.contextIndex ?? options.contextToken ?? null);
  for (const s of occurrences) {
    const first = groupStart[s] as number;
    const n = (groupStart[s + 1] as number) - first;
    let j = Math.min(Math.max(target.offset ?? 0, 0), n);
    for (let g = 0; g <= group && g < widths.length && j < n; g++) {
      const countToken = sectionTokens[first + j] as number;
      const count = type[countToken] === 0 ? parseInt32(trimSpace(tokenValue(view, countToken))) : null;
      if (count === null || count < 0) break;
      const width = widths[g] as number;
      if (g < group) {
        j += 1 + count * width;
        continue;
      }
      if (groups.count) {
        sink.push(TOKEN_ANCHOR, s, countToken, j, j, tokenStart[countToken] as number, tokenEnd[countToken] as number, -1, -1, -1, -1);
        break;
      }
      if (at < 0 || at >= width || (contextIndex !== null && (contextIndex < 0 || contextIndex >= width))) break;
      const records = Math.min(count, Math.floor((n - j - 1) / width));
      for (let r = 0; r < records; r++) {
        const base = j + 1 + r * width;
        const token = sectionTokens[first + base + at] as number;
        const contextToken = contextIndex === null ? -1 : (sectionTokens[first + base + contextIndex] as number);
        sink.push(TOKEN_ANCHOR, s, token, base + at, base + at, tokenStart[token] as number, tokenEnd[token] as number, r, -1, contextToken, -1);
      }
    }
  }
}

/**
 * pvfdoc's `target.variableRecords`, per occurrence: after `offset` tokens, record after record, each
 * `width` tokens unless its key token (column `keyAt`, case-insensitive) has a `widthByFirst` entry, then, with
 * `countAt`, as many tail tokens as the integer ≥ 0 in that column. A record cut short by the end, or a
 * count that is no such integer, or a key past the end, ends the reading: where a next record would start
 * is not known. Of the records `first` / `notFirst` select (by the key token), the target is column `index` (records narrower than it have
 * none) or every tail token; `recordIndex` counts all records, selected or not.
 */
function variableAnchors(index: ViewIndex, occurrences: readonly number[], target: TargetSpec, records: VariableRecords, options: AnchorOptions, sink: AnchorSink): void {
  const { view, groupStart, sectionTokens } = index;
  const { start: tokenStart, end: tokenEnd, type } = view.tokens;
  const widthOf = new Map(records.widthByFirst.map(([value, width]) => [value.toLowerCase(), width]));
  const first = records.first === null ? null : new Set(records.first.map((v) => v.toLowerCase()));
  const notFirst = records.notFirst === null ? null : new Set(records.notFirst.map((v) => v.toLowerCase()));
  const at = target.index ?? -1;
  const contextIndex = target.contextIndex ?? options.contextToken ?? null;
  for (const s of occurrences) {
    const base = groupStart[s] as number;
    const n = (groupStart[s + 1] as number) - base;
    let j = Math.min(Math.max(target.offset ?? 0, 0), n);
    for (let record = 0; j < n; record++) {
      if (j + records.keyAt >= n) break;
      const lead = tokenValue(view, sectionTokens[base + j + records.keyAt] as number).toLowerCase();
      const width = widthOf.get(lead) ?? records.width;
      if (width < 1 || j + width > n) break;
      let tail = 0;
      if (records.countAt !== null) {
        if (records.countAt >= width) break;
        const countToken = sectionTokens[base + j + records.countAt] as number;
        const count = type[countToken] === 0 ? parseInt32(trimSpace(tokenValue(view, countToken))) : null;
        if (count === null || count < 0 || j + width + count > n) break;
        tail = count;
      }
      const selected = (first === null || first.has(lead)) && (notFirst === null || !notFirst.has(lead));
      if (selected) {
        const contextToken = contextIndex !== null && contextIndex >= 0 && contextIndex < width ? (sectionTokens[base + j + contextIndex] as number) : -1;
        if (records.tail) {
          for (let k = width; k < width + tail; k++) {
            const token = sectionTokens[base + j + k] as number;
            sink.push(TOKEN_ANCHOR, s, token, j + k, j + k, tokenStart[token] as number, tokenEnd[token] as number, record, -1, contextToken, -1);
          }
        } else if (at >= 0 && at < width) {
          const token = sectionTokens[base + j + at] as number;
          sink.push(TOKEN_ANCHOR, s, token, j + at, j + at, tokenStart[token] as number, tokenEnd[token] as number, record, -1, contextToken, -1);
        }
      }
      j += width + tail;
    }
  }
}

/**
 * `recordTokens`, unless `tokensPerLineIndex` names a direct token (absolute index, whatever its type)
 * whose trimmed value is a base-10 integer > 0 (Go `strconv.Atoi`, so int64 range). The occurrence's
 * direct tokens are sectionTokens[first … first + count).
 */
function recordWidth(target: TargetSpec, view: ScriptView, sectionTokens: Int32Array, first: number, count: number): number {
  const fallback = target.recordTokens ?? 0;
  const k = target.tokensPerLineIndex;
  if (k === null || k < 0 || k >= count) return fallback;
  const text = trimSpace(tokenValue(view, sectionTokens[first + k] as number));
  if (!/^[+-]?[0-9]+$/.test(text) || text.startsWith('-')) return fallback;
  const digits = text.replace(/^\+?0*/, '');
  // Zero, or anything beyond int64 (Go Atoi fails), is not a width.
  if (digits === '' || digits.length > 19 || BigInt(digits) > INT64_MAX) return fallback;
  return Number(digits);
}

const INT64_MAX = 2n ** 63n - 1n;

/** `offset` once, then groups split at integer sentinels, each starting `groupOffset` tokens in. */
function recordGroups(target: TargetSpec, view: ScriptView, sectionTokens: Int32Array, first: number, count: number): { start: number; end: number }[] {
  const groupOffset = Math.max(target.groupOffset ?? 0, 0);
  const sentinels = target.standaloneValues ?? [];
  let begin = Math.min(Math.max(target.offset ?? 0, 0), count);
  if (sentinels.length === 0) return [{ start: Math.min(begin + groupOffset, count), end: count }];
  const groups: { start: number; end: number }[] = [];
  const { type } = view.tokens;
  for (let j = begin; j < count; j++) {
    const token = sectionTokens[first + j] as number;
    if (type[token] !== 0) continue;
    const int = parseInt32(trimSpace(tokenValue(view, token)));
    if (int === null || !sentinels.includes(int)) continue;
    groups.push({ start: Math.min(begin + groupOffset, j), end: j });
    begin = j + 1;
  }
  groups.push({ start: Math.min(begin + groupOffset, count), end: count });
  return groups;
}
