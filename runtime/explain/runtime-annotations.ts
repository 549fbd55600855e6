/**
 * Runtime annotations (rule-format §2.5 and §2.7): meaning computed from the workspace, not from a rule.
 * They carry `origin: "runtime"`, empty `ruleIds`/`documentIds` and their own `summary`, and are appended after the
 * rule annotations (never merged into them, §2.7).
 *
 * - Implicit list rows (§2.5): when the file is a relation's list (list path or a layout candidate of
 *   it, or a contextual relation's context path), every record of the relation's width from token 0
 *   (sections ignored) gives a `reference` item on its path token: title = the relation's name (what
 *   the row is, like a rule's field title; the target's name is only in reference.name). Decision: rows whose file does not exist are kept with `resolutionStatus: "missing"`
 *   (pvfine drops them; the protocol keeps missing references). Names are read lazily, only for the
 *   items of the page being returned (`complete`).
 * - Link-only rows (§2.7 step 3): in any other `.lst`, token pairs (0,1), (2,3)…; a second token that
 *   names an existing file (§4.4) gives a `link` item (no title or content; `pathLink` holds the
 *   target), unless a rule annotation with a target already covers that exact span.
 * - Placeholders (§2.7 step 4): every token whose whole value is `<index::key>` gives a `placeholder`
 *   item: title = the text (+ `（未翻译）` when only a fallback table knew it), or `未定义` when the
 *   key is missing (status `missing`); without any n_string list in the workspace the status is
 *   `unsupported`.
 */
import { extensionOf } from '../script/archive-path.js';
import type { ReferenceIndex } from '../references/resolve-references.js';
import { parsePlaceholder, UNTRANSLATED_MARKER } from '../references/string-table.js';
import type { ExplainOutputAnnotation } from './explain-schema.js';
import type { LineIndex } from '../script/normalize-text.js';
import type { ScriptTokenElement, ScriptView } from '../script/parse-script-view.js';
import { summarize } from './summary.js';
import { trimSpace } from '../script/trim-space.js';

export interface RuntimeAnnotation {
  annotation: ExplainOutputAnnotation;
  /** Fills in what is costly to compute (target names); call only for annotations that are returned. */
  complete?: () => void;
}

interface RuntimeAnnotationInput {
  /** The file as stored in the workspace. */
  filePath: string;
  /** Script view of the normalised text (the one the rule annotations were anchored in). */
  view: ScriptView;
  lines: LineIndex;
  references: ReferenceIndex;
  /** Rule annotations of the file: link-only rows skip spans one of them already links. */
  ruleAnnotations: readonly Pick<ExplainOutputAnnotation, 'range' | 'reference' | 'pathLink'>[];
}

export function runtimeAnnotations(input: RuntimeAnnotationInput): RuntimeAnnotation[] {
  const out: RuntimeAnnotation[] = [];
  const bindings = input.references.listBindings(input.filePath);
  if (bindings.length > 0) out.push(...listRows(input, bindings));
  else if (extensionOf(input.filePath) === '.lst') out.push(...linkRows(input));
  out.push(...placeholders(input));
  return out;
}

function listRows(input: RuntimeAnnotationInput, bindings: ReturnType<ReferenceIndex['listBindings']>): RuntimeAnnotation[] {
  const { view, references } = input;
  const tokens = view.tokens;
  const out: RuntimeAnnotation[] = [];
  for (const binding of bindings) {
    const { relation, listPath, context } = binding;
    const width = Math.max(1, relation.effectiveRecordTokens);
    for (let offset = 0; offset < tokens.length; offset += width) {
      const idToken = tokens[offset + relation.idToken];
      const pathToken = tokens[offset + relation.pathToken];
      if (!idToken || !pathToken) continue;
      const id = trimSpace(idToken.value);
      const rowPath = trimSpace(pathToken.value);
      if (id === '' || rowPath === '') continue;
      const target = references.resolveRowPath(listPath, pathToken.value);
      const annotation: ExplainOutputAnnotation = {
        ...base(input, pathToken),
        title: relation.name,
        summary: summarize(target ? `ID: ${id} 路径: ${target}` : `ID: ${id}（未找到关联文件） 路径: ${rowPath}`),
        type: 'reference',
        reference: { relation: relation.name, id, context, name: null, path: target, resolutionStatus: target ? 'resolved' : 'missing' },
      };
      out.push({
        annotation,
        ...(target === null
          ? {}
          : {
              complete: () => {
                const name = references.targetName(relation, listPath, target);
                if (annotation.reference) annotation.reference.name = name;
              },
            }),
      });
    }
  }
  return out;
}

function linkRows(input: RuntimeAnnotationInput): RuntimeAnnotation[] {
  const linked = new Set<string>();
  for (const a of input.ruleAnnotations) {
    if (a.reference?.path || a.pathLink?.resolutionStatus === 'resolved') linked.add(`${a.range.start}:${a.range.end}`);
  }
  const tokens = input.view.tokens;
  const out: RuntimeAnnotation[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const pathToken = tokens[i + 1];
    if (!pathToken || linked.has(`${pathToken.start}:${pathToken.end}`)) continue;
    const target = input.references.resolveRowPath(input.filePath, pathToken.value);
    if (target === null) continue;
    out.push({
      annotation: {
        ...base(input, pathToken),
        title: '',
        summary: '',
        type: 'link',
        pathLink: { root: '', value: pathToken.value, path: target, resolutionStatus: 'resolved' },
      },
    });
  }
  return out;
}

function placeholders(input: RuntimeAnnotationInput): RuntimeAnnotation[] {
  const strings = input.references.stringTables;
  const out: RuntimeAnnotation[] = [];
  for (const token of input.view.tokens) {
    const placeholder = parsePlaceholder(token.value);
    if (!placeholder) continue;
    const found = strings.lookup(placeholder.table, placeholder.key);
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
    out.push({
      annotation: {
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
      },
    });
  }
  return out;
}

/** Position and section fields of an item on one token. */
function base(input: RuntimeAnnotationInput, token: ScriptTokenElement): Omit<ExplainOutputAnnotation, 'title' | 'summary' | 'type'> {
  const section = token.sectionId > 0 ? input.view.sections[token.sectionId - 1] : undefined;
  return {
    origin: 'runtime',
    ruleIds: [],
    documentIds: [],
    section: section ? section.name : null,
    occurrence: section ? section.occurrence : null,
    tokenIndex: token.index >= 0 ? token.index : null,
    value: token.value,
    range: { start: token.start, end: token.end },
    start: input.lines.offsetToPosition(token.start),
    end: input.lines.offsetToPosition(token.end),
  };
}
