/**
 * What changed between two snapshot bundles (ARCHITECTURE §1, item 3): documents, enum values,
 * per-version effective states, relations, rendering rules and layers, grouped by file type. The
 * result is plain data (`SnapshotDiff`, see runtime/diff/diff-schema.ts); the renderers turn it into
 * text or Markdown. Output order is deterministic: it depends only on the two bundles.
 *
 * Definitions are matched by identity, not by documentId: a document's identity is (kind, origin, id)
 * and the layer is left out, so a definition that moved to another layer (and so got a new documentId)
 * is reported as moved, not as removed plus added. Within one identity, documents with the same
 * documentId pair first; the rest pair in layer order, then what is left over is added or removed.
 */
import type { Bundle } from '../../runtime/bundle/load-bundle.js';
import type { BundleDocument, BundleRelation, JsonValue, RenderingRule } from '../../runtime/bundle/schema.js';
import {
  commonVersions,
  compareDocuments,
  jsonEqual,
  jsonKey,
  versionContexts,
  type EnumValues,
} from '../../runtime/diff/compare-documents.js';
import {
  DIFF_FORMAT_VERSION,
  type BundleChanges,
  type DiffPartChange,
  type DiffSide,
  type DocumentRef,
  type EffectiveChange,
  type EnumChange,
  type FileTypeDiff,
  type LayerChange,
  type RelationChange,
  type RelationRef,
  type RenderingChange,
  type RenderingRef,
  type SnapshotDiff,
} from '../../runtime/diff/diff-schema.js';

/** File-type group of definitions that match any file (no extensions, no glob). */
export const ALL_FILES = '(all files)';
/** File-type group of definitions matched by a glob only, or annotating the path itself. */
export const PATH_RULES = '(path rules)';

export interface DiffOptions {
  /** Enum values listed per change (added, removed and relabelled each); counts are always exact. Default 10. */
  enumSampleSize?: number;
}

export const DEFAULT_ENUM_SAMPLE_SIZE = 10;

export function diffBundles(oldBundle: Bundle, newBundle: Bundle, options: DiffOptions = {}): SnapshotDiff {
  const sample = Math.max(0, options.enumSampleSize ?? DEFAULT_ENUM_SAMPLE_SIZE);
  const versions = commonVersions(versionContexts(oldBundle), versionContexts(newBundle));

  const groups = new Map<string, FileTypeDiff>();
  const group = (fileType: string): FileTypeDiff => {
    let g = groups.get(fileType);
    if (!g) {
      g = { fileType, documents: [], enumValues: [], effective: [] };
      groups.set(fileType, g);
    }
    return g;
  };

  // Documents.
  const docs = matchByIdentity(oldBundle.documents, newBundle.documents, documentIdentity, (d) => d.documentId, (d) => d.layerIndex);
  for (const d of docs.added) group(fileTypeOf(d)).documents.push({ change: 'added', old: null, new: documentRef(d), parts: [] });
  for (const d of docs.removed) group(fileTypeOf(d)).documents.push({ change: 'removed', old: documentRef(d), new: null, parts: [] });
  const enumGroups = new Map<string, { change: Omit<EnumChange, 'documents'>; documents: BundleDocument[] }>();
  for (const { old: a, new: b, moved } of docs.pairs) {
    const comparison = compareDocuments(a, b, () => oldBundle.valuesOf(a.documentId), () => newBundle.valuesOf(b.documentId), versions);
    const g = group(fileTypeOf(b));
    if (moved || comparison.parts.length > 0) {
      g.documents.push({ change: moved ? 'moved' : 'changed', old: documentRef(a), new: documentRef(b), parts: comparison.parts });
    }
    if (comparison.valuesChanged) {
      // Documents with the same values before and after (a field, its implicit rule, rules using the
      // field's annotation) are reported once.
      const before = oldBundle.valuesOf(a.documentId);
      const after = newBundle.valuesOf(b.documentId);
      const key = jsonKey([before, after]);
      const entry = enumGroups.get(key);
      if (entry) entry.documents.push(b);
      else enumGroups.set(key, { change: sampled(enumChange(before, after), sample), documents: [b] });
    }
    const stateChanges = comparison.versionChanges.filter((c) => c.old.state !== c.new.state || c.old.effective !== c.new.effective);
    if (stateChanges.length > 0) {
      const transitions = new Map<string, EffectiveChange['transitions'][number]>();
      for (const c of stateChanges) {
        const old = { state: c.old.state, effective: c.old.effective, reason: c.old.reason };
        const neu = { state: c.new.state, effective: c.new.effective, reason: c.new.reason };
        const key = jsonKey([old, neu]);
        const t = transitions.get(key);
        if (t) t.versions.push(c.version);
        else transitions.set(key, { versions: [c.version], old, new: neu });
      }
      g.effective.push({ document: documentRef(b), oldDocumentId: a.documentId, transitions: [...transitions.values()] });
    }
  }
  for (const { change, documents } of enumGroups.values()) {
    documents.sort(compareDocs);
    const first = documents[0] as BundleDocument;
    group(fileTypeOf(first)).enumValues.push({ documents: documents.map(documentRef), ...change });
  }

  const fileTypes = [...groups.values()]
    .filter((g) => g.documents.length > 0 || g.enumValues.length > 0 || g.effective.length > 0)
    .sort((x, y) => compareFileTypes(x.fileType, y.fileType));
  for (const g of fileTypes) {
    g.documents.sort((x, y) => CHANGE_RANK[x.change] - CHANGE_RANK[y.change] || compareRefs((x.new ?? x.old) as DocumentRef, (y.new ?? y.old) as DocumentRef));
    g.enumValues.sort((x, y) => compareRefs(x.documents[0] as DocumentRef, y.documents[0] as DocumentRef));
    g.effective.sort((x, y) => compareRefs(x.document, y.document));
  }

  const relations = diffRelations(oldBundle.relations, newBundle.relations);
  const rendering = diffRendering(oldBundle.rendering, newBundle.rendering);
  const bundle = diffBundleLevel(oldBundle, newBundle, versions);

  const count = <T extends { change: string }>(list: readonly T[]) => ({
    added: list.filter((c) => c.change === 'added').length,
    removed: list.filter((c) => c.change === 'removed').length,
    moved: list.filter((c) => c.change === 'moved').length,
    changed: list.filter((c) => c.change === 'changed').length,
  });
  const allDocs = fileTypes.flatMap((g) => g.documents);
  const allEnums = fileTypes.flatMap((g) => g.enumValues);
  const summary: SnapshotDiff['summary'] = {
    documents: count(allDocs),
    enumValues: {
      enums: allEnums.length,
      added: sum(allEnums.map((e) => e.added.count)),
      removed: sum(allEnums.map((e) => e.removed.count)),
      relabelled: sum(allEnums.map((e) => e.relabelled.count)),
      reordered: allEnums.filter((e) => e.reordered).length,
    },
    effective: { documents: sum(fileTypes.map((g) => g.effective.length)) },
    relations: count(relations),
    rendering: count(rendering),
    layers: {
      added: bundle.layers.filter((l) => l.change === 'added').length,
      removed: bundle.layers.filter((l) => l.change === 'removed').length,
      changed: bundle.layers.filter((l) => l.change === 'changed').length,
    },
  };
  let hasChanges =
    fileTypes.length > 0 ||
    relations.length > 0 ||
    rendering.length > 0 ||
    bundle.layers.length > 0 ||
    bundle.layerOrder !== null ||
    bundle.ruleOrder.length > 0 ||
    bundle.renderingOrder ||
    bundle.pvfVersions.added.length > 0 ||
    bundle.pvfVersions.removed.length > 0;
  if (!hasChanges && oldBundle.rulesRevision !== newBundle.rulesRevision) {
    // Nothing a definition-level comparison sees, yet the content differs (e.g. positions of
    // definitions in their files): say so rather than print nothing.
    bundle.notes.push('the rules revisions differ, but no definition, value, state, relation, rendering rule or layer setting did; only positions in the rule files or other details of the bundle files changed');
    hasChanges = true;
  }

  return {
    formatVersion: DIFF_FORMAT_VERSION,
    old: side(oldBundle),
    new: side(newBundle),
    hasChanges,
    summary,
    bundle,
    fileTypes,
    relations,
    rendering,
  };
}

/** A document's identity across snapshots: what a later layer overrides, whatever the layer. */
export function documentIdentity(doc: BundleDocument): string {
  return `${doc.kind}\u0000${doc.origin}\u0000${doc.id}`;
}

/** The file-type group of a document (its extensions, else "(path rules)" or "(all files)"). */
export function fileTypeOf(doc: BundleDocument): string {
  const match = doc.resolved.match;
  const extensions = [...new Set(match.extensions.map((e) => e.toLowerCase()))].sort(compareText);
  if (extensions.length > 0) return extensions.join(', ');
  if (match.glob !== '' || doc.resolved.target.kind === 'path') return PATH_RULES;
  return ALL_FILES;
}

interface Matched<T> {
  pairs: { old: T; new: T; moved: boolean }[];
  added: T[];
  removed: T[];
}

/** Pairs items of the same identity: same exact key first, then the rest in `order`. */
function matchByIdentity<T>(
  olds: readonly T[],
  news: readonly T[],
  identity: (t: T) => string,
  exact: (t: T) => string,
  order: (t: T) => number,
): Matched<T> {
  const byIdentity = (items: readonly T[]) => {
    const map = new Map<string, T[]>();
    for (const item of items) {
      const key = identity(item);
      const list = map.get(key);
      if (list) list.push(item);
      else map.set(key, [item]);
    }
    return map;
  };
  const oldMap = byIdentity(olds);
  const newMap = byIdentity(news);
  const result: Matched<T> = { pairs: [], added: [], removed: [] };
  for (const [key, newList] of newMap) {
    const oldList = oldMap.get(key) ?? [];
    const oldByExact = new Map(oldList.map((o) => [exact(o), o]));
    const restNew: T[] = [];
    const usedOld = new Set<T>();
    for (const n of newList) {
      const o = oldByExact.get(exact(n));
      if (o !== undefined && !usedOld.has(o)) {
        usedOld.add(o);
        result.pairs.push({ old: o, new: n, moved: false });
      } else {
        restNew.push(n);
      }
    }
    const restOld = oldList.filter((o) => !usedOld.has(o));
    restNew.sort((x, y) => order(x) - order(y));
    restOld.sort((x, y) => order(x) - order(y));
    const paired = Math.min(restNew.length, restOld.length);
    for (let i = 0; i < paired; i++) result.pairs.push({ old: restOld[i] as T, new: restNew[i] as T, moved: true });
    result.added.push(...restNew.slice(paired));
    result.removed.push(...restOld.slice(paired));
  }
  for (const [key, oldList] of oldMap) if (!newMap.has(key)) result.removed.push(...oldList);
  return result;
}

function documentRef(doc: BundleDocument): DocumentRef {
  return {
    documentId: doc.documentId,
    kind: doc.kind,
    id: doc.id,
    origin: doc.origin,
    layer: doc.layer,
    source: doc.source,
    title: doc.resolved.annotation.title,
    status: doc.status,
  };
}

function side(bundle: Bundle): DiffSide {
  return {
    rulesRevision: bundle.rulesRevision,
    schemaVersion: bundle.manifest.schemaVersion,
    layers: bundle.manifest.layers.map((l) => l.name),
    pvfVersions: bundle.manifest.pvfVersions,
    documents: bundle.documents.length,
  };
}

const CHANGE_RANK = { added: 0, removed: 1, moved: 2, changed: 3 } as const;

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRefs(a: DocumentRef, b: DocumentRef): number {
  return compareText(a.id, b.id) || compareText(a.kind, b.kind) || compareText(a.origin, b.origin) || compareText(a.layer, b.layer);
}

function compareDocs(a: BundleDocument, b: BundleDocument): number {
  return compareRefs(documentRef(a), documentRef(b));
}

function compareFileTypes(a: string, b: string): number {
  const rank = (t: string) => (t === ALL_FILES ? 0 : t === PATH_RULES ? 2 : 1);
  return rank(a) - rank(b) || compareText(a, b);
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

type FullEnumChange = Omit<EnumChange, 'documents'>;

/** Added, removed and relabelled keys (keys are strings: "001" and "1" differ), and whether the order changed. */
function enumChange(oldValues: EnumValues, newValues: EnumValues): FullEnumChange {
  const oldLabels = new Map(oldValues.map(([k, v]) => [k, v]));
  const newLabels = new Map(newValues.map(([k, v]) => [k, v]));
  const added: [string, string][] = [];
  const relabelled: { key: string; old: string; new: string }[] = [];
  for (const [key, label] of newValues) {
    const before = oldLabels.get(key);
    if (before === undefined) added.push([key, label]);
    else if (before !== label) relabelled.push({ key, old: before, new: label });
  }
  const removed: [string, string][] = oldValues.filter(([k]) => !newLabels.has(k)).map(([k, v]) => [k, v]);
  const oldCommon = oldValues.filter(([k]) => newLabels.has(k)).map(([k]) => k);
  const newCommon = newValues.filter(([k]) => oldLabels.has(k)).map(([k]) => k);
  return {
    oldCount: oldValues.length,
    newCount: newValues.length,
    added: { count: added.length, items: added },
    removed: { count: removed.length, items: removed },
    relabelled: { count: relabelled.length, items: relabelled },
    reordered: !jsonEqual(oldCommon, newCommon),
  };
}

function sampled(change: FullEnumChange, n: number): FullEnumChange {
  return {
    ...change,
    added: { count: change.added.count, items: change.added.items.slice(0, n) },
    removed: { count: change.removed.count, items: change.removed.items.slice(0, n) },
    relabelled: { count: change.relabelled.count, items: change.relabelled.items.slice(0, n) },
  };
}

function partsOf(pairs: readonly (readonly [string, JsonValue, JsonValue])[]): DiffPartChange[] {
  const parts: DiffPartChange[] = [];
  for (const [part, a, b] of pairs) if (!jsonEqual(a, b)) parts.push({ part, old: a, new: b });
  return parts;
}

function statusPart(a: { status: string; statusReason: string | null }, b: { status: string; statusReason: string | null }): [string, JsonValue, JsonValue] {
  return ['status', { status: a.status, reason: a.statusReason }, { status: b.status, reason: b.statusReason }];
}

function relationRef(r: BundleRelation): RelationRef {
  return { name: r.name, layer: r.layer, kind: r.kind, status: r.status };
}

function diffRelations(olds: readonly BundleRelation[], news: readonly BundleRelation[]): RelationChange[] {
  const matched = matchByIdentity(olds, news, (r) => r.name, (r) => `${r.name}\u0000${r.layer}`, (r) => r.layerIndex);
  const changes: RelationChange[] = [
    ...matched.added.map((r): RelationChange => ({ change: 'added', old: null, new: relationRef(r), parts: [] })),
    ...matched.removed.map((r): RelationChange => ({ change: 'removed', old: relationRef(r), new: null, parts: [] })),
  ];
  for (const { old: a, new: b, moved } of matched.pairs) {
    const parts = partsOf([
      ['layer', a.layer, b.layer],
      ['source', a.source, b.source],
      statusPart(a, b),
      ['kind', a.kind, b.kind],
      ['listPath', a.listPath, b.listPath],
      ['idToken', a.idToken, b.idToken],
      ['pathToken', a.pathToken, b.pathToken],
      ['recordTokens', a.recordTokens, b.recordTokens],
      ['effectiveRecordTokens', a.effectiveRecordTokens, b.effectiveRecordTokens],
      ['nameSection', a.nameSection, b.nameSection],
      ['contextToken', a.contextToken, b.contextToken],
      ['contextPaths', a.contextPaths, b.contextPaths],
      ['members', a.members, b.members],
      ['resolvedMembers', a.resolvedMembers, b.resolvedMembers],
      ['listPaths', a.listPaths, b.listPaths],
      ['problems', a.problems.map((p) => p.message), b.problems.map((p) => p.message)],
    ]);
    if (parts.length === 0 && !jsonEqual(a.raw, b.raw)) parts.push({ part: 'raw', old: a.raw, new: b.raw });
    if (moved || parts.length > 0) changes.push({ change: moved ? 'moved' : 'changed', old: relationRef(a), new: relationRef(b), parts });
  }
  return changes.sort((x, y) => {
    const rx = (x.new ?? x.old) as RelationRef;
    const ry = (y.new ?? y.old) as RelationRef;
    return CHANGE_RANK[x.change] - CHANGE_RANK[y.change] || compareText(rx.name, ry.name) || compareText(rx.layer, ry.layer);
  });
}

function renderingRef(r: RenderingRule): RenderingRef {
  return { id: r.id, layer: r.layer, status: r.status };
}

function diffRendering(olds: readonly RenderingRule[], news: readonly RenderingRule[]): RenderingChange[] {
  const matched = matchByIdentity(olds, news, (r) => r.id, (r) => `${r.id}\u0000${r.layer}`, (r) => r.layerIndex);
  const changes: RenderingChange[] = [
    ...matched.added.map((r): RenderingChange => ({ change: 'added', old: null, new: renderingRef(r), parts: [] })),
    ...matched.removed.map((r): RenderingChange => ({ change: 'removed', old: renderingRef(r), new: null, parts: [] })),
  ];
  for (const { old: a, new: b, moved } of matched.pairs) {
    const parts = partsOf([
      ['layer', a.layer, b.layer],
      statusPart(a, b),
      ['description', a.description, b.description],
      ['match.extensions', a.match.extensions, b.match.extensions],
      ['match.glob', a.match.glob, b.match.glob],
      ['target.kind', a.target.kind, b.target.kind],
      ['target.section', a.target.section, b.target.section],
      ['format.tokensPerLine', a.format.tokensPerLine, b.format.tokensPerLine],
      ['format.offset', a.format.offset, b.format.offset],
      ['format.tokensPerLineIndex', a.format.tokensPerLineIndex, b.format.tokensPerLineIndex],
      ['format.standaloneValues', a.format.standaloneValues, b.format.standaloneValues],
      ['format.nestedSections', a.format.nestedSections, b.format.nestedSections],
    ]);
    if (moved || parts.length > 0) changes.push({ change: moved ? 'moved' : 'changed', old: renderingRef(a), new: renderingRef(b), parts });
  }
  return changes.sort((x, y) => {
    const rx = (x.new ?? x.old) as RenderingRef;
    const ry = (y.new ?? y.old) as RenderingRef;
    return CHANGE_RANK[x.change] - CHANGE_RANK[y.change] || compareText(rx.id, ry.id) || compareText(rx.layer, ry.layer);
  });
}

function diffBundleLevel(oldBundle: Bundle, newBundle: Bundle, versions: readonly string[]): BundleChanges {
  const oldManifest = oldBundle.manifest;
  const newManifest = newBundle.manifest;

  const effectiveIn = (bundle: Bundle, v: string) => bundle.manifest.counts.effectiveByVersion[v] ?? 0;
  const pvfVersions = {
    added: newManifest.pvfVersions.filter((v) => !oldManifest.pvfVersions.includes(v)).map((v) => ({ version: v, effective: effectiveIn(newBundle, v) })),
    removed: oldManifest.pvfVersions.filter((v) => !newManifest.pvfVersions.includes(v)).map((v) => ({ version: v, effective: effectiveIn(oldBundle, v) })),
  };

  const layers: LayerChange[] = [];
  const oldLayers = new Map(oldManifest.layers.map((l) => [l.name, l]));
  const newLayers = new Map(newManifest.layers.map((l) => [l.name, l]));
  for (const l of newManifest.layers) {
    const before = oldLayers.get(l.name);
    if (!before) {
      layers.push({ change: 'added', name: l.name, kind: l.kind, parts: [] });
      continue;
    }
    const parts = partsOf([
      ['kind', before.kind, l.kind],
      ['description', before.description, l.description],
      ['pvfVersions', before.pvfVersions, l.pvfVersions],
      ['disable', before.disable, l.disable],
    ]);
    if (parts.length > 0) layers.push({ change: 'changed', name: l.name, kind: l.kind, parts });
  }
  for (const l of oldManifest.layers) if (!newLayers.has(l.name)) layers.push({ change: 'removed', name: l.name, kind: l.kind, parts: [] });

  const oldOrder = oldManifest.layers.map((l) => l.name).filter((n) => newLayers.has(n));
  const newOrder = newManifest.layers.map((l) => l.name).filter((n) => oldLayers.has(n));
  const layerOrder = jsonEqual(oldOrder, newOrder) ? null : { old: oldOrder, new: newOrder };

  // Explain order of the effective rules, by identity, over the rules effective on both sides.
  const ruleOrder: string[] = [];
  const identityMap = (bundle: Bundle) => new Map(bundle.documents.map((d) => [d.documentId, documentIdentity(d)]));
  const oldIdentities = identityMap(oldBundle);
  const newIdentities = identityMap(newBundle);
  for (const v of versions) {
    const identities = (bundle: Bundle, map: ReadonlyMap<string, string>) => (bundle.ruleOrder[v] ?? []).map((id) => map.get(id) ?? `?${id}`);
    const before = identities(oldBundle, oldIdentities);
    const after = identities(newBundle, newIdentities);
    const inAfter = new Set(after);
    const inBefore = new Set(before);
    if (!jsonEqual(before.filter((k) => inAfter.has(k)), after.filter((k) => inBefore.has(k)))) ruleOrder.push(v);
  }

  // Rendering rules are kept in precedence order (a later one wins ties).
  const renderingKey = (r: RenderingRule) => `${r.id}\u0000${r.layer}`;
  const oldRendering = oldBundle.rendering.map(renderingKey);
  const newRendering = newBundle.rendering.map(renderingKey);
  const inOld = new Set(oldRendering);
  const inNew = new Set(newRendering);
  const renderingOrder = !jsonEqual(oldRendering.filter((k) => inNew.has(k)), newRendering.filter((k) => inOld.has(k)));

  return { pvfVersions, layers, layerOrder, ruleOrder, renderingOrder, notes: [] };
}
