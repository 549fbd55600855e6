/**
 * The changes page in words: each changed part of the diff (the diff's own field-level model,
 * runtime/diff/diff-schema.ts `parts`, computed by build/diff) as a Chinese field name and its old and new
 * value, formatted for people: a status object as its Chinese label and reason, an enumeration value as
 * its label, a list as a list, an object as its members, long text cut with the whole text one click
 * away. Nothing here re-diffs, and no value is ever shown as JSON.
 */
import type { JsonValue } from '../../../runtime/bundle/schema.js';
import type { DiffPartChange } from '../../../runtime/diff/diff-schema.js';
import { ANNOTATION_TYPE_LABEL, label, RELATION_KIND_LABEL, SOURCE_LABEL, STATE_LABEL, TARGET_KIND_LABEL, TRUST_LABEL } from './labels.js';

/** Longest text shown before it is cut (code points); the whole text sits in a <details>. */
export const TEXT_SHOWN = 100;
/** Members of an object or items of a list shown before "… 另有 n 项". */
export const ITEMS_SHOWN = 30;

export type ValueView =
  | { kind: 'none'; text: string }
  | { kind: 'text'; text: string; full: string | null; code: boolean }
  | { kind: 'status'; label: string; reason: string | null }
  | { kind: 'list'; items: ValueView[]; more: number }
  | { kind: 'fields'; entries: { name: string; value: ValueView }[]; more: number };

export interface PartView {
  /** The diff's name of the part ("annotation.title"). */
  part: string;
  /** Its Chinese name ("标题"). */
  label: string;
  old: ValueView;
  new: ValueView;
  note: string | null;
}

/** Which kind of definition the part belongs to: the same name means different things. */
export type PartContext = 'document' | 'relation' | 'rendering' | 'layer';

const COMMON_LABEL: Record<string, string> = {
  layer: '所在层',
  source: '来源类别',
  status: '状态',
  description: '说明',
  raw: '原始定义',
};

const DOCUMENT_LABEL: Record<string, string> = {
  'match.extensions': '匹配后缀',
  'match.glob': '路径模式',
  'target.kind': '目标种类',
  'target.section': '段',
  'target.index': '下标',
  'target.range': '下标范围',
  'target.offset': '偏移（offset）',
  'target.groupOffset': '组首偏移（groupOffset）',
  'target.standaloneValues': '分隔值（standaloneValues）',
  'target.recordTokens': '记录宽度（recordTokens）',
  'target.tokensPerLineIndex': '宽度来源下标',
  'target.contextIndex': '上下文下标',
  'target.imagePathToken': '图片路径下标',
  'target.parent': '直接外层段',
  'target.notInside': '排除的外层段',
  'target.after': '紧跟在这些段之后',
  'target.topLevel': '文件开头',
  'target.sectionPattern': '段名模式',
  'target.when': '适用条件（when）',
  'target.countedGroups': '计数分组（countedGroups）',
  'target.variableRecords': '变宽记录（variableRecords）',
  'annotation.type': '标注类型',
  'annotation.title': '标题',
  'annotation.content': '内容',
  'annotation.relation': '关联',
  'annotation.pathRoot': '路径根',
  'annotation.inlineImage': '内嵌图片',
  'annotation.sentinels': '固定值',
  'annotation.columns': '列标题',
  preview: '预览',
  'preview.providers': '预览提供者',
  'preview.role': '预览角色',
  'preview.group': '预览分组',
  'preview.order': '预览顺序',
  'preview.format': '预览格式',
  'preview.label': '预览标签',
  group: '分组',
  field: '共享字段',
  pvfVersions: '版本限制',
  trust: '可信度',
  sources: '依据',
  values: '枚举值个数',
};

const RELATION_LABEL: Record<string, string> = {
  kind: '关联类型',
  listPath: '配置的列表',
  idToken: 'ID 标记值',
  pathToken: '路径标记值',
  recordTokens: '记录宽度',
  effectiveRecordTokens: '实际记录宽度',
  nameSection: '名称段',
  contextToken: '上下文标记值',
  contextPaths: '上下文路径',
  members: '成员',
  resolvedMembers: '解析后的成员',
  listPaths: '查找的 .lst 路径',
  problems: '问题',
};

const RENDERING_LABEL: Record<string, string> = {
  'match.extensions': '匹配后缀',
  'match.glob': '路径模式',
  'target.kind': '目标种类',
  'target.section': '段',
  'format.tokensPerLine': '每行标记值数',
  'format.offset': '偏移',
  'format.tokensPerLineIndex': '宽度来源下标',
  'format.standaloneValues': '单独成行的值',
  'format.nestedSections': '嵌套段',
};

const LAYER_LABEL: Record<string, string> = {
  kind: '层类别',
  pvfVersions: '声明的版本',
  disable: '禁用列表',
};

const LABELS: Record<PartContext, Record<string, string>> = {
  document: DOCUMENT_LABEL,
  relation: RELATION_LABEL,
  rendering: RENDERING_LABEL,
  layer: LAYER_LABEL,
};

/** Members of objects shown without their part (preview, raw, range), in Chinese where known. */
const MEMBER_LABEL: Record<string, string> = {
  start: '起',
  endExclusive: '止（不含）',
  providers: '提供者',
  role: '角色',
  group: '分组',
  order: '顺序',
  format: '格式',
  label: '标签',
};

/** Rendering rules target a whole file or a section. */
const RENDERING_TARGET_LABEL: Record<string, string> = { file: '整个文件', section: '段' };

/** Parts whose strings are names, paths or ids (shown as code), not prose. */
const CODE_PARTS = new Set([
  'layer', 'match.glob', 'target.section', 'target.parent', 'target.sectionPattern', 'annotation.relation', 'annotation.pathRoot', 'group', 'field',
  'listPath', 'nameSection', 'preview.role', 'preview.group', 'preview.format', 'format.nestedSections',
]);

export function partLabel(part: string, context: PartContext): string {
  return LABELS[context][part] ?? COMMON_LABEL[part] ?? part;
}

function clip(text: string, max: number): { text: string; cut: boolean } {
  const points = [...text];
  return points.length <= max ? { text, cut: false } : { text: `${points.slice(0, max - 1).join('')}…`, cut: true };
}

function textView(text: string, code: boolean): ValueView {
  if (text === '') return { kind: 'none', text: '（空）' };
  const shown = clip(text, TEXT_SHOWN);
  return { kind: 'text', text: shown.text, full: shown.cut ? text : null, code };
}

function isRecord(value: JsonValue): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isStatus(value: JsonValue): value is { status: string; reason: string | null } {
  return isRecord(value) && typeof value.status === 'string' && 'reason' in value && Object.keys(value).length === 2;
}

function isPairList(value: JsonValue): value is [JsonValue, JsonValue][] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => Array.isArray(v) && v.length === 2 && v.every((x) => typeof x !== 'object' || x === null));
}

function scalarText(value: JsonValue): string {
  if (value === null) return '无';
  if (typeof value === 'boolean') return value ? '是' : '否';
  return String(value);
}

function isRange(value: JsonValue): value is { start: number; endExclusive: number } {
  return isRecord(value) && typeof value.start === 'number' && typeof value.endExclusive === 'number' && Object.keys(value).length === 2;
}

/** Members of an object by dotted name ("target.index"), nested objects flattened; lists stay whole. */
function flatten(value: JsonValue, prefix = '', out = new Map<string, JsonValue>()): Map<string, JsonValue> {
  if (isRecord(value) && !isStatus(value) && !isRange(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix === '' ? k : `${prefix}.${k}`, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** Members as a view; unset (null) ones are left out unless `keepUnset` (when they differ from the other side). */
function fieldsView(members: Map<string, JsonValue>, keepUnset = false): ValueView {
  const entries: { name: string; value: ValueView }[] = [];
  for (const [name, v] of members) {
    if (v === null && !keepUnset) continue;
    entries.push({ name: MEMBER_LABEL[name] ?? name, value: valueView(v, name) });
  }
  if (entries.length === 0) return { kind: 'none', text: '（空）' };
  return { kind: 'fields', entries: entries.slice(0, ITEMS_SHOWN), more: Math.max(0, entries.length - ITEMS_SHOWN) };
}

/** Leaves of flattened members are scalars and lists, whose order matters: their JSON text compares them. */
function sameLeaf(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function listView(items: ValueView[]): ValueView {
  if (items.length === 0) return { kind: 'none', text: '（无）' };
  return { kind: 'list', items: items.slice(0, ITEMS_SHOWN), more: Math.max(0, items.length - ITEMS_SHOWN) };
}

/** A value of a part: `part` picks label maps and the code style; "generic" for members of objects. */
export function valueView(value: JsonValue, part: string, context: PartContext = 'document'): ValueView {
  if (isStatus(value)) return { kind: 'status', label: label(STATE_LABEL, value.status), reason: value.reason };
  if (value === null) return { kind: 'none', text: part === 'trust' ? '未注明' : '未设置' };
  if (typeof value === 'string') {
    const map =
      part === 'source' ? SOURCE_LABEL
      : part === 'annotation.type' ? ANNOTATION_TYPE_LABEL
      : part === 'trust' ? TRUST_LABEL
      : part === 'target.kind' ? (context === 'rendering' ? RENDERING_TARGET_LABEL : TARGET_KIND_LABEL)
      : part === 'kind' ? (context === 'relation' ? RELATION_KIND_LABEL : SOURCE_LABEL)
      : null;
    if (map) return { kind: 'text', text: map[value] !== undefined ? `${map[value]}（${value}）` : value, full: null, code: false };
    return textView(value, CODE_PARTS.has(part));
  }
  if (typeof value !== 'object') return { kind: 'text', text: scalarText(value), full: null, code: false };
  if (Array.isArray(value)) {
    if (isPairList(value)) {
      const joiner = part === 'contextPaths' ? ' → ' : ' = ';
      return listView(value.map(([a, b]) => textView(`${scalarText(a)}${joiner}${scalarText(b)}`, false)));
    }
    return listView(value.map((v) => (isRecord(v) ? fieldsView(flatten(v)) : Array.isArray(v) ? valueView(v, 'generic') : v === null ? { kind: 'none', text: '无' } : textView(scalarText(v), typeof v === 'string' && CODE_PARTS.has(part)))));
  }
  if (isRange(value)) return { kind: 'text', text: `[${value.start}, ${value.endExclusive})`, full: null, code: true };
  return fieldsView(flatten(value));
}

/**
 * A changed part. When both values are objects (a whole definition as written, `raw`), only the members
 * that differ are shown, side by side.
 */
export function partView(p: DiffPartChange, context: PartContext = 'document'): PartView {
  const base = { part: p.part, label: partLabel(p.part, context) };
  const isObject = (v: JsonValue) => isRecord(v) && !isStatus(v) && !isRange(v);
  if (isObject(p.old) && isObject(p.new)) {
    const a = flatten(p.old);
    const b = flatten(p.new);
    const names = [...new Set([...a.keys(), ...b.keys()])];
    const differing = names.filter((n) => !sameLeaf(a.get(n), b.get(n)));
    const pick = (m: Map<string, JsonValue>) => new Map(differing.map((n) => [n, m.get(n) ?? null]));
    const same = names.length - differing.length;
    const note = [p.part === 'raw' ? '解析结果相同，只是写法不同。' : '', same > 0 ? `只列出不同的成员（其余 ${same} 项相同）。` : ''].join('');
    return { ...base, old: fieldsView(pick(a), true), new: fieldsView(pick(b), true), note: note === '' ? null : note };
  }
  const view = (v: JsonValue): ValueView => (p.part === 'values' && typeof v === 'number' ? { kind: 'text', text: `${v} 个`, full: null, code: false } : valueView(v, p.part, context));
  return {
    ...base,
    old: view(p.old),
    new: view(p.new),
    note: p.part === 'values' ? '值的变化见本类型的“枚举值变化”。' : p.part === 'raw' ? '解析结果相同，只是写法不同。' : null,
  };
}

/** Every text a value view shows (the whole text of cut ones too), for checks that nothing is lost. */
export function viewTexts(view: ValueView): string[] {
  switch (view.kind) {
    case 'none':
      return [view.text];
    case 'text':
      return [view.text, ...(view.full !== null ? [view.full] : [])];
    case 'status':
      return [view.label, ...(view.reason !== null ? [view.reason] : [])];
    case 'list':
      return view.items.flatMap(viewTexts);
    case 'fields':
      return view.entries.flatMap((e) => [e.name, ...viewTexts(e.value)]);
  }
}
