/**
 * Rule annotations of one script file (rule-format §2.2–§2.6), as structured items (protocol-notes
 * "Explain"): the effective rules of a version context, in explain order, are matched against the file,
 * anchored in its script view, turned into items and merged by exact span. Reference and path lookups
 * are injected, so this module reads no archive. Runtime annotations (placeholders, `.lst` links) are
 * not made here.
 */
import type { Bundle } from '../bundle/load-bundle.js';
import type { AnnotationSpec, AnnotationType, BundleDocument, BundleRelation } from '../bundle/schema.js';
import { PvfdocError } from '../errors.js';
import { matchesDefinition } from '../script/match-glob.js';
import { cleanPath, dirnameOf } from '../script/archive-path.js';
import { parseInt32 } from '../script/canonical-number.js';
import { anchorTarget, SECTION_ANCHOR, viewIndexSteps, type Anchor } from './compute-anchors.js';
import { AnchorTable, anchorAt, type AnchorColumns } from './anchor-table.js';
import { sortBySpan } from './span-order.js';
import { entryAt, IntColumn } from '../script/int-column.js';
import { runSteps } from '../script/run-steps.js';
import type { ScriptWarningCode } from '../script/lex-script.js';
import { lineIndexSteps, normalizeText, type LineIndex } from '../script/normalize-text.js';
import { parseScriptViewSteps, type ScriptView } from '../script/parse-script-view.js';
import { createNestedSectionPredicate } from './nested-sections.js';
import { trimSpace } from '../script/trim-space.js';
import type { ReferenceQuery, ResolvePath, ResolveReference } from '../references/reference-query.js';
import type { ExplainOutputAnnotation, ExplainOutputBlock, ExplainOutputWarning, ExplainPathLink, PathContextEntry } from './explain-schema.js';

export type { PathContextEntry };

/** One rule's contribution to a (merged) annotation, in rule order, with the content the wire form sends once per page in `documents`. */
type ExplainBlock = ExplainOutputBlock & { content: string };

/**
 * A rule annotation before it goes on the wire: the first rule's own content (trimmed) instead of the
 * summary, always of origin "rule" with a rule's annotation type, no placeholder (runtime annotations
 * make those), and blocks with their content. Unlike pvfine, the enum label or resolved reference
 * name does not replace the title (they are in valueLabel / reference.name).
 */
export type ExplainAnnotation = Omit<ExplainOutputAnnotation, 'summary' | 'type' | 'origin' | 'placeholder' | 'blocks'> & {
  content: string;
  type: AnnotationType;
  origin: 'rule';
  blocks: ExplainBlock[];
};

/** A lexer warning: unlike the wire form (which also carries explain's own warnings), always positioned. */
type ExplainWarning = { [K in keyof ExplainOutputWarning]-?: NonNullable<ExplainOutputWarning[K]> } & { code: ScriptWarningCode };

interface AnnotateScriptInput {
  bundle: Bundle;
  /** Version context: a key of `bundle.ruleOrder` ("" = unknown version). */
  versionKey: string;
  /** Archive-relative path of the file (any slash style or case). */
  filePath: string;
  /** The file's text; normalised here (normalize-text.ts), and all offsets refer to the normalised text. */
  text: string;
  /** Without it every reference is `unsupported`. */
  resolveReference?: ResolveReference;
  /** Without it every path link is `unsupported`. */
  resolvePath?: ResolvePath;
  /** Stops with RESPONSE_TOO_LARGE once the file has more annotations than this (memory bound). */
  maxAnnotations?: number;
}

export interface AnnotateScriptResult {
  /** The view of the normalised text (`view.text`). */
  view: ScriptView;
  /** Merged items sorted by start, then end (stable). */
  annotations: ExplainAnnotation[];
  warnings: ExplainWarning[];
}

/**
 * The rule annotations of one file in columns (what explain keeps between pages): every anchor, and the
 * merged annotations as runs of anchors sorted by span. Annotation i is made of the anchors
 * order[groupStart[i]] … order[groupStart[i + 1] - 1], in rule order; ruleAnnotationAt builds it.
 */
export interface RuleAnnotations {
  view: ScriptView;
  lines: LineIndex;
  /** The rules applied, in explain order; anchors point into this list. */
  rules: BundleDocument[];
  anchors: AnchorColumns;
  order: Int32Array;
  groupStart: Int32Array;
  /** Number of merged annotations. */
  count: number;
  /** The first MAX_VIEW_WARNINGS lexer warnings, positioned. */
  warnings: ExplainWarning[];
  /** Lexer warnings in all. */
  warningCount: number;
}

/** What building an annotation needs besides the columns: the lookups (see AnnotateScriptInput). */
export type AnnotationLookups = Pick<AnnotateScriptInput, 'bundle' | 'filePath' | 'resolveReference' | 'resolvePath'>;

/** Explains a script file with the rules of one version context, every annotation as an object. */
export function annotateScript(input: AnnotateScriptInput): AnnotateScriptResult {
  const explained = runSteps(annotateSteps(input));
  const annotations: ExplainAnnotation[] = [];
  for (let i = 0; i < explained.count; i++) annotations.push(ruleAnnotationAt(explained, i, input));
  return { view: explained.view, annotations, warnings: explained.warnings };
}

/**
 * The same work in columns, yielding while the text is parsed, between rules and between sorting
 * passes, so a caller can give the thread to other requests while a large file is explained
 * (explain-file.ts runs it in time slices).
 */
export function* annotateSteps(input: AnnotateScriptInput): Generator<void, RuleAnnotations> {
  const { bundle, filePath } = input;
  const text = normalizeText(input.text);
  const limit = input.maxAnnotations ?? Number.POSITIVE_INFINITY;
  // A section name costs more than an anchor (map entries and strings): at most a quarter as many.
  const view = yield* parseScriptViewSteps(text, createNestedSectionPredicate(bundle.rendering, filePath), {
    sectionNames: Math.ceil(limit / 4),
    tooMany: () => tooLarge(filePath, 'distinct section names', Math.ceil(limit / 4)),
  });
  const lines = yield* lineIndexSteps(text);
  yield;
  const rules = rulesInOrder(bundle, input.versionKey).filter((doc) => doc.resolved.target.kind !== 'path' && matchesDefinition(doc.resolved.match, filePath, false));
  const index = yield* viewIndexSteps(
    view,
    rules.map((doc) => doc.resolved.target),
  );
  // Real scripts have about as many anchors as lexemes.
  const table = new AnchorTable(limit, () => tooLarge(filePath, 'annotations', limit), view.tokenCount + view.sectionCount);
  yield;
  for (let r = 0; r < rules.length; r++) {
    const { target, annotation } = (rules[r] as BundleDocument).resolved;
    const relation = annotation.type === 'reference' && annotation.relation !== null ? effectiveRelation(bundle, annotation.relation) : undefined;
    const contextToken = relation?.kind === 'contextual' ? (relation.contextToken ?? 0) : null;
    const columns = annotation.columns !== null && annotation.type === 'text';
    table.rule = r;
    anchorTarget(index, target, { annotationType: annotation.type, contextToken, columns }, table);
    yield;
  }
  const anchors = table.finish();
  const sorted = yield* sortBySpan(anchors.start, anchors.end, anchors.count);
  const { order, groupStart, count } = yield* spanGroups(anchors, sorted, rules);
  const warnings = view.warnings.map((w) => ({
    code: w.code,
    message: w.message,
    range: { start: w.start, end: w.end },
    start: lines.offsetToPosition(w.start),
    end: lines.offsetToPosition(w.end),
  }));
  return { view, lines, rules, anchors, order, groupStart, count, warnings, warningCount: view.warningCount };
}

/** Anchors grouped between two yields (a few milliseconds of work). */
const GROUPS_STEP = 1 << 18;

/**
 * The anchors of one span merge into one annotation (§2.6; one rule's anchors never share a span), in
 * rule order. A `target.when` rule takes the place of the rules of its own layer without `when` on its
 * span: the layer says what the span means in files of this kind, and its general reading (titles that
 * list every kind's meaning) would only repeat it less precisely. Rules of other layers still merge.
 * Returns the anchor ids of each group, `order[groupStart[i]] … order[groupStart[i + 1] - 1]`.
 */
function* spanGroups(anchors: AnchorColumns, sorted: Int32Array, rules: readonly BundleDocument[]): Generator<void, { order: Int32Array; groupStart: Int32Array; count: number }> {
  const hasWhen = Uint8Array.from(rules, (doc) => (doc.resolved.target.when === null ? 0 : 1));
  const layer = Int32Array.from(rules, (doc) => doc.layerIndex);
  const { start, end, rule } = anchors;
  const n = anchors.count;
  const groups = new IntColumn(n + 1);
  let kept = 0;
  let pause = GROUPS_STEP;
  for (let i = 0; i < n; ) {
    if (i >= pause) {
      pause = i + GROUPS_STEP;
      yield;
    }
    const first = sorted[i] as number;
    const firstStart = entryAt(start, first);
    const firstEnd = entryAt(end, first);
    let j = i + 1;
    while (j < n && entryAt(start, sorted[j] as number) === firstStart && entryAt(end, sorted[j] as number) === firstEnd) j++;
    groups.push(kept);
    let whenLayers: Set<number> | null = null;
    for (let k = i; k < j && j - i > 1; k++) {
      const r = entryAt(rule, sorted[k] as number);
      if (hasWhen[r] === 1) (whenLayers ??= new Set()).add(layer[r] as number);
    }
    for (let k = i; k < j; k++) {
      const r = entryAt(rule, sorted[k] as number);
      if (whenLayers !== null && hasWhen[r] === 0 && whenLayers.has(layer[r] as number)) continue;
      sorted[kept++] = sorted[k] as number;
    }
    i = j;
  }
  const count = groups.length;
  groups.push(kept);
  return { order: sorted.subarray(0, kept), groupStart: groups.finish(), count };
}

/** Merged annotation `i` of an explanation (its anchors built and merged in rule order). */
export function ruleAnnotationAt(explained: RuleAnnotations, i: number, lookups: AnnotationLookups): ExplainAnnotation {
  const { view, anchors, order, groupStart, rules, lines } = explained;
  const from = groupStart[i] as number;
  const to = groupStart[i + 1] as number;
  let merged: ExplainAnnotation | undefined;
  for (let k = from; k < to; k++) {
    const id = order[k] as number;
    const item = buildItem(lookups, rules[entryAt(anchors.rule, id)] as BundleDocument, anchorAt(view, anchors, id), lines);
    if (merged) mergeInto(merged, item);
    else merged = item;
  }
  if (!merged) throw new RangeError(`annotation ${i} is not in this explanation (${explained.count})`);
  return merged;
}

/**
 * What the explain filters read of merged annotation `i`, without building it: its section id (of the
 * first anchor), and the token indexes a merge keeps (the first anchor that has each).
 */
export function ruleAnnotationPlace(explained: RuleAnnotations, i: number): { section: number; tokenIndex: number | null; lastTokenIndex: number | null } {
  const { anchors, order, groupStart } = explained;
  const from = groupStart[i] as number;
  const to = groupStart[i + 1] as number;
  let tokenIndex: number | null = null;
  let lastTokenIndex: number | null = null;
  for (let k = from; k < to; k++) {
    const id = order[k] as number;
    if (entryAt(anchors.kind, id) === SECTION_ANCHOR) continue;
    const own = entryAt(anchors.tokenIndex, id);
    const last = entryAt(anchors.lastTokenIndex, id);
    tokenIndex ??= own;
    if (lastTokenIndex === null && last !== own) lastTokenIndex = last;
  }
  return { section: entryAt(anchors.section, order[from] as number), tokenIndex, lastTokenIndex: lastTokenIndex ?? tokenIndex };
}

/**
 * The `path` rule notes of a file and of each ancestor folder (§2.2 "annotation chain"): the file
 * first, then its parent folder, then outward to the top-level folder (the archive root itself is not a
 * scope); within one scope, in explain order. Folders are matched as directories, so rules with
 * extensions never apply to them.
 */
export function pathContext(bundle: Bundle, versionKey: string, filePath: string): PathContextEntry[] {
  const pathRules = rulesInOrder(bundle, versionKey).filter((doc) => doc.resolved.target.kind === 'path');
  const parts = trimSlashes(filePath.replaceAll('\\', '/')).split('/');
  const entries: PathContextEntry[] = [];
  for (let depth = parts.length; depth >= 1; depth--) {
    const scopePath = parts.slice(0, depth).join('/');
    if (scopePath === '') continue;
    const isDirectory = depth < parts.length;
    for (const doc of pathRules) {
      if (!matchesDefinition(doc.resolved.match, scopePath, isDirectory)) continue;
      entries.push({
        scopePath,
        scopeKind: isDirectory ? 'directory' : 'file',
        ruleId: doc.id,
        documentId: doc.documentId,
        title: doc.resolved.annotation.title,
      });
    }
  }
  return entries;
}

/**
 * A file whose explanation would not fit the memory an explanation may hold: more `what` (anchors, or
 * distinct section names) than `limit`.
 */
function tooLarge(filePath: string, what: string, limit: number): PvfdocError {
  return new PvfdocError('RESPONSE_TOO_LARGE', `${filePath} has more than ${limit} ${what}; explain holds at most that many per file, so one file cannot take the server's memory`, {
    hint: 'Read this file with read_file (startLine/endLine) instead; explain works on the ordinary script files around it.',
    data: { path: filePath, limit },
  });
}

// --- Internal helpers ---

function rulesInOrder(bundle: Bundle, versionKey: string): BundleDocument[] {
  const order = bundle.ruleOrder[versionKey];
  if (order === undefined) {
    const supportedVersions = Object.keys(bundle.ruleOrder);
    throw new PvfdocError('INVALID_VERSION', `version context ${JSON.stringify(versionKey)} is not in this snapshot`, {
      hint: `Use one of: ${supportedVersions.map((v) => JSON.stringify(v)).join(', ')} ("" = unknown version).`,
      data: { supportedVersions },
    });
  }
  const docs: BundleDocument[] = [];
  for (const id of order) {
    const doc = bundle.documentsById.get(id);
    if (doc) docs.push(doc);
  }
  return docs;
}

/** The effective relation of that name (the bundle also keeps overridden and disabled ones). */
function effectiveRelation(bundle: Bundle, name: string): BundleRelation | undefined {
  return bundle.relations.find((r) => r.name === name && r.status === 'effective');
}

function buildItem(input: AnnotationLookups, doc: BundleDocument, anchor: Anchor, lines: LineIndex): ExplainAnnotation {
  const spec = doc.resolved.annotation;
  const { title, content } = columnTexts(spec, anchor, doc.resolved.target.countedGroups !== null || doc.resolved.target.variableRecords !== null);
  const value = anchor.value ?? '';
  const item: ExplainAnnotation = {
    title,
    content,
    type: spec.type,
    origin: 'rule',
    ruleIds: [doc.id],
    documentIds: [doc.documentId],
    section: anchor.section,
    occurrence: anchor.occurrence,
    tokenIndex: anchor.tokenIndex,
    value: anchor.value,
    valueType: anchor.valueType,
    range: { start: anchor.start, end: anchor.end },
    start: lines.offsetToPosition(anchor.start),
    end: lines.offsetToPosition(anchor.end),
    blocks: [],
  };
  if (anchor.lastTokenIndex !== null && anchor.lastTokenIndex !== anchor.tokenIndex) item.lastTokenIndex = anchor.lastTokenIndex;
  if (anchor.recordIndex !== null) item.recordIndex = anchor.recordIndex;

  // pvfdoc `sentinels`: a value with a fixed meaning (e.g. -1 = none) is labelled and never looked up.
  const sentinel = spec.type === 'enum' || spec.type === 'reference' ? sentinelLabel(spec, value) : undefined;
  if (sentinel !== undefined) {
    item.valueLabel = sentinel;
    item.blocks.push(block(item.title, content, doc));
    return item;
  }

  switch (spec.type) {
    case 'enum': {
      const label = enumLabel(input.bundle, doc.documentId, value);
      if (label === undefined) {
        item.unknownValue = true;
      } else {
        item.valueLabel = label;
      }
      break;
    }
    case 'reference': {
      const relation = spec.relation ?? '';
      const query: ReferenceQuery = { relation, id: value, context: anchor.context };
      const found = input.resolveReference ? input.resolveReference(query) : { status: 'unsupported' as const, name: null, path: null };
      item.reference = { ...query, name: found.name, path: found.path, resolutionStatus: found.status };
      break;
    }
    case 'image': {
      // The anchor is the image index token; the path comes from the record's path token.
      const path = trimSpace(anchor.imagePath ?? '');
      const index = parseInt32(trimSpace(value));
      if (path !== '' && index !== null && index >= 0) {
        item.image = { path, index };
        // A path with a printf field (`…/frame%04d.img`, animation frames) is a pattern, not a file a
        // frontend could draw.
        if (spec.inlineImage === true && !path.includes('%')) item.inlineImage = true;
      }
      break;
    }
    case 'path': {
      // An empty path token (``) names no file: no link at all, not a missing one.
      const link = trimSpace(value) === '' ? undefined : pathLink(input.resolvePath, spec.pathRoot ?? '', value, input.filePath);
      if (link) item.pathLink = link;
      break;
    }
    case 'text':
      break;
  }
  item.blocks.push(block(item.title, content, doc));
  return item;
}

function block(title: string, content: string, doc: BundleDocument): ExplainBlock {
  const out: ExplainBlock = { title, content, ruleId: doc.id, documentId: doc.documentId };
  if (doc.trust !== null) out.trust = doc.trust;
  return out;
}

/** The label of the first sentinel whose key is exactly the (canonical) value. */
function sentinelLabel(spec: AnnotationSpec, value: string): string | undefined {
  return spec.sentinels?.find(([key]) => key === value)?.[1];
}

/**
 * Title and content of one anchor. For `columns` rules the title is the column's own title when it has
 * a non-empty one, else the annotation title; in both, and in the content, `{record}` and `{column}`
 * become the 1-based record and column numbers and `{recordIndex}` the 0-based record number (for
 * lists whose position is itself a 0-based id, such as a skill's growtypes). `countedGroups` rules fill
 * `{record}` and `{recordIndex}` too (the record's number within its group; for `variableRecords`,
 * within the section): their records have no column titles to carry it.
 */
function columnTexts(spec: AnnotationSpec, anchor: Anchor, counted: boolean): { title: string; content: string } {
  const content = spec.content.trim();
  const column = anchor.column;
  if (counted && anchor.recordIndex !== null) {
    const fill = (text: string) => fillRecord(text, anchor.recordIndex ?? 0);
    return { title: fill(spec.title), content: fill(content) };
  }
  if (spec.columns === null || column === null) return { title: spec.title, content };
  const own = spec.columns[column];
  const fill = (text: string) => fillRecord(text, anchor.recordIndex ?? 0).replaceAll('{column}', String(column + 1));
  return { title: fill(own !== undefined && own !== '' ? own : spec.title), content: fill(content) };
}

/** `{record}` (1-based) and `{recordIndex}` (0-based) of a record. */
function fillRecord(text: string, recordIndex: number): string {
  return text.replaceAll('{recordIndex}', String(recordIndex)).replaceAll('{record}', String(recordIndex + 1));
}

const enumCache = new WeakMap<Bundle, Map<string, Map<string, string>>>();

/** Label of an exact key (first entry wins on duplicates); undefined when the value is not a key. */
function enumLabel(bundle: Bundle, documentId: string, value: string): string | undefined {
  let byDocument = enumCache.get(bundle);
  if (!byDocument) {
    byDocument = new Map();
    enumCache.set(bundle, byDocument);
  }
  let labels = byDocument.get(documentId);
  if (!labels) {
    labels = new Map();
    for (const [key, label] of bundle.valuesOf(documentId)) if (!labels.has(key)) labels.set(key, label);
    byDocument.set(documentId, labels);
  }
  return labels.get(value);
}

/**
 * §2.4 `path`: clean(join(trimSlashes(pathRoot), trimLeft(value, "/"))), backslashes as slashes — the
 * pvfine candidate, tried first. When that file does not exist, pvfdoc tries the value relative to the
 * folder of the explained file (`Animation/x.ani`, `../Animation/x.ani` in .act/.obj/.map… files), with
 * `.` and `..` resolved and never above the archive root. A missing link shows the pvfine candidate.
 */
function pathLink(resolvePath: ResolvePath | undefined, root: string, value: string, filePath: string): ExplainPathLink {
  const rel = value.replaceAll('\\', '/');
  const candidate = cleanPath(joinPath(trimSlashes(root.replaceAll('\\', '/')), rel.replace(/^\/+/, '')));
  if (!resolvePath) return { root, value, path: candidate, resolutionStatus: 'unsupported' };
  if (!escapesRoot(candidate)) {
    const found = resolvePath(candidate);
    if (found !== null) return { root, value, path: found, resolutionStatus: 'resolved' };
  }
  if (!rel.startsWith('/')) {
    const folder = dirnameOf(trimSlashes(filePath.replaceAll('\\', '/')));
    const beside = cleanPath(folder === '' ? rel : `${folder}/${rel}`);
    if (!escapesRoot(beside) && beside !== cleanPath(candidate)) {
      const found = resolvePath(beside);
      if (found !== null) return { root, value, path: found, resolutionStatus: 'resolved', relativeToFile: true };
    }
  }
  return { root, value, path: candidate, resolutionStatus: 'missing' };
}

function escapesRoot(path: string): boolean {
  return path === '.' || path === '..' || path.startsWith('../') || path.startsWith('/');
}

/** Later items on the same span (§2.6): title and type stay; ids and blocks append; first values win. */
function mergeInto(target: ExplainAnnotation, item: ExplainAnnotation): void {
  target.ruleIds.push(...item.ruleIds);
  target.documentIds.push(...item.documentIds);
  target.blocks.push(...item.blocks);
  target.tokenIndex ??= item.tokenIndex;
  if (target.value === null && item.value !== null) {
    target.value = item.value;
    target.valueType = item.valueType;
  }
  if (target.lastTokenIndex === undefined && item.lastTokenIndex !== undefined) target.lastTokenIndex = item.lastTokenIndex;
  if (target.recordIndex === undefined && item.recordIndex !== undefined) target.recordIndex = item.recordIndex;
  if (target.valueLabel === undefined && target.unknownValue === undefined) {
    if (item.valueLabel !== undefined) target.valueLabel = item.valueLabel;
    if (item.unknownValue !== undefined) target.unknownValue = item.unknownValue;
  }
  if (target.reference === undefined && item.reference !== undefined) target.reference = item.reference;
  if (target.image === undefined && item.image !== undefined) target.image = item.image;
  if (item.image !== undefined && item.inlineImage) target.inlineImage = true;
  if (target.pathLink === undefined && item.pathLink !== undefined) target.pathLink = item.pathLink;
}

function trimSlashes(p: string): string {
  return p.replace(/^\/+/, '').replace(/\/+$/, '');
}

/** Go `path.Join`: non-empty elements joined by `/`, then cleaned; "" when all are empty. */
function joinPath(a: string, b: string): string {
  const parts = [a, b].filter((p) => p !== '');
  return parts.length === 0 ? '' : cleanPath(parts.join('/'));
}
