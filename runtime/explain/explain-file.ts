/**
 * `pvf_annotation_explain` (protocol 实际文件解释; protocol-notes "Explain"): the annotations a real
 * workspace file gets from the active rules, plus runtime annotations, filtered and paged.
 *
 * Order of checks: arguments → rulesRevision (STALE_RULES) → filters (INVALID_ARGUMENT) → workspace view
 * (NO_ARCHIVE) → expectedRevision (STALE_WORKSPACE) → file (INVALID_ARGUMENT for a bad path,
 * FILE_NOT_FOUND, RESPONSE_TOO_LARGE over 32 MiB, NOT_A_SCRIPT) → cursor.
 *
 * Cursors bind the tool, the rules revision, the workspace, the file, the version context and the
 * normalised filters (the *request*), and separately the workspace revision and the file's
 * textRevision (the *state*); the cursor's binding is `<request hash>.<state hash>`. A cursor of
 * another request is INVALID_CURSOR; a cursor of the same request over an older state is
 * STALE_WORKSPACE, because the content changed under it (results of two snapshots are never joined).
 * Telling the two apart needs the cursor's binding, hence `readCursor` in runtime/bundle/cursor.ts.
 *
 * The full annotation list of a file is computed once per (view, bundle, file text, version) and kept
 * while the workspace stays at that revision (directory views are reused until something changes), and
 * so is the selection of each recent filter set, so later pages cost only the paging (not a filter pass
 * over every annotation per page). Names of `.lst` row targets are read only for returned items.
 */
import type { Bundle } from '../bundle/load-bundle.js';
import { LruCache } from '../script/lru-cache.js';
import type { BundleDocument } from '../bundle/schema.js';
import { UNKNOWN_VERSION } from '../bundle/constants.js';
import { bindingHash, checkOffset, encodeCursor, invalidCursor, readCursor, staleRulesCursor, type CursorKey } from '../bundle/cursor.js';
import { PvfdocError } from '../errors.js';
import { foldPath } from '../script/archive-path.js';
import { createPathResolver, createReferenceIndex, type ReferenceIndex } from '../references/resolve-references.js';
import { createStringTables } from '../references/string-table.js';
import type { Workspace, WorkspaceView } from '../workspace/workspace.js';
import { nextTurn, readTextInSlices, runInSlices } from '../workspace/run-in-slices.js';
import { annotateSteps, pathContext, ruleAnnotationAt, ruleAnnotationPlace, type AnnotationLookups, type ExplainAnnotation, type RuleAnnotations } from './annotate-script.js';
import { ANCHOR_BYTES } from './anchor-table.js';
import { sortBySpan } from './span-order.js';
import { entryAt, IntColumn, wholeColumn } from '../script/int-column.js';
import {
  DEFAULT_EXPLAIN_LIMIT,
  EXPLAIN_PAGE_BUDGET_BYTES,
  MAX_EXPLAIN_RESPONSE_BYTES,
  type ExplainDocument,
  type ExplainInput,
  type ExplainOutput,
  type ExplainOutputAnnotation,
} from './explain-schema.js';
import { matchesExplainFilters, normalizeExplainFilters, type ExplainFilters } from './filter-annotations.js';
import { findRuntimeItems, runtimeAnnotationAt, type RuntimeItems } from './runtime-annotations.js';
import { summarize } from './summary.js';

export const EXPLAIN_TOOL = 'pvf_annotation_explain';

/** Warnings returned per response; more are summarised by one EXPLAIN_WARNINGS_TRUNCATED warning. */
export const MAX_EXPLAIN_WARNINGS = 100;

/**
 * Longest warning message returned (UTF-16 code units). Messages quote section names, which a tag that
 * runs across many lines makes as long as the file; cut, they keep every warning within the budget.
 */
export const MAX_EXPLAIN_WARNING_MESSAGE = 300;

type OutputWarning = ExplainOutput['warnings'][number];

export async function explainFile(args: { bundle: Bundle; workspace: Workspace; input: ExplainInput; cache?: ExplainCache; cursorKey?: CursorKey }): Promise<ExplainOutput> {
  // Already parsed where the request came in (the MCP SDK, or parseExplainInput for the CLI).
  const { bundle, workspace, input } = args;
  if (input.workspaceId !== workspace.workspaceId) {
    throw new PvfdocError('WORKSPACE_NOT_FOUND', `workspace ${JSON.stringify(input.workspaceId)} is not this workspace`, {
      hint: 'Use a workspaceId from workspace_info.',
      data: { workspaceIds: [workspace.workspaceId] },
    });
  }
  if (input.rulesRevision !== undefined && input.rulesRevision !== bundle.rulesRevision) {
    throw new PvfdocError('STALE_RULES', `rules snapshot ${input.rulesRevision} is not active; the active snapshot is ${bundle.rulesRevision}`, {
      hint: 'The rules changed: repeat with the current rulesRevision (from workspace_info) or without it.',
      data: { rulesRevision: bundle.rulesRevision },
    });
  }
  const filters = normalizeExplainFilters(input);
  const limit = input.limit ?? DEFAULT_EXPLAIN_LIMIT;

  const view = await workspace.view();
  if (input.expectedRevision !== view.revision) {
    throw new PvfdocError('STALE_WORKSPACE', `expectedRevision ${input.expectedRevision} is not the workspace's current revision ${view.revision}`, {
      hint: 'The workspace content changed (or the revision is wrong): repeat with expectedRevision set to data.revision and without a cursor.',
      data: { revision: view.revision },
    });
  }
  const stored = view.resolveFile(input.filePath);
  if (stored === null) throw fileNotFound(view, input.filePath);
  const file = await readTextInSlices(view, stored);
  if (!file.isScript) {
    throw new PvfdocError('NOT_A_SCRIPT', `${stored} is not token-script text (string tables, images, sound and binary files cannot be explained)`, {
      hint: 'Explain script files such as .equ, .stk, .skl or .lst; use read_file for other text.',
      data: { path: stored },
    });
  }

  const info = workspace.info();
  const versionKey = info.pvfVersion !== '' && bundle.manifest.pvfVersions.includes(info.pvfVersion) && bundle.ruleOrder[info.pvfVersion] ? info.pvfVersion : UNKNOWN_VERSION;

  const requestHash = bindingHash({ tool: EXPLAIN_TOOL, workspaceId: workspace.workspaceId, filePath: foldPath(stored), version: versionKey, filters, fullText: input.fullText === true });
  const stateHash = bindingHash({ revision: view.revision, textRevision: file.textRevision });
  const binding = `${requestHash}.${stateHash}`;
  const offset = input.cursor === undefined ? 0 : decodeExplainCursor(input.cursor, bundle, requestHash, stateHash, view.revision, args.cursorKey);

  if (file.text.length > MAX_EXPLAIN_TEXT_UNITS) {
    throw new PvfdocError('RESPONSE_TOO_LARGE', `${stored} is ${file.text.length} characters long; explain reads files up to ${MAX_EXPLAIN_TEXT_UNITS} characters (32 Mi, what read_file reads)`, {
      hint: 'Read this file with read_file (startLine/endLine) instead; explain works on the ordinary script files around it.',
      data: { path: stored, size: file.text.length, limit: MAX_EXPLAIN_TEXT_UNITS },
    });
  }
  const cache = args.cache ?? createExplainCache();
  const context = explainContext(cache, args.workspace, view, bundle, info.encoding);
  const explained = await explainText(cache, context, { bundle, view, path: stored, text: file.text, textRevision: file.textRevision, versionKey });
  const warnings = [...explained.warnings];
  if (info.pvfVersion !== '' && versionKey === UNKNOWN_VERSION) {
    warnings.unshift({
      code: 'UNKNOWN_PVF_VERSION',
      message: `the workspace's client version ${JSON.stringify(info.pvfVersion)} is not in this rules snapshot (${bundle.manifest.pvfVersions.join(', ')}); only rules without a version restriction were applied`,
      range: null,
      start: null,
      end: null,
    });
  }

  const selected = selectAnnotations(explained, filters);
  const start = checkOffset(offset, selected.length);
  // pathContext is the same on every page of one request: sent once, with the first page.
  const firstPage = start === 0;
  const output: ExplainOutput = {
    schemaVersion: 3,
    contentSource: 'workspace',
    rulesRevision: bundle.rulesRevision,
    workspaceId: workspace.workspaceId,
    revision: view.revision,
    textRevision: file.textRevision,
    filePath: stored,
    pvfVersion: versionKey,
    pathContext: firstPage ? explained.pathContext : [],
    ...(firstPage || explained.pathContext.length === 0 ? {} : { pathContextOmitted: true as const }),
    annotations: [],
    documents: {},
    warnings: capWarnings(warnings, explained.warningsNotKept),
    nextCursor: null,
    truncated: false,
  };
  const pageEntries: ExplainOutputAnnotation[] = [];
  for (let p = start; p < Math.min(start + limit, selected.length); p++) pageEntries.push(entryAnnotation(bundle, explained, explained.entries[selected[p] as number] as number));
  const page = fitPage(
    bundle,
    output,
    pageEntries,
    encodeCursor({ tool: EXPLAIN_TOOL, rulesRevision: bundle.rulesRevision, binding, offset: Number.MAX_SAFE_INTEGER }, args.cursorKey),
    input.fullText === true,
    // One note often covers the file and every folder above it (a glob rule): its text is sent once, in documents.
    firstPage ? explained.pathContext.map((p) => p.documentId) : [],
  );
  const end = start + page.annotations.length;
  output.annotations = page.annotations;
  output.documents = page.documents;
  output.nextCursor = end < selected.length ? encodeCursor({ tool: EXPLAIN_TOOL, rulesRevision: bundle.rulesRevision, binding, offset: end }, args.cursorKey) : null;
  output.truncated = page.annotations.length < Math.min(limit, selected.length - start);
  return output;
}

// --- Cursor ---

function decodeExplainCursor(cursor: string, bundle: Bundle, requestHash: string, stateHash: string, revision: number, key: CursorKey | undefined): number {
  const state = readCursor(cursor, key);
  if (state.tool !== EXPLAIN_TOOL) throw invalidCursor(`it belongs to ${state.tool}, not ${EXPLAIN_TOOL}`);
  if (state.rulesRevision !== bundle.rulesRevision) throw staleRulesCursor(state.rulesRevision, bundle.rulesRevision);
  const [cursorRequest, cursorState, extra] = state.binding.split('.');
  if (cursorRequest !== requestHash || cursorState === undefined || extra !== undefined) {
    throw invalidCursor('it belongs to another file, version context or filter set');
  }
  if (cursorState !== stateHash) {
    throw new PvfdocError('STALE_WORKSPACE', 'the cursor belongs to an earlier state of the workspace or of this file; pages of two states are never joined', {
      hint: 'Repeat the request without a cursor (with expectedRevision = data.revision) to explain the current content from the first page.',
      data: { revision },
    });
  }
  return state.offset;
}

// --- Explaining one text (cached per view and bundle) ---

/**
 * One file's explanation as kept between pages: the rule annotations and runtime items in columns,
 * and their order; annotations are built only for the page returned (entryAnnotation).
 */
interface FileExplanation {
  rules: RuleAnnotations;
  runtime: RuntimeItems;
  /** What building an annotation looks up. */
  lookups: AnnotationLookups & { references: ReferenceIndex; view: WorkspaceView };
  /** In output order (start, end; rules first on a span): i ≥ 0 is rule annotation i, i < 0 runtime item -1 - i. */
  entries: Int32Array;
  warnings: OutputWarning[];
  /** Lexer warnings beyond the ones the script view keeps. */
  warningsNotKept: number;
  pathContext: ExplainOutput['pathContext'];
  /**
   * The positions in `entries` each recent filter set selects (key: the normalised filters), so paging
   * through a large file filters once, not once per page.
   */
  selections: Map<string, Int32Array>;
  /** Estimated heap the explanation holds (the cache's weight). */
  bytes: number;
}

const MAX_CACHED_SELECTIONS = 8;

/** The entries `filters` keep, filtered once per explanation and filter set. */
function selectAnnotations(explained: FileExplanation, filters: ExplainFilters): Int32Array {
  const key = JSON.stringify(filters);
  let selected = explained.selections.get(key);
  if (!selected) {
    const none = filters.section === null && filters.startLine === null && filters.endLine === null;
    selected = none ? explained.entries.map((_, i) => i) : filterEntries(explained, filters);
    explained.selections.set(key, selected);
    if (explained.selections.size > MAX_CACHED_SELECTIONS) {
      const oldest = explained.selections.keys().next().value;
      if (oldest !== undefined) explained.selections.delete(oldest);
    }
  }
  return selected;
}

/** Positions of the entries that match the filters, read from the columns. */
function filterEntries(explained: FileExplanation, filters: ExplainFilters): Int32Array {
  const { rules, runtime, entries } = explained;
  const { sections, tokens } = rules.view;
  const kept = new IntColumn();
  for (let p = 0; p < entries.length; p++) {
    const e = entries[p] as number;
    let section: number;
    let tokenIndex: number | null;
    let lastTokenIndex: number | null;
    let spanStart: number;
    let spanEnd: number;
    if (e >= 0) {
      const place = ruleAnnotationPlace(rules, e);
      const first = rules.order[rules.groupStart[e] as number] as number;
      ({ section, tokenIndex, lastTokenIndex } = place);
      spanStart = entryAt(rules.anchors.start, first);
      spanEnd = entryAt(rules.anchors.end, first);
    } else {
      const token = runtime.token[-1 - e] as number;
      section = tokens.section[token] as number;
      const index = tokens.index[token] as number;
      tokenIndex = index >= 0 ? index : null;
      lastTokenIndex = tokenIndex;
      spanStart = tokens.start[token] as number;
      spanEnd = tokens.end[token] as number;
    }
    const place = {
      section: section === 0 ? null : (sections.name[section] as string),
      occurrence: section === 0 ? null : (sections.occurrence[section] as number),
      tokenIndex,
      lastTokenIndex: lastTokenIndex ?? undefined,
      start: rules.lines.offsetToPosition(spanStart),
      end: rules.lines.offsetToPosition(spanEnd),
    };
    if (matchesExplainFilters(place, filters)) kept.push(p);
  }
  return kept.finish();
}

/** Entry `e` of an explanation as sent. */
function entryAnnotation(bundle: Bundle, explained: FileExplanation, e: number): ExplainOutputAnnotation {
  if (e >= 0) return toOutputAnnotation(bundle, ruleAnnotationAt(explained.rules, e, explained.lookups));
  return runtimeAnnotationAt(explained.runtime, -1 - e, { filePath: explained.lookups.filePath, view: explained.rules.view, references: explained.lookups.references, lines: explained.rules.lines });
}

interface ExplainContext {
  /** Tells this context's explanations apart in the cache's one LRU. */
  id: number;
  references: ReferenceIndex;
  /** Cache keys of the explanations made in this context (some may have been evicted since). */
  keys: Set<string>;
  /** A newer revision of the workspace has been explained: what this context still makes is not cached. */
  retired: boolean;
}

/**
 * Longest text explain takes, in UTF-16 code units: what read_file reads (32 MiB). An explanation is
 * held in columns (explanationBytes: about 19 bytes per character of equipment script, text included),
 * so the largest legal script explains in bounded memory.
 */
export const MAX_EXPLAIN_TEXT_UNITS = 32 * 1024 * 1024;

/**
 * Most anchors (rule hits before merging) one file's explanation may hold (decision, issue 15): a text
 * can be dense (32 MiB of one-token sections), and each anchor costs ANCHOR_BYTES; at the limit the
 * anchor columns hold 192 MiB. Real scripts stay far below (about 90 000 per MB of equipment script).
 */
export const MAX_EXPLAIN_ANNOTATIONS = 4 * 1024 * 1024;

/** Heap the explanations of one cache may hold in all (explanationBytes): one 31 MiB script fits. */
export const EXPLAIN_CACHE_BYTES = 512 * 1024 * 1024;

/**
 * Explanations and reference indexes of a server, for its lifetime: reference indexes per (view,
 * bundle) — a view object lives as long as its revision is current, so they go away with it — and
 * the explanations in one LRU bounded by the number of annotations they hold, whatever the workspace.
 */
export interface ExplainCache {
  readonly contexts: WeakMap<WorkspaceView, WeakMap<Bundle, ExplainContext>>;
  readonly files: LruCache<string, FileExplanation>;
  /** Explanations being made now, by the same key. */
  readonly pending: Map<string, Promise<FileExplanation>>;
  /** The explanation of a large text being made now (one at a time), or null. */
  largeTurn: Promise<unknown> | null;
  /** What the cache may hold in all (bytes). */
  readonly budget: number;
  /** Ids handed out to contexts so far. */
  contextCount: number;
  /**
   * Per workspace (the object, so a reused id cannot mix two), the newest revision explained and the
   * contexts made for it. A context of an older revision is never asked again (requests name the
   * revision they read), so its explanations leave the cache when a newer one arrives instead of
   * waiting to be evicted: otherwise every edit of a large file left hundreds of MiB of explanations
   * that no request could reach, which every garbage collection had to walk.
   */
  readonly newest: WeakMap<Workspace, { revision: number; contexts: ExplainContext[] }>;
}

export function createExplainCache(bytes: number = EXPLAIN_CACHE_BYTES): ExplainCache {
  return { contexts: new WeakMap(), files: new LruCache<string, FileExplanation>(bytes, (e) => e.bytes), pending: new Map(), largeTurn: null, budget: bytes, contextCount: 0, newest: new WeakMap() };
}

function explainContext(cache: ExplainCache, workspace: Workspace, view: WorkspaceView, bundle: Bundle, encoding: string): ExplainContext {
  const { contexts } = cache;
  let byBundle = contexts.get(view);
  if (!byBundle) {
    byBundle = new WeakMap();
    contexts.set(view, byBundle);
  }
  let context = byBundle.get(bundle);
  if (!context) {
    const legacy = /^utf-?8$/i.test(encoding) || encoding === '' ? {} : { legacyEncoding: encoding };
    const stringTables = createStringTables(view, legacy);
    context = { id: ++cache.contextCount, references: createReferenceIndex(bundle, view, { stringTables }), keys: new Set(), retired: false };
    byBundle.set(bundle, context);
    retireOlderContexts(cache, workspace, view.revision, context);
  }
  return context;
}

/** Drops the explanations of a workspace's older revisions once a context for `revision` is made. */
function retireOlderContexts(cache: ExplainCache, workspace: Workspace, revision: number, context: ExplainContext): void {
  const newest = cache.newest.get(workspace);
  if (newest !== undefined && revision < newest.revision) {
    // A request still on an older view: its explanation serves that request only.
    context.retired = true;
    return;
  }
  if (newest !== undefined && revision === newest.revision) {
    newest.contexts.push(context);
    return;
  }
  for (const old of newest?.contexts ?? []) {
    for (const key of old.keys) cache.files.delete(key);
    old.keys.clear();
    old.retired = true;
  }
  cache.newest.set(workspace, { revision, contexts: [context] });
}

type ExplainArgs = { bundle: Bundle; view: WorkspaceView; path: string; text: string; textRevision: string; versionKey: string };

/**
 * The explanation of one file text: from the cache, from a request already explaining it (so two
 * requests for one large file share one explanation), or made now in time slices.
 */
async function explainText(cache: ExplainCache, context: ExplainContext, args: ExplainArgs): Promise<FileExplanation> {
  const key = `${context.id}\u0000${foldPath(args.path)}\u0000${args.textRevision}\u0000${args.versionKey}`;
  const cached = cache.files.get(key);
  if (cached) return cached;
  const running = cache.pending.get(key);
  if (running) return running;
  const made = args.text.length < LARGE_TEXT_UNITS ? explainNow(cache, context, args, key) : explainLarge(cache, context, args, key);
  cache.pending.set(key, made);
  try {
    return await made;
  } finally {
    cache.pending.delete(key);
  }
}

async function explainNow(cache: ExplainCache, context: ExplainContext, args: ExplainArgs, key: string): Promise<FileExplanation> {
  const explanation = await runInSlices(explanationSteps(context, args));
  if (!context.retired) {
    cache.files.set(key, explanation);
    context.keys.add(key);
  }
  return explanation;
}

/**
 * A large text is explained after the large one before it is done, with room made for it in the cache
 * first: the cache and one explanation being made are what explain holds at most, whatever the
 * number of requests for different large files (decision, issue 15).
 */
async function explainLarge(cache: ExplainCache, context: ExplainContext, args: ExplainArgs, key: string): Promise<FileExplanation> {
  const before = cache.largeTurn;
  const turn = (async () => {
    if (before) await before.catch(() => undefined);
    // Reading and hashing a text this large took the thread for its own stretch: let other requests
    // run before the explain's first slice adds another.
    else await nextTurn();
    cache.files.trimTo(Math.max(0, cache.budget - args.text.length * EXPLANATION_BYTES_PER_UNIT));
    return explainNow(cache, context, args, key);
  })();
  cache.largeTurn = turn;
  try {
    return await turn;
  } finally {
    if (cache.largeTurn === turn) cache.largeTurn = null;
  }
}

/** Texts from this length on are explained one at a time (about 24 MiB of explanation and more). */
const LARGE_TEXT_UNITS = 1024 * 1024;

/**
 * Bytes an explanation holds per character of text, with room to spare (explanationBytes gives about
 * 19 for equipment scripts; the peak while it is made is higher).
 */
const EXPLANATION_BYTES_PER_UNIT = 24;

function* explanationSteps(context: ExplainContext, args: ExplainArgs): Generator<void, FileExplanation> {
  const { bundle, path, versionKey } = args;
  const lookups = { bundle, filePath: path, resolveReference: context.references.resolve, resolvePath: createPathResolver(args.view), references: context.references, view: args.view };
  const rules = yield* annotateSteps({ ...lookups, versionKey, text: args.text, maxAnnotations: MAX_EXPLAIN_ANNOTATIONS });
  const runtime = findRuntimeItems({
    filePath: path,
    view: rules.view,
    references: context.references,
    linkedByRule: (start, end) => {
      const i = ruleAnnotationWithSpan(rules, start, end);
      if (i < 0) return false;
      const a = ruleAnnotationAt(rules, i, lookups);
      return Boolean(a.reference?.path) || a.pathLink?.resolutionStatus === 'resolved';
    },
  });
  yield;
  const runtimeOrder = yield* sortBySpan(wholeColumn(runtime.start), wholeColumn(runtime.end), runtime.count);
  const entries = mergeEntries(rules, runtime, runtimeOrder);
  yield;

  const { text } = rules.view;
  const warnings: OutputWarning[] = rules.warnings.map((w) => ({ code: w.code, message: w.message, range: w.range, start: w.start, end: w.end }));
  const replacement = text.indexOf('\uFFFD');
  if (replacement >= 0) {
    let count = 0;
    for (let i = replacement; i >= 0; i = text.indexOf('\uFFFD', i + 1)) count++;
    warnings.unshift({
      code: 'INVALID_TEXT_ENCODING',
      message: `the text holds ${count} U+FFFD replacement character(s): bytes that are not valid in the workspace's encoding were replaced (the first is here)`,
      range: { start: replacement, end: replacement + 1 },
      start: rules.lines.offsetToPosition(replacement),
      end: rules.lines.offsetToPosition(replacement + 1),
    });
  }
  return {
    rules,
    runtime,
    lookups,
    entries,
    warnings,
    warningsNotKept: rules.warningCount - rules.warnings.length,
    pathContext: pathContext(bundle, versionKey, path),
    selections: new Map(),
    bytes: explanationBytes(rules, runtime),
  };
}

/** The rule annotation with exactly this span (binary search over the sorted annotations), or -1. */
function ruleAnnotationWithSpan(rules: RuleAnnotations, start: number, end: number): number {
  let low = 0;
  let high = rules.count - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const first = rules.order[rules.groupStart[mid] as number] as number;
    const s = entryAt(rules.anchors.start, first);
    const e = entryAt(rules.anchors.end, first);
    if (s === start && e === end) return mid;
    if (s < start || (s === start && e < end)) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/** Rule annotations and runtime items in one order: by start, then end, rule annotations first on a span. */
function mergeEntries(rules: RuleAnnotations, runtime: RuntimeItems, runtimeOrder: Int32Array): Int32Array {
  const entries = new Int32Array(rules.count + runtime.count);
  let r = 0;
  let t = 0;
  for (let p = 0; p < entries.length; p++) {
    let takeRule = r < rules.count;
    if (takeRule && t < runtime.count) {
      const first = rules.order[rules.groupStart[r] as number] as number;
      const item = runtimeOrder[t] as number;
      const rs = entryAt(rules.anchors.start, first);
      const ts = runtime.start[item] as number;
      takeRule = rs < ts || (rs === ts && entryAt(rules.anchors.end, first) <= (runtime.end[item] as number));
    }
    entries[p] = takeRule ? r++ : -1 - (runtimeOrder[t++] as number);
  }
  return entries;
}

/**
 * Heap an explanation holds, estimated from its parts: the text (two bytes a unit), a token or
 * section (its columns, its string and the array slot), an anchor, a runtime item, an entry and a
 * line start.
 */
function explanationBytes(rules: RuleAnnotations, runtime: RuntimeItems): number {
  const { view } = rules;
  return view.text.length * 2 + view.tokenCount * 48 + view.sectionCount * 56 + rules.anchors.count * (ANCHOR_BYTES + 8) + runtime.count * 28 + (rules.count + runtime.count) * 4 + rules.lines.lineCount * 4;
}

/**
 * An annotation as sent: what its first document already says (summary, trust) and a single rule's
 * block are left out, since the page's `documents` carries them once.
 */
function toOutputAnnotation(bundle: Bundle, a: ExplainAnnotation): ExplainOutputAnnotation {
  const summary = summarize(a.content);
  const first = a.documentIds[0];
  const documentSummary = first === undefined ? undefined : bundle.documentsById.get(first);
  const out: ExplainOutputAnnotation = {
    title: a.title,
    ...(documentSummary !== undefined && summary === summaryOf(documentSummary) ? {} : { summary }),
    type: a.type,
    ruleIds: a.ruleIds,
    documentIds: a.documentIds,
    section: a.section,
    occurrence: a.occurrence,
    tokenIndex: a.tokenIndex,
    value: a.value,
    valueType: a.valueType,
    range: a.range,
    start: a.start,
    end: a.end,
  };
  if (a.blocks.length > 1) {
    out.blocks = a.blocks.map((b) => (b.trust === undefined ? { title: b.title, ruleId: b.ruleId, documentId: b.documentId } : { title: b.title, ruleId: b.ruleId, documentId: b.documentId, trust: b.trust }));
  }
  if (a.lastTokenIndex !== undefined) out.lastTokenIndex = a.lastTokenIndex;
  if (a.recordIndex !== undefined) out.recordIndex = a.recordIndex;
  if (a.valueLabel !== undefined) out.valueLabel = a.valueLabel;
  if (a.unknownValue !== undefined) out.unknownValue = a.unknownValue;
  if (a.reference !== undefined) out.reference = a.reference;
  if (a.image !== undefined) out.image = a.image;
  if (a.inlineImage !== undefined) out.inlineImage = a.inlineImage;
  if (a.pathLink !== undefined) out.pathLink = a.pathLink;
  return out;
}

// --- Response budget ---

/** The warnings sent: `all` and `notKept` more beyond them, cut to MAX_EXPLAIN_WARNINGS with a count of the rest. */
function capWarnings(all: OutputWarning[], notKept: number): OutputWarning[] {
  const warnings = all.map((w) => (w.message.length > MAX_EXPLAIN_WARNING_MESSAGE ? { ...w, message: clipMessage(w.message) } : w));
  const total = warnings.length + notKept;
  if (total <= MAX_EXPLAIN_WARNINGS) return warnings;
  const kept = warnings.slice(0, MAX_EXPLAIN_WARNINGS - 1);
  kept.push({
    code: 'EXPLAIN_WARNINGS_TRUNCATED',
    message: `${total - kept.length} more warnings are not shown (${total} in all); the file is probably not well-formed script text`,
    range: null,
    start: null,
    end: null,
  });
  return kept;
}

/** A message cut to MAX_EXPLAIN_WARNING_MESSAGE code units with an ellipsis, never inside a surrogate pair. */
function clipMessage(message: string): string {
  let end = MAX_EXPLAIN_WARNING_MESSAGE - 1;
  const last = message.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${message.slice(0, end)}…`;
}

/** A cited document as sent once per page in `documents`: its summary and trust; with fullText its whole content and sources. */
function explainDocument(bundle: Bundle, documentId: string, fullText: boolean): ExplainDocument | undefined {
  const doc = bundle.documentsById.get(documentId);
  if (!doc) return undefined;
  const out: ExplainDocument = { summary: summaryOf(doc) };
  if (doc.trust !== null) out.trust = doc.trust;
  if (fullText) {
    out.content = doc.resolved.annotation.content.trim();
    out.sources = doc.sources;
  }
  return out;
}

function summaryOf(doc: BundleDocument): string {
  return summarize(doc.resolved.annotation.content);
}

interface Page {
  annotations: ExplainOutputAnnotation[];
  documents: Record<string, ExplainDocument>;
}

/**
 * The longest prefix of the page whose annotations, with the documents they newly cite, stay within
 * EXPLAIN_PAGE_BUDGET_BYTES (the page is cut there, truncated + nextCursor) and, for a single
 * annotation, within MAX_EXPLAIN_RESPONSE_BYTES (else RESPONSE_TOO_LARGE). At least one annotation.
 */
function fitPage(bundle: Bundle, envelope: ExplainOutput, page: ExplainOutputAnnotation[], longestCursor: string, fullText: boolean, pathDocuments: readonly string[]): Page {
  const documents: Record<string, ExplainDocument> = {};
  for (const id of pathDocuments) {
    const doc = explainDocument(bundle, id, fullText);
    if (doc) documents[id] = doc;
  }
  const envelopeBytes = Buffer.byteLength(JSON.stringify({ ...envelope, annotations: [], documents, nextCursor: longestCursor }));
  let used = 0;
  for (let i = 0; i < page.length; i++) {
    const item = page[i] as ExplainOutputAnnotation;
    let size = Buffer.byteLength(JSON.stringify(item)) + (i > 0 ? 1 : 0);
    const added: [string, ExplainDocument][] = [];
    for (const id of new Set(item.documentIds)) {
      if (id in documents) continue;
      const doc = explainDocument(bundle, id, fullText);
      if (!doc) continue;
      added.push([id, doc]);
      // "id":{…} plus a comma
      size += Buffer.byteLength(JSON.stringify(id)) + Buffer.byteLength(JSON.stringify(doc)) + 2;
    }
    if (i > 0 && envelopeBytes + used + size > EXPLAIN_PAGE_BUDGET_BYTES) return { annotations: page.slice(0, i), documents };
    if (envelopeBytes + used + size > MAX_EXPLAIN_RESPONSE_BYTES) {
      throw new PvfdocError(
        'RESPONSE_TOO_LARGE',
        `the annotation at line ${item.start.line} (${item.range.start}–${item.range.end}) is ${size} bytes with its documents; with the rest of the response it exceeds the ${MAX_EXPLAIN_RESPONSE_BYTES}-byte limit`,
        {
          hint: `Skip it with startLine/endLine (e.g. startLine ${item.end.line + 1}) or a section filter, and read that part of the file with read_file.`,
          data: { limit: MAX_EXPLAIN_RESPONSE_BYTES, size, line: item.start.line, range: item.range },
        },
      );
    }
    for (const [id, doc] of added) documents[id] = doc;
    used += size;
  }
  return { annotations: page, documents };
}

function fileNotFound(view: WorkspaceView, filePath: string): PvfdocError {
  let isFolder = false;
  try {
    view.listDirectory(filePath);
    isFolder = true;
  } catch {
    isFolder = false;
  }
  return new PvfdocError('FILE_NOT_FOUND', isFolder ? `${filePath} is a folder, not a file` : `file ${JSON.stringify(filePath)} is not in the workspace`, {
    hint: 'Use list_files to find the file (paths are relative to the workspace root, "/" separated, case-insensitive).',
    data: { path: filePath },
  });
}
