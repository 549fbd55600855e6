/** What a document page shows besides the document itself, looked up in the model (no scans). */
import type { BundleDocument, BundleRelation } from '../../../runtime/bundle/schema.js';
import { layoutOf, type LayoutDrawing } from './layout.js';
import type { SiteModel } from './model.js';

/** Enum values per page on a document page and its value pages. */
export const VALUES_PAGE_SIZE = 200;

export interface RelationView {
  relation: BundleRelation;
  /** Members of a union, resolved, each with its own definition (when it exists). */
  members: { name: string; relation: BundleRelation | null }[];
}

export interface DocPageData {
  doc: BundleDocument;
  drawing: LayoutDrawing;
  relation: RelationView | null;
  field: BundleDocument | null;
  overrider: BundleDocument | null;
  usedBy: BundleDocument[];
  valuePages: number;
}

/** The effective definition of a relation name (the last one in build order when none is effective). */
export function relationNamed(model: SiteModel, name: string): BundleRelation | null {
  const defs = model.relationsByName.get(name)?.definitions ?? [];
  return defs.find((r) => r.status === 'effective') ?? defs[defs.length - 1] ?? null;
}

/** The anchored headings of a document page, in page order: anchor → text. */
export const DOC_HEADINGS = {
  content: '内容',
  description: '说明',
  summary: '概要',
  versions: '各版本状态',
  layout: '标记布局',
  values: '枚举值',
  relation: '引用的关联',
  'used-by': '使用此字段的规则',
  resolved: '解析后的定义',
  raw: '原始定义',
} as const;

export type DocHeading = keyof typeof DOC_HEADINGS;

/** The table of contents of a document page: the headings it shows. */
export function docToc(doc: BundleDocument, shown: { values: boolean; relation: boolean }): { id: DocHeading; text: string }[] {
  const present: Record<DocHeading, boolean> = {
    content: doc.content.trim() !== '',
    description: doc.description.trim() !== '',
    summary: true,
    versions: true,
    layout: true,
    values: shown.values,
    relation: shown.relation,
    'used-by': doc.kind === 'field',
    resolved: true,
    raw: true,
  };
  return (Object.keys(DOC_HEADINGS) as DocHeading[]).filter((id) => present[id]).map((id) => ({ id, text: DOC_HEADINGS[id] }));
}

export function docPageData(model: SiteModel, doc: BundleDocument): DocPageData {
  const relation = doc.relation !== null ? relationNamed(model, doc.relation) : null;
  return {
    doc,
    drawing: layoutOf(doc, relation),
    relation: relation && {
      relation,
      members: relation.resolvedMembers.map((name) => ({ name, relation: relationNamed(model, name) })),
    },
    field: doc.kind === 'rule' && doc.fieldId !== null ? (model.fieldDocByFieldId.get(doc.fieldId) ?? null) : null,
    overrider: doc.overriddenBy !== null ? (model.bundle.documentsById.get(doc.overriddenBy) ?? null) : null,
    usedBy: doc.kind === 'field' ? (model.rulesByFieldId.get(doc.id) ?? []) : [],
    valuePages: Math.max(1, Math.ceil(doc.valueCount / VALUES_PAGE_SIZE)),
  };
}
