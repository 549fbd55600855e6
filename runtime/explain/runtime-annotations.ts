/**
 * Runtime annotations (rule-format §2.5 and §2.7): meaning computed from the workspace, not from a rule.
 * They carry `origin: "runtime"`, empty `ruleIds`/`documentIds` and their own `summary`, and are appended after the
 * rule annotations (never merged into them, §2.7).
 *
 * - Implicit list rows (§2.5): when the file is a relation's list (list path or a layout candidate of
 *   it, or a contextual relation's context path), every record of the relation's width from token 0
 *   (sections ignored) gives a `reference` item on its path token: title = the relation's name (what
 *   the row is, like a rule's field title; the target's name is only in reference.name). Decisions: rows
 *   whose file does not exist are kept with `resolutionStatus: "missing"` (pvfine drops them; the
 *   protocol keeps missing references); one item per row — when several relations read the file with
 *   the same record layout, the one whose own list it is speaks, else the first by name.
 * - Link-only rows (§2.7 step 3): in any other `.lst`, token pairs (0,1), (2,3)…; a second token that
 *   names an existing file (§4.4) gives a `link` item (no title or content; `pathLink` holds the
 *   target), unless a rule annotation with a target already covers that exact span.
 * - Placeholders (§2.7 step 4): every token whose whole value is `<index::key>` gives a `placeholder`
 *   item: title = the text (+ `（未翻译）` when only a fallback table knew it), or `未定义` when the
 *   key is missing (status `missing`); without any n_string list in the workspace the status is
 *   `unsupported`.
 *
 * Found items are kept as columns (kind, tokens, span); targets, names and texts are looked up only
 * for the items of the page being returned (runtimeAnnotationAt).
 */
import { extensionOf } from '../script/archive-path.js';
import { IntColumn } from '../script/int-column.js';
import type { ReferenceIndex } from '../references/resolve-references.js';
import { parsePlaceholder, UNTRANSLATED_MARKER } from '../references/string-table.js';
import type { ExplainOutputAnnotation } from './explain-schema.js';
import type { LineIndex } from '../script/normalize-text.js';
import { tokenValue, tokenValueType, type ScriptView } from '../script/parse-script-view.js';
import { summarize } from './summary.js';
import { trimSpace } from '../script/trim-space.js';

const LIST_ROW = 0;
const LINK_ROW = 1;
const PLACEHOLDER = 2;

/** The runtime items of one file, in the order they were found (list rows, link rows, placeholders). */
export interface RuntimeItems {
  count: number;
  kind: Int32Array;
  /** The annotated token (a row's path token). */
  token: Int32Array;
  /** List rows: the id token and the index of the binding in `bindings`; -1 otherwise. */
  idToken: Int32Array;
  binding: Int32Array;
  start: Int32Array;
  end: Int32Array;
  bindings: ReturnType<ReferenceIndex['listBindings']>;
}

interface RuntimeLookups {
  /** The file as stored in the workspace. */
  filePath: string;
  /** Script view of the normalised text (the one the rule annotations were anchored in). */
  view: ScriptView;
  references: ReferenceIndex;
}

interface FindInput extends RuntimeLookups {
  /** Whether a rule annotation with a target (a resolved reference or path) has exactly this span: link-only rows skip it. */
  linkedByRule: (start: number, end: number) => boolean;
}

export function findRuntimeItems(input: FindInput): RuntimeItems {
  const { view } = input;
  const kind = new IntColumn();
  const token = new IntColumn();
  const idToken = new IntColumn();
  const binding = new IntColumn();
  const add = (k: number, t: number, id: number, b: number) => {
    kind.push(k);
    token.push(t);
    idToken.push(id);
    binding.push(b);
  };
  const value = (t: number) => tokenValue(view, t);
  const bindings = input.references.listBindings(input.filePath);
  if (bindings.length > 0) {
    // A file that is one relation's own list and another's context list (itemshop.lst: 商店, and NPC功能
    // for [item shop]) has one set of rows: one item per row, from the relation whose list it is.
    const layouts = new Set<string>();
    for (const b of bindingOrder(bindings)) {
      const { relation } = bindings[b] as (typeof bindings)[number];
      const width = Math.max(1, relation.effectiveRecordTokens);
      const layout = `${width}:${relation.idToken}:${relation.pathToken}`;
      if (layouts.has(layout)) continue;
      layouts.add(layout);
      for (let offset = 0; offset < view.tokenCount; offset += width) {
        const id = offset + relation.idToken;
        const path = offset + relation.pathToken;
        if (id >= view.tokenCount || path >= view.tokenCount) continue;
        if (trimSpace(value(id)) === '' || trimSpace(value(path)) === '') continue;
        add(LIST_ROW, path, id, b);
      }
    }
  } else if (extensionOf(input.filePath) === '.lst') {
    const { start, end } = view.tokens;
    for (let path = 1; path < view.tokenCount; path += 2) {
      if (input.linkedByRule(start[path] as number, end[path] as number)) continue;
      if (input.references.resolveRowPath(input.filePath, value(path)) !== null) add(LINK_ROW, path, -1, -1);
    }
  }
  // Plain integers are never placeholders; a plain backtick string is one when its text starts with `<`.
  const { value: stored, type, start: tokenStart } = view.tokens;
  for (let t = 0; t < view.tokenCount; t++) {
    const v = stored[t];
    const opens = v !== undefined ? v.charCodeAt(0) === 0x3c /* < */ : type[t] === 6 && view.text.charCodeAt((tokenStart[t] as number) + 1) === 0x3c;
    if (opens && parsePlaceholder(v ?? tokenValue(view, t)) !== null) add(PLACEHOLDER, t, -1, -1);
  }
  const tokens = token.finish();
  return {
    count: kind.length,
    kind: kind.finish(),
    token: tokens,
    idToken: idToken.finish(),
    binding: binding.finish(),
    start: tokens.map((t) => view.tokens.start[t] as number),
    end: tokens.map((t) => view.tokens.end[t] as number),
    bindings,
  };
}

/** Indexes of `bindings`: the relations whose own list the file is first, then context lists, each in the given order. */
function bindingOrder(bindings: readonly { context: string | null }[]): number[] {
  const order = bindings.map((_, i) => i);
  return [...order.filter((i) => bindings[i]?.context === null), ...order.filter((i) => bindings[i]?.context !== null)];
}

/** Runtime item `i` as an annotation, with its target, name or text looked up now. */
export function runtimeAnnotationAt(items: RuntimeItems, i: number, input: RuntimeLookups & { lines: LineIndex }): ExplainOutputAnnotation {
  const token = items.token[i] as number;
  const value = tokenValue(input.view, token);
  switch (items.kind[i]) {
    case LIST_ROW: {
      const { relation, listPath, context } = items.bindings[items.binding[i] as number] as RuntimeItems['bindings'][number];
      const id = trimSpace(tokenValue(input.view, items.idToken[i] as number));
      const target = input.references.resolveRowPath(listPath, value);
      return {
        ...base(input, token),
        title: relation.name,
        summary: summarize(target ? `ID: ${id} 路径: ${target}` : `ID: ${id}（未找到关联文件） 路径: ${trimSpace(value)}`),
        type: 'reference',
        reference: {
          relation: relation.name,
          id,
          context,
          name: target === null ? null : input.references.targetName(relation, listPath, target),
          path: target,
          resolutionStatus: target ? 'resolved' : 'missing',
        },
      };
    }
    case LINK_ROW:
      return {
        ...base(input, token),
        title: '',
        summary: '',
        type: 'link',
        pathLink: { root: '', value, path: input.references.resolveRowPath(input.filePath, value) ?? '', resolutionStatus: 'resolved' },
      };
    default:
      return placeholderAnnotation(input, token, value);
  }
}

// --- Internal helpers ---

function placeholderAnnotation(input: RuntimeLookups & { lines: LineIndex }, token: number, value: string): ExplainOutputAnnotation {
  const placeholder = parsePlaceholder(value);
  if (placeholder === null) throw new RangeError(`token ${token} is not a placeholder`);
  const found = input.references.stringTables.lookup(placeholder.table, placeholder.key);
  let title: string;
  let content: string;
  if (found.status === 'resolved' && found.text !== null) {
    title = found.fallback ? found.text + UNTRANSLATED_MARKER : found.text;
    content = `来源: ${found.path ?? ''}${found.fallback ? '（只有后备字符串表有这个键）' : ''}`;
  } else if (found.status === 'missing') {
    title = '未定义';
    content = `字符串表 ${placeholder.table} 中没有键 ${placeholder.key}`;
  } else {
    title = '未解析';
    content = '工作区中没有 n_string.lst，字符串表无法解析';
  }
  return {
    ...base(input, token),
    title,
    summary: summarize(content),
    type: 'placeholder',
    placeholder: {
      table: placeholder.table,
      key: placeholder.key,
      text: found.text,
      path: found.path,
      fallback: found.fallback,
      resolutionStatus: found.status,
    },
  };
}

/** Position and section fields of an item on one token. */
function base(input: { view: ScriptView; lines: LineIndex }, token: number): Omit<ExplainOutputAnnotation, 'title' | 'summary' | 'type'> {
  const { sections, tokens } = input.view;
  const section = tokens.section[token] as number;
  const index = tokens.index[token] as number;
  const start = tokens.start[token] as number;
  const end = tokens.end[token] as number;
  return {
    origin: 'runtime',
    ruleIds: [],
    documentIds: [],
    section: section > 0 ? (sections.name[section] as string) : null,
    occurrence: section > 0 ? (sections.occurrence[section] as number) : null,
    tokenIndex: index >= 0 ? index : null,
    value: tokenValue(input.view, token),
    valueType: tokenValueType(input.view, token),
    range: { start, end },
    start: input.lines.offsetToPosition(start),
    end: input.lines.offsetToPosition(end),
  };
}
