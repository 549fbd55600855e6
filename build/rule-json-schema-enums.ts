/**
 * The closed value sets of the rule files, with what each value means, for the editor JSON Schemas
 * (build/rule-json-schemas.ts). The Chinese words follow the site's labels (site/src/lib/labels.ts);
 * they are written again here because build/ may not import site/. Each table is checked against the
 * runtime enum it describes, so a new value cannot go without a description.
 */
import type { AnnotationType, RelationKind, RenderingRule, SourceCategory, TargetKind, Trust } from '../runtime/bundle/schema.js';

export interface EnumMeaning {
  zh: string;
  en: string;
}

/** One value of a closed set, and what it means. */
export interface EnumChoice extends EnumMeaning {
  value: string;
}

function choices<K extends string>(table: Record<K, EnumMeaning>): EnumChoice[] {
  return (Object.entries(table) as [K, EnumMeaning][]).map(([value, meaning]) => ({ value, ...meaning }));
}

export const TARGET_KINDS = choices({
  path: { zh: '路径：标注文件树中的文件或目录（只支持 text 类型）', en: 'path: a note on a file or folder of the archive tree (type "text" only)' },
  section: { zh: '段：标注 [section] 标签本身（只支持 text 类型）', en: 'section: the [section] tag itself (type "text" only)' },
  token: { zh: '标记值：段内的值 token（用 index、range 或重复记录选出）', en: 'token: value tokens of a section (picked by index, range or repeated records)' },
} satisfies Record<TargetKind, EnumMeaning>);

export const ANNOTATION_TYPES = choices({
  text: { zh: '文本：只显示标题与说明', en: 'text: shows the title and content only' },
  enum: { zh: '枚举：用 values 把值翻译成标签', en: 'enum: translates the value to a label through values' },
  reference: { zh: '引用：通过 relation 在 .lst 列表中查找该 ID 指向的文件与名称', en: 'reference: looks the ID up through relation in a .lst registry (target file and name)' },
  path: { zh: '路径：值是归档内的文件路径（可跳转）', en: 'path: the value is an archive file path (a link)' },
  image: { zh: '图片：记录中的 IMG 路径 token 与图片索引 token', en: 'image: an IMG path token and an image-index token of a record' },
} satisfies Record<AnnotationType, EnumMeaning>);

/** pvfine's editor saves `"kind": ""` / `"type": ""` on rules whose blocks come from their field. */
export const FROM_FIELD: EnumMeaning = {
  zh: '空：只用于引用 field 的规则，表示整块沿用该字段的定义',
  en: 'empty: only in a rule that uses a field, meaning "take this whole block from the field"',
};

export const RELATION_KINDS = choices({
  list: { zh: '列表：在 listPath 指定的 .lst 中按 ID 查找（省略 kind 或写 "" 也是 list）', en: 'list: look the ID up in the .lst at listPath (also when kind is absent or "")' },
  contextual: { zh: '上下文：按记录里的上下文 token（如职业标签）从 contextPaths 选择 .lst', en: 'contextual: pick the .lst from contextPaths by the record\'s context token (e.g. a job tag)' },
  union: { zh: '联合：按顺序依次尝试 relations 列出的关联', en: 'union: try the member relations in order' },
} satisfies Record<RelationKind, EnumMeaning>);

export const RELATION_KIND_EMPTY: EnumMeaning = { zh: '空：等同于 list', en: 'empty: the same as "list"' };

export const TRUST_LEVELS = choices({
  confirmed: { zh: '已确认：多个独立来源一致', en: 'confirmed: independent sources agree' },
  likely: { zh: '较可信：只有一个来源', en: 'likely: one source' },
  unverified: { zh: '未验证：尚未核对', en: 'unverified: not checked' },
} satisfies Record<Trust, EnumMeaning>);

/** A layer's kind; anything else loads with a warning and is reported as source "unknown". */
export const LAYER_KINDS = choices({
  builtin: { zh: '内置层（pvfdoc 自带的规则）', en: 'builtin: the rules shipped with pvfdoc' },
  user: { zh: '用户层（你自己的规则）', en: 'user: your own rules' },
} satisfies Record<Exclude<SourceCategory, 'unknown'>, EnumMeaning>);

/** Rendering rules have their own target kinds. */
export const RENDERING_TARGET_KINDS = choices({
  file: { zh: '文件：整个文件的换行', en: 'file: line breaks of the whole file' },
  section: { zh: '段：某个段内的换行', en: 'section: line breaks inside one section' },
} satisfies Record<RenderingRule['target']['kind'], EnumMeaning>);
