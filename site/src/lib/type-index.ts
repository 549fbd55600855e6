/**
 * The file types of a bundle as the navigation shows them: per type its Chinese name, and its sections
 * with their Chinese titles, in groups (section-groups.ts). Built once per site from the model's
 * documents-by-extension lists; the type index, the type pages and the sidebar read it.
 */
import type { BundleDocument } from '../../../runtime/bundle/schema.js';
import { fileTypeName } from './file-types.js';
import { SECTION_GROUPS, sectionGroupOf, type SectionGroupDef } from './section-groups.js';
import { paths, sectionKey, slugOf } from './slug.js';

/** Chinese titles shown beside a section's tag. */
const TITLES_SHOWN = 2;

export interface TypeSection {
  /** Trimmed, lower-cased name (as the section pages compare). */
  key: string;
  name: string;
  /** Anchor of the section on its type page. */
  anchor: string;
  /** Distinct titles of its definitions, effective ones and section rules first; at most TITLES_SHOWN. */
  titles: string[];
  /** How many distinct titles there are in all. */
  titleCount: number;
  docs: BundleDocument[];
  group: SectionGroupDef;
}

export interface TypeGroup {
  def: SectionGroupDef;
  /** Anchor of the group on its type page. */
  anchor: string;
  sections: TypeSection[];
  /** Definitions in its sections. */
  docCount: number;
}

export interface TypeEntry {
  /** ".equ", or null for the definitions without an extension restriction. */
  extension: string | null;
  /** URL path of its page, relative to the base. */
  path: string;
  /** Chinese name ("" when unknown); "不限类型" for the null entry. */
  name: string;
  docs: BundleDocument[];
  /** Sections by name. */
  sections: TypeSection[];
  /** Non-empty groups in display order. */
  groups: TypeGroup[];
  /** Definitions without a section (path rules). */
  unsectioned: BundleDocument[];
}

export const NO_SECTION_ANCHOR = 'no-section';

export function sectionAnchor(key: string): string {
  return `s-${slugOf(sectionKey(key))}`;
}

export function groupAnchor(group: SectionGroupDef): string {
  return `g-${group.key}`;
}

/** The page and anchor of a section on a type's page. */
export function typeSectionHref(entry: Pick<TypeEntry, 'path'>, key: string): string {
  return `${entry.path}#${sectionAnchor(key)}`;
}

function titleOrder(a: BundleDocument, b: BundleDocument): number {
  const rank = (d: BundleDocument) => (d.status === 'effective' ? 0 : 2) + (d.targetKind === 'section' ? 0 : 1);
  return rank(a) - rank(b);
}

function sectionOf(key: string, name: string, docs: BundleDocument[]): TypeSection {
  // A stable sort keeps bundle order among equals.
  const titles = [...new Set([...docs].sort(titleOrder).map((d) => d.title.trim()).filter((t) => t !== ''))];
  const previewGroups = docs.flatMap((d) => (d.resolved.preview !== null && d.resolved.preview.group !== '' ? [d.resolved.preview.group] : []));
  return { key, name, anchor: sectionAnchor(key), titles: titles.slice(0, TITLES_SHOWN), titleCount: titles.length, docs, group: sectionGroupOf(name, previewGroups) };
}

export function buildTypeEntry(extension: string | null, docs: BundleDocument[]): TypeEntry {
  const byKey = new Map<string, { name: string; docs: BundleDocument[] }>();
  const unsectioned: BundleDocument[] = [];
  for (const doc of docs) {
    if (doc.section === null || doc.section.trim() === '') {
      unsectioned.push(doc);
      continue;
    }
    const key = sectionKey(doc.section);
    const found = byKey.get(key);
    if (found) found.docs.push(doc);
    else byKey.set(key, { name: doc.section.trim(), docs: [doc] });
  }
  const sections = [...byKey]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, s]) => sectionOf(key, s.name, s.docs));
  const groups: TypeGroup[] = [];
  for (const def of SECTION_GROUPS) {
    const members = sections.filter((s) => s.group === def);
    if (members.length > 0) groups.push({ def, anchor: groupAnchor(def), sections: members, docCount: members.reduce((n, s) => n + s.docs.length, 0) });
  }
  return {
    extension,
    path: extension === null ? paths.anyType() : paths.type(extension),
    name: extension === null ? '不限类型' : fileTypeName(extension, docs),
    docs,
    sections,
    groups,
    unsectioned,
  };
}
