/**
 * Everything the pages group by, computed in one pass over the bundle's documents, so the build stays
 * linear in the number of documents however many pages it writes: each page then reads its own group.
 */
import { UNKNOWN_VERSION } from '../../../runtime/bundle/constants.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import type { BundleDocument, BundleRelation } from '../../../runtime/bundle/schema.js';
import { sectionKey, slugOf } from './slug.js';
import { buildTypeEntry, type TypeEntry } from './type-index.js';

export interface SectionGroup {
  /** Trimmed, lower-cased section name (what search's section filter compares). */
  key: string;
  /** The name as first written in the bundle. */
  name: string;
  slug: string;
  docs: BundleDocument[];
}

export interface MatrixRow {
  /** ".equ", or null for the row of definitions that apply to every file type. */
  extension: string | null;
  /** One count per `SiteModel.versionColumns` entry. */
  counts: number[];
}

export interface RelationGroup {
  name: string;
  slug: string;
  /** Every definition of the name, in bundle order (an overridden one and its overrider). */
  definitions: BundleRelation[];
  /** Documents whose annotation uses the relation. */
  docs: BundleDocument[];
}

export interface SiteModel {
  bundle: Bundle;
  /** Lower-cased extensions any document names, sorted. */
  extensions: string[];
  /** Documents that name the extension in match.extensions. */
  docsByExtension: Map<string, BundleDocument[]>;
  /** Documents without an extension restriction (they apply to every file type their glob allows). */
  anyTypeDocs: BundleDocument[];
  sections: SectionGroup[];
  sectionsByKey: Map<string, SectionGroup>;
  /** Field documents (kind "field"), in bundle order. */
  fields: BundleDocument[];
  /** Rules (explicit and implicit) that take their blocks from a field, by field id. */
  rulesByFieldId: Map<string, BundleDocument[]>;
  /** The field document of a field id: the effective definition when there is one. */
  fieldDocByFieldId: Map<string, BundleDocument>;
  relations: RelationGroup[];
  relationsByName: Map<string, RelationGroup>;
  /** Version contexts of the matrix: the supported versions, then "" (unknown version). */
  versionColumns: string[];
  /** Per extension (and one row for "any type"): documents effective in each version context that apply to it. */
  matrix: MatrixRow[];
  /** The file types for the navigation, in `extensions` order, then the entry of the definitions without one. */
  types: TypeEntry[];
  typesByExtension: Map<string | null, TypeEntry>;
}

export function buildSiteModel(bundle: Bundle): SiteModel {
  const versionColumns = [...bundle.manifest.pvfVersions, UNKNOWN_VERSION];
  const docsByExtension = new Map<string, BundleDocument[]>();
  const anyTypeDocs: BundleDocument[] = [];
  const sectionsByKey = new Map<string, SectionGroup>();
  const fields: BundleDocument[] = [];
  const rulesByFieldId = new Map<string, BundleDocument[]>();
  const fieldDocByFieldId = new Map<string, BundleDocument>();
  const relationsByName = new Map<string, RelationGroup>();
  const specific = new Map<string, number[]>();
  const generic = versionColumns.map(() => 0);

  const relationGroup = (name: string): RelationGroup => {
    let group = relationsByName.get(name);
    if (!group) {
      group = { name, slug: slugOf(name), definitions: [], docs: [] };
      relationsByName.set(name, group);
    }
    return group;
  };
  for (const relation of bundle.relations) relationGroup(relation.name).definitions.push(relation);

  // Search gives a shared field and its implicit `field:<id>` rule as one hit (issue 14): such a rule is
  // not counted again where a field of that id with the same extensions is effective.
  const extensionKey = (d: BundleDocument) => [...new Set(d.match.extensions.map((e) => e.trim().toLowerCase()))].sort().join('\n');
  const fieldsById = new Map<string, BundleDocument[]>();
  for (const d of bundle.documents) if (d.kind === 'field') fieldsById.set(d.id, [...(fieldsById.get(d.id) ?? []), d]);
  const mergedInto = (doc: BundleDocument, version: string): boolean =>
    doc.kind === 'rule' &&
    doc.origin === 'generated' &&
    doc.fieldId !== null &&
    doc.id === `field:${doc.fieldId}` &&
    (fieldsById.get(doc.fieldId) ?? []).some((f) => f.versions[version]?.effective === true && extensionKey(f) === extensionKey(doc));

  for (const doc of bundle.documents) {
    const extensions = [...new Set(doc.match.extensions.map((e) => e.trim().toLowerCase()))];
    if (extensions.length === 0) anyTypeDocs.push(doc);
    for (const ext of extensions) push(docsByExtension, ext, doc);

    versionColumns.forEach((version, column) => {
      if (!doc.versions[version]?.effective || mergedInto(doc, version)) return;
      if (extensions.length === 0) {
        generic[column] = (generic[column] as number) + 1;
        return;
      }
      for (const ext of extensions) {
        let counts = specific.get(ext);
        if (!counts) specific.set(ext, (counts = versionColumns.map(() => 0)));
        counts[column] = (counts[column] as number) + 1;
      }
    });

    if (doc.section !== null && doc.section.trim() !== '') {
      const key = sectionKey(doc.section);
      let group = sectionsByKey.get(key);
      if (!group) {
        group = { key, name: doc.section.trim(), slug: slugOf(key), docs: [] };
        sectionsByKey.set(key, group);
      }
      group.docs.push(doc);
    }

    if (doc.kind === 'field') {
      fields.push(doc);
      const known = fieldDocByFieldId.get(doc.id);
      if (!known || known.status !== 'effective') fieldDocByFieldId.set(doc.id, doc);
    } else if (doc.fieldId !== null) {
      push(rulesByFieldId, doc.fieldId, doc);
    }
    if (doc.relation !== null) relationGroup(doc.relation).docs.push(doc);
  }

  const extensions = [...docsByExtension.keys()].sort();
  const matrix: MatrixRow[] = extensions.map((extension) => {
    const counts = specific.get(extension);
    return { extension, counts: generic.map((g, i) => g + (counts?.[i] ?? 0)) };
  });
  matrix.push({ extension: null, counts: generic });
  const sections = [...sectionsByKey.values()].sort((a, b) => compare(a.key, b.key));
  const relations = [...relationsByName.values()].sort((a, b) => compare(a.name, b.name));
  const types = [...extensions.map((e) => buildTypeEntry(e, docsByExtension.get(e) ?? [])), buildTypeEntry(null, anyTypeDocs)];
  return {
    bundle,
    extensions,
    docsByExtension,
    anyTypeDocs,
    sections,
    sectionsByKey,
    fields,
    rulesByFieldId,
    fieldDocByFieldId,
    relations,
    relationsByName,
    versionColumns,
    matrix,
    types,
    typesByExtension: new Map(types.map((t) => [t.extension, t])),
  };
}

export interface DocGroup {
  /** Section key, or null for documents without a section (path rules). */
  key: string | null;
  name: string | null;
  docs: BundleDocument[];
}

/** Documents grouped by section (sorted by name), documents without a section last; order kept inside. */
export function groupBySection(docs: readonly BundleDocument[]): DocGroup[] {
  const groups = new Map<string | null, DocGroup>();
  for (const doc of docs) {
    const key = doc.section !== null && doc.section.trim() !== '' ? sectionKey(doc.section) : null;
    let group = groups.get(key);
    if (!group) {
      group = { key, name: key === null ? null : (doc.section as string).trim(), docs: [] };
      groups.set(key, group);
    }
    group.docs.push(doc);
  }
  return [...groups.values()].sort((a, b) => (a.key === null ? 1 : b.key === null ? -1 : compare(a.key, b.key)));
}

/** Documents grouped by the extensions they name ("" = any file type), for a section's page. */
export function groupByExtension(docs: readonly BundleDocument[]): { extension: string; docs: BundleDocument[] }[] {
  const groups = new Map<string, BundleDocument[]>();
  for (const doc of docs) {
    const key = [...new Set(doc.match.extensions.map((e) => e.trim().toLowerCase()))].sort().join(', ');
    push(groups, key, doc);
  }
  return [...groups].sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : compare(a, b))).map(([extension, list]) => ({ extension, docs: list }));
}

/** Display title of a document: its title, or its id when the title is empty. */
export function displayTitle(doc: BundleDocument): string {
  return doc.title.trim() !== '' ? doc.title : doc.id;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Code-unit order: the same on every machine (no locale). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
