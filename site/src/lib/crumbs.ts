/**
 * Breadcrumbs: where a page sits (首页 › 文件类型 › .equ › [price] › 价格). Every level is a link, the
 * last one to the page itself; a level may hold several links (a definition for .equ and .stk).
 */
import type { BundleDocument } from '../../../runtime/bundle/schema.js';
import { displayTitle, type SiteModel } from './model.js';
import { paths } from './slug.js';
import { typeSectionHref, type TypeEntry } from './type-index.js';

export interface CrumbLink {
  text: string;
  /** Relative to the site's base; may end in "#anchor". */
  path: string;
}

export type Crumb = CrumbLink | readonly CrumbLink[];

export const HOME_CRUMB: CrumbLink = { text: '首页', path: paths.overview() };
export const TYPES_CRUMB: CrumbLink = { text: '文件类型', path: paths.types() };
export const SECTIONS_CRUMB: CrumbLink = { text: '段', path: paths.sections() };

export function typeCrumb(entry: TypeEntry): CrumbLink {
  return { text: entry.extension ?? entry.name, path: entry.path };
}

/** The type entries a document is filed under: those of its extensions, or the "any type" entry. */
export function typeEntriesOf(model: SiteModel, doc: BundleDocument): TypeEntry[] {
  const extensions = [...new Set(doc.match.extensions.map((e) => e.trim().toLowerCase()))];
  const keys: (string | null)[] = extensions.length > 0 ? extensions : [null];
  return keys.flatMap((k) => {
    const entry = model.typesByExtension.get(k);
    return entry ? [entry] : [];
  });
}

/** 首页 › 文件类型 › its types › [its section] (on the first type's page) › the document. */
export function docCrumbs(model: SiteModel, doc: BundleDocument): Crumb[] {
  const entries = typeEntriesOf(model, doc);
  const crumbs: Crumb[] = [HOME_CRUMB, TYPES_CRUMB, entries.map(typeCrumb)];
  const first = entries[0];
  if (first && doc.section !== null && doc.section.trim() !== '') {
    crumbs.push({ text: `[${doc.section.trim()}]`, path: typeSectionHref(first, doc.section) });
  }
  crumbs.push({ text: displayTitle(doc), path: paths.doc(doc.documentId) });
  return crumbs;
}

export function crumbLinks(crumb: Crumb): readonly CrumbLink[] {
  return 'text' in crumb ? [crumb] : crumb;
}
