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
 *   that name) and `target.notInside` (no enclosing section at any depth has one of those names).
 */
import type { AnnotationType, TargetSpec } from '../bundle/schema.js';
import { parseInt32 } from '../script/canonical-number.js';
import { matchSectionPattern } from '../script/match-glob.js';
import { foldSectionName, type ScriptSection, type ScriptTokenElement, type ScriptView } from '../script/parse-script-view.js';
import { trimSpace } from '../script/trim-space.js';

export interface Anchor {
  start: number;
  end: number;
  /** Value of the anchored token; null for section and range anchors. */
  value: string | null;
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

/**
 * Anchors of `target` in `view`. Within one rule the anchors come section occurrence by occurrence
 * (by section id); their order never matters downstream, since one rule's anchors all have distinct
 * spans and the explain result is sorted by position.
 */
export function computeAnchors(view: ScriptView, target: TargetSpec, options: AnchorOptions): Anchor[] {
  if (target.kind === 'path') return [];
  let occurrences: Occurrence[];
  if (target.topLevel) {
    if (target.kind !== 'token') return [];
    occurrences = [topLevelOccurrence(view)];
  } else if (target.sectionPattern !== null) {
    occurrences = inScope(view, occurrencesMatching(view, target.sectionPattern), target);
  } else if (target.section !== null) {
    occurrences = inScope(view, occurrencesOf(view, target.section), target);
  } else {
    return [];
  }
  if (target.kind === 'section') {
    const anchors: Anchor[] = [];
    for (const { section: s } of occurrences) {
      if (s === null) continue;
      anchors.push({
        start: s.start,
        end: s.end,
        value: null,
        sectionId: s.id,
        section: s.name,
        occurrence: s.occurrence,
        tokenIndex: null,
        lastTokenIndex: null,
        recordIndex: null,
        context: null,
        imagePath: null,
        column: null,
      });
    }
    return anchors;
  }
  if (options.columns === true) {
    return target.index === null && target.range === null ? repeatedAnchors(occurrences, target, options) : [];
  }
  if (target.index !== null && (target.recordTokens ?? 0) > 0) return repeatedAnchors(occurrences, target, options);
  if (target.index !== null) {
    const index = target.index;
    return occurrences.flatMap(({ section, tokens }) => {
      const token = tokens[index];
      return token ? [tokenAnchor(section, token)] : [];
    });
  }
  if (target.range !== null) return rangeAnchors(occurrences, target.range);
  return [];
}

// --- Internal helpers ---

interface Occurrence {
  /** null: the tokens before the first section (topLevel). */
  section: ScriptSection | null;
  /** Its direct tokens, in order (token i has index i). */
  tokens: ScriptTokenElement[];
}

interface ViewIndex {
  /** Folded name → its occurrences, by section id. */
  byName: Map<string, Occurrence[]>;
  /** Every section's occurrence, by section id (position id − 1). */
  all: Occurrence[];
  /** The tokens before the first section, indexed 0, 1, … (pvfdoc topLevel). */
  topLevel: Occurrence;
}

const viewIndexCache = new WeakMap<ScriptView, ViewIndex>();

/** Occurrences by name, and the top-level tokens; indexed once per view. */
function viewIndex(view: ScriptView): ViewIndex {
  let index = viewIndexCache.get(view);
  if (!index) {
    const byName = new Map<string, Occurrence[]>();
    const all: Occurrence[] = [];
    for (const section of view.sections) {
      const occurrence: Occurrence = { section, tokens: [] };
      all.push(occurrence);
      const key = foldSectionName(section.name);
      const list = byName.get(key);
      if (list) list.push(occurrence);
      else byName.set(key, [occurrence]);
    }
    const topLevel: Occurrence = { section: null, tokens: [] };
    for (const token of view.tokens) {
      if (token.sectionId !== 0) all[token.sectionId - 1]?.tokens.push(token);
      else topLevel.tokens.push({ ...token, index: topLevel.tokens.length });
    }
    index = { byName, all, topLevel };
    viewIndexCache.set(view, index);
  }
  return index;
}

/** Section occurrences of a name (case-insensitive), by section id. */
function occurrencesOf(view: ScriptView, name: string): Occurrence[] {
  return viewIndex(view).byName.get(foldSectionName(name)) ?? [];
}

/** Section occurrences whose name fits a pvfdoc `sectionPattern`, by section id. */
function occurrencesMatching(view: ScriptView, pattern: string): Occurrence[] {
  return viewIndex(view).all.filter(({ section }) => section !== null && matchSectionPattern(pattern, section.name));
}

/** The tokens before the first section as one occurrence (token i has index i). */
function topLevelOccurrence(view: ScriptView): Occurrence {
  return viewIndex(view).topLevel;
}

/**
 * The occurrences that sit where the target allows (`parent`, `notInside`; names case-insensitive like
 * every section name). Without either key, all of them.
 */
function inScope(view: ScriptView, occurrences: Occurrence[], target: TargetSpec): Occurrence[] {
  const parent = target.parent === null ? null : foldSectionName(target.parent);
  const excluded = target.notInside === null || target.notInside.length === 0 ? null : new Set(target.notInside.map(foldSectionName));
  if (parent === null && excluded === null) return occurrences;
  const sectionOf = (id: number | null): ScriptSection | undefined => (id === null ? undefined : view.sections[id - 1]);
  return occurrences.filter(({ section }) => {
    if (section === null) return false;
    if (parent !== null) {
      const direct = sectionOf(section.parentId);
      if (!direct || foldSectionName(direct.name) !== parent) return false;
    }
    if (excluded !== null) {
      for (let s = sectionOf(section.parentId); s; s = sectionOf(s.parentId)) if (excluded.has(foldSectionName(s.name))) return false;
    }
    return true;
  });
}

function tokenAnchor(
  section: ScriptSection | null,
  token: ScriptTokenElement,
  extra?: Pick<Anchor, 'recordIndex' | 'context' | 'imagePath'> & { column?: number },
): Anchor {
  return {
    start: token.start,
    end: token.end,
    value: token.value,
    sectionId: section?.id ?? 0,
    section: section?.name ?? null,
    occurrence: section?.occurrence ?? null,
    tokenIndex: token.index,
    lastTokenIndex: token.index,
    recordIndex: extra?.recordIndex ?? null,
    context: extra?.context ?? null,
    imagePath: extra?.imagePath ?? null,
    column: extra?.column ?? null,
  };
}

function rangeAnchors(occurrences: readonly Occurrence[], range: { start: number; endExclusive: number }): Anchor[] {
  const anchors: Anchor[] = [];
  for (const { section, tokens } of occurrences) {
    const first = tokens[Math.max(range.start, 0)];
    const last = tokens[Math.min(range.endExclusive, tokens.length) - 1];
    if (!first || !last || last.index < first.index) continue;
    anchors.push({ ...tokenAnchor(section, first), end: last.end, value: null, lastTokenIndex: last.index });
  }
  return anchors;
}

function repeatedAnchors(occurrences: readonly Occurrence[], target: TargetSpec, options: AnchorOptions): Anchor[] {
  const index = target.index ?? 0;
  const allColumns = options.columns === true;
  const imagePathIndex = options.annotationType === 'image' ? target.imagePathToken : null;
  const contextIndex = target.contextIndex ?? options.contextToken ?? null;
  const anchors: Anchor[] = [];
  for (const { section, tokens } of occurrences) {
    const width = recordWidth(target, tokens);
    if (width <= 0) continue;
    let recordIndex = 0;
    for (const group of recordGroups(target, tokens)) {
      for (let start = group.start; start + width <= group.end; start += width) {
        const record = recordIndex++;
        if (allColumns) {
          for (let column = 0; column < width; column++) {
            anchors.push(tokenAnchor(section, tokens[start + column] as ScriptTokenElement, { recordIndex: record, context: null, imagePath: null, column }));
          }
          continue;
        }
        if (index < 0 || index >= width) continue;
        let imagePath: string | null = null;
        if (imagePathIndex !== null) {
          if (imagePathIndex < 0 || imagePathIndex >= width) continue;
          imagePath = (tokens[start + imagePathIndex] as ScriptTokenElement).value;
        }
        let context: string | null = null;
        if (contextIndex !== null) {
          if (contextIndex < 0 || contextIndex >= width) continue;
          context = (tokens[start + contextIndex] as ScriptTokenElement).value;
        }
        anchors.push(tokenAnchor(section, tokens[start + index] as ScriptTokenElement, { recordIndex: record, context, imagePath }));
      }
    }
  }
  return anchors;
}

/**
 * `recordTokens`, unless `tokensPerLineIndex` names a direct token (absolute index, whatever its type)
 * whose trimmed value is a base-10 integer > 0 (Go `strconv.Atoi`, so int64 range).
 */
function recordWidth(target: TargetSpec, tokens: readonly ScriptTokenElement[]): number {
  const fallback = target.recordTokens ?? 0;
  const k = target.tokensPerLineIndex;
  if (k === null || k < 0 || k >= tokens.length) return fallback;
  const text = trimSpace((tokens[k] as ScriptTokenElement).value);
  if (!/^[+-]?[0-9]+$/.test(text) || text.startsWith('-')) return fallback;
  const digits = text.replace(/^\+?0*/, '');
  // Zero, or anything beyond int64 (Go Atoi fails), is not a width.
  if (digits === '' || digits.length > 19 || BigInt(digits) > INT64_MAX) return fallback;
  return Number(digits);
}

const INT64_MAX = 2n ** 63n - 1n;

/** `offset` once, then groups split at integer sentinels, each starting `groupOffset` tokens in. */
function recordGroups(target: TargetSpec, tokens: readonly ScriptTokenElement[]): { start: number; end: number }[] {
  const groupOffset = Math.max(target.groupOffset ?? 0, 0);
  const sentinels = target.standaloneValues ?? [];
  const groups: { start: number; end: number }[] = [];
  let begin = Math.min(Math.max(target.offset ?? 0, 0), tokens.length);
  const close = (end: number) => groups.push({ start: Math.min(begin + groupOffset, end), end });
  if (sentinels.length > 0) {
    for (let i = begin; i < tokens.length; i++) {
      const token = tokens[i] as ScriptTokenElement;
      if (token.type !== 0) continue;
      const value = parseInt32(trimSpace(token.value));
      if (value === null || !sentinels.includes(value)) continue;
      close(i);
      begin = i + 1;
    }
  }
  close(tokens.length);
  return groups;
}
