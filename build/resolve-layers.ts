/**
 * Rule semantics across layers (ARCHITECTURE §3, rule-format §1.9 and §1.12): override by identity,
 * `disable`, shared-field resolution, implicit `field:<id>` rules, relations, and the effective rule
 * order per version context. Input must already be validated.
 */
import { sha256Hex } from '../runtime/bundle/canonical-json.js';
import type {
  BundleDocument,
  BundleRelation,
  DefinitionKind,
  DefinitionStatus,
  Origin,
  RenderingRule,
  ResolvedDefinition,
  Trust,
  VersionStatus,
} from '../runtime/bundle/schema.js';
import { DEFAULT_PVF_VERSIONS, UNKNOWN_VERSION } from '../runtime/bundle/constants.js';
import { toSummary } from '../runtime/bundle/summary.js';
import type { FieldInput, RenderingRuleInput, RuleInput } from './input-schema.js';
import { layerDefinitions, placementOrder, winnersById, type Definition } from './layer-definitions.js';
import type { DefinitionItem, LoadedLayer, SourceItem } from './load-layers.js';
import { resolveFieldBlocks } from './resolve-field-blocks.js';
import { resolveRelations } from './resolve-relations.js';
import { covers, toMatchSpec, toResolvedDefinition } from './to-resolved-definition.js';

export interface ResolvedRules {
  pvfVersions: string[];
  documents: BundleDocument[];
  values: Record<string, [string, string][]>;
  ruleOrder: Record<string, string[]>;
  relations: BundleRelation[];
  rendering: RenderingRule[];
}

export function supportedVersions(layers: readonly LoadedLayer[]): string[] {
  const declared: string[] = [];
  for (const layer of layers) for (const v of layer.pvfVersions) if (!declared.includes(v)) declared.push(v);
  return declared.length > 0 ? declared : [...DEFAULT_PVF_VERSIONS];
}

export function documentIdFor(layer: string, kind: DefinitionKind, origin: Origin, id: string): string {
  return sha256Hex(`${layer}\u0000${kind}\u0000${origin}\u0000${id}`).slice(0, 16);
}

export function resolveLayers(layers: readonly LoadedLayer[]): ResolvedRules {
  const pvfVersions = supportedVersions(layers);
  const contexts = [UNKNOWN_VERSION, ...pvfVersions];

  const rules = layerDefinitions(layers, 'rule', (l) => l.rules.map((item) => [item.input.id ?? '', item] as const));
  const fields = layerDefinitions(layers, 'field', (l) => l.fields.map((item) => [item.input.id ?? '', item] as const));
  const relationDefs = layerDefinitions(layers, 'relation', (l) => l.relations.map((item) => [item.name, item] as const));
  const renderingDefs = layerDefinitions(layers, 'rendering', (l) => l.rendering.map((item) => [item.input.id ?? '', item] as const));

  const fieldWinners = winnersById(fields);
  const relationWinners = winnersById(relationDefs);

  const documents: BundleDocument[] = [];
  const values: Record<string, [string, string][]> = {};
  const docByDefinition = new Map<Definition<unknown>, BundleDocument>();
  const generatedByField = new Map<Definition<DefinitionItem<FieldInput>>, BundleDocument>();
  const resolvedRules = new Map<Definition<DefinitionItem<RuleInput>>, ResolvedDefinition>();
  const ruleField = new Map<Definition<DefinitionItem<RuleInput>>, Definition<DefinitionItem<FieldInput>>>();

  // Rules: resolve shared fields against the field that wins across all layers.
  for (const def of rules) {
    const input = def.item.input;
    // pvfine trims the field id before the lookup.
    const fieldName = input.field?.trim() ?? '';
    const field = fieldName !== '' ? fieldWinners.get(fieldName) : undefined;
    if (field) ruleField.set(def, field);
    const blocks = resolveFieldBlocks(input, field?.item.input);
    const annotationItem = blocks.fromField.annotation && field ? field.item : def.item;
    const valuesSource = annotationItem.values;
    const resolved = toResolvedDefinition(blocks.match, blocks.target, blocks.annotation, undefined, valuesSource, annotationItem.sentinels);
    resolvedRules.set(def, resolved);
    let { status, statusReason } = def;
    if (status === 'effective' && field && field.status !== 'effective') {
      status = 'disabled';
      statusReason = `uses shared field "${field.id}", which is ${field.status} (${field.statusReason ?? ''})`;
    }
    const relationName = resolved.annotation.type === 'reference' ? resolved.annotation.relation : null;
    const relation = relationName !== null ? relationWinners.get(relationName) : undefined;
    if (status === 'effective' && relation && relation.status !== 'effective') {
      status = 'disabled';
      statusReason = `refers to relation "${relation.id}", which is ${relation.status} (${relation.statusReason ?? ''})`;
    }
    const doc = makeDocument({
      def,
      kind: 'rule',
      origin: 'configured',
      id: def.id,
      fieldId: fieldName !== '' ? fieldName : null,
      group: input.group ?? null,
      description: input.description ?? '',
      pvfVersions: input.pvfVersions ?? [],
      resolved,
      valueCount: valuesSource?.length ?? 0,
      status,
      statusReason,
      overriddenBy: null,
      // A rule that uses a field and says nothing itself is as trustworthy as that field.
      trust: input.trust ?? field?.item.input.trust ?? null,
      sources: input.sources ?? field?.item.input.sources ?? [],
    });
    def.status = status;
    def.statusReason = statusReason;
    docByDefinition.set(def as Definition<unknown>, doc);
    if (valuesSource) values[doc.documentId] = valuesSource;
    documents.push(doc);
  }

  // Fields, each with its generated rule `field:<id>` (rule-format §1.9).
  for (const def of fields) {
    const input = def.item.input;
    const resolved = toResolvedDefinition(input.match, input.target, input.annotation, input.preview, def.item.values, def.item.sentinels);
    const common = {
      def,
      fieldId: def.id,
      description: '',
      pvfVersions: input.pvfVersions ?? [],
      resolved,
      valueCount: def.item.values?.length ?? 0,
      status: def.status,
      statusReason: def.statusReason,
      overriddenBy: null,
      // The implicit rule `field:<id>` inherits the field's trust and sources.
      trust: input.trust ?? null,
      sources: input.sources ?? [],
    } as const;
    const fieldDoc = makeDocument({ ...common, kind: 'field', origin: 'configured', id: def.id, group: null });
    const generatedDoc = makeDocument({
      ...common,
      kind: 'rule',
      origin: 'generated',
      id: `field:${def.id}`,
      group: 'field',
      description: `implicit rule of shared field "${def.id}"`,
      resolved: { ...resolved, preview: null },
    });
    docByDefinition.set(def as Definition<unknown>, fieldDoc);
    generatedByField.set(def, generatedDoc);
    if (def.item.values) {
      values[fieldDoc.documentId] = def.item.values;
      values[generatedDoc.documentId] = def.item.values;
    }
    documents.push(fieldDoc, generatedDoc);
  }

  // Overridden definitions name the document that overrides them.
  for (const def of [...rules, ...fields] as Definition<unknown>[]) {
    if (!def.overrider) continue;
    const doc = docByDefinition.get(def);
    const overrider = docByDefinition.get(def.overrider);
    if (doc && overrider) doc.overriddenBy = overrider.documentId;
    const generated = generatedByField.get(def as Definition<DefinitionItem<FieldInput>>);
    const generatedOverrider = generatedByField.get(def.overrider as Definition<DefinitionItem<FieldInput>>);
    if (generated && generatedOverrider) generated.overriddenBy = generatedOverrider.documentId;
  }

  // Per version context: which definitions apply, suppression of implicit field rules, explain order.
  const ruleOrder: Record<string, string[]> = {};
  const orderedRules = placementOrder(rules, 'later-first');
  const orderedFields = placementOrder(fields, 'later-first');
  for (const v of contexts) {
    const fieldApplies = (f: Definition<DefinitionItem<FieldInput>>) =>
      f.status === 'effective' && versionApplies(f.item.input.pvfVersions, v);
    const activeRules = orderedRules.filter((r) => {
      if (r.status !== 'effective' || !versionApplies(r.item.input.pvfVersions, v)) return false;
      const field = ruleField.get(r);
      return !field || fieldApplies(field);
    });
    const order = activeRules.map((r) => docOf(docByDefinition, r).documentId);
    const findSuppressor = suppressorIndex(activeRules, ruleField, resolvedRules);
    const generatedApplied = new Map<BundleDocument, VersionStatus>();
    for (const f of orderedFields) {
      const generated = generatedByField.get(f);
      if (!generated) continue;
      if (!fieldApplies(f)) continue;
      const suppressor = findSuppressor(f, generated.resolved);
      if (suppressor) {
        const by = docOf(docByDefinition, suppressor);
        generatedApplied.set(generated, {
          state: 'suppressed',
          effective: false,
          reason: ruleField.get(suppressor) === f ? `suppressed: rule "${by.id}" uses this field` : `suppressed: rule "${by.id}" covers this field`,
        });
      } else {
        generatedApplied.set(generated, { state: 'effective', effective: true, reason: null });
        order.push(generated.documentId);
      }
    }
    ruleOrder[v] = order;

    for (const def of rules) {
      const doc = docOf(docByDefinition, def);
      doc.versions[v] = versionStatus(def.status, def.statusReason, def.item.input.pvfVersions, v, () => {
        const field = ruleField.get(def);
        return field && !fieldApplies(field) ? `uses shared field "${field.id}", which does not apply to ${label(v)}` : null;
      });
    }
    for (const def of fields) {
      const fieldDoc = docOf(docByDefinition, def);
      fieldDoc.versions[v] = versionStatus(def.status, def.statusReason, def.item.input.pvfVersions, v, () => null);
      const generated = generatedByField.get(def);
      if (generated) generated.versions[v] = generatedApplied.get(generated) ?? fieldDoc.versions[v];
    }
  }

  return {
    pvfVersions,
    documents,
    values,
    ruleOrder,
    relations: resolveRelations(relationDefs, relationWinners),
    rendering: placementOrder(renderingDefs, 'earlier-first').map(toRenderingRule),
  };
}

type RuleDefinition = Definition<DefinitionItem<RuleInput>>;
type FieldDefinition = Definition<DefinitionItem<FieldInput>>;

/**
 * The first active rule (in explain order) that suppresses a field's implicit rule: one that uses the
 * field, or one of the field's own layer or a later one that `covers` it. Rules are grouped once by what `covers` compares for equality
 * (annotation type, title, relation, pathRoot, target kind and lower-cased section), so each field is
 * tested against the few rules of its group instead of every rule.
 */
function suppressorIndex(
  activeRules: readonly RuleDefinition[],
  ruleField: ReadonlyMap<RuleDefinition, FieldDefinition>,
  resolvedRules: ReadonlyMap<RuleDefinition, ResolvedDefinition>,
): (field: FieldDefinition, generated: ResolvedDefinition) => RuleDefinition | undefined {
  const firstUser = new Map<FieldDefinition, number>();
  const groups = new Map<string, number[]>();
  activeRules.forEach((rule, i) => {
    const field = ruleField.get(rule);
    if (field && !firstUser.has(field)) firstUser.set(field, i);
    const resolved = resolvedRules.get(rule);
    if (!resolved) return;
    const key = coverKey(resolved);
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  return (field, generated) => {
    let best = firstUser.get(field) ?? activeRules.length;
    for (const i of groups.get(coverKey(generated)) ?? []) {
      if (i >= best) break;
      const rule = activeRules[i] as RuleDefinition;
      // A rule of an earlier layer was written without knowing this field: it does not replace it, so a
      // user's field on a section the builtin layer also describes shows beside it (layers add up).
      if (rule.layer.index < field.layer.index) continue;
      if (covers(resolvedRules.get(rule), generated)) {
        best = i;
        break;
      }
    }
    return activeRules[best];
  };
}

/** The parts `covers` requires to be equal, as one key. */
function coverKey(d: ResolvedDefinition): string {
  const a = d.annotation;
  return JSON.stringify([a.type, a.title, a.relation ?? '', a.pathRoot ?? '', d.target.kind, (d.target.section ?? '').toLowerCase()]);
}

function label(v: string): string {
  return v === UNKNOWN_VERSION ? 'an archive of unknown version' : v;
}

export function versionApplies(list: readonly string[] | undefined, v: string): boolean {
  if (!list || list.length === 0) return true;
  return v !== UNKNOWN_VERSION && list.includes(v);
}

function versionStatus(
  status: DefinitionStatus,
  statusReason: string | null,
  list: readonly string[] | undefined,
  v: string,
  extra: () => string | null,
): VersionStatus {
  if (status !== 'effective') return { state: status, effective: false, reason: statusReason };
  if (!versionApplies(list, v)) {
    return { state: 'notApplicable', effective: false, reason: `pvfVersions [${(list ?? []).join(', ')}] does not include ${label(v)}` };
  }
  const reason = extra();
  return reason ? { state: 'notApplicable', effective: false, reason } : { state: 'effective', effective: true, reason: null };
}

function docOf(map: Map<Definition<unknown>, BundleDocument>, def: Definition<never> | Definition<unknown>): BundleDocument {
  const doc = map.get(def as Definition<unknown>);
  if (!doc) throw new Error(`internal: no document for ${def.kind} ${def.id}`);
  return doc;
}

function makeDocument(args: {
  def: Definition<SourceItem<unknown>>;
  kind: DefinitionKind;
  origin: Origin;
  id: string;
  fieldId: string | null;
  group: string | null;
  description: string;
  pvfVersions: string[];
  resolved: ResolvedDefinition;
  valueCount: number;
  status: DefinitionStatus;
  statusReason: string | null;
  overriddenBy: string | null;
  trust: Trust | null;
  sources: string[];
}): BundleDocument {
  const { def, resolved } = args;
  const annotation = resolved.annotation;
  const { summary, truncated } = toSummary(annotation.content || args.description || annotation.title);
  return {
    documentId: documentIdFor(def.layer.name, args.kind, args.origin, args.id),
    kind: args.kind,
    id: args.id,
    origin: args.origin,
    layer: def.layer.name,
    layerIndex: def.layer.index,
    source: def.layer.kind,
    sourcePointer: `${def.item.file}#${def.item.path}`,
    fieldId: args.fieldId,
    group: args.group,
    description: args.description,
    title: annotation.title,
    content: annotation.content,
    summary,
    summaryTruncated: truncated,
    // A sectionPattern rule shows its pattern where a section would be (search and get match it).
    section: resolved.target.kind === 'path' ? null : (resolved.target.sectionPattern ?? resolved.target.section),
    targetKind: resolved.target.kind,
    annotationType: annotation.type,
    relation: annotation.relation,
    pvfVersions: args.pvfVersions,
    match: resolved.match,
    valueCount: args.valueCount,
    status: args.status,
    statusReason: args.statusReason,
    overriddenBy: args.overriddenBy,
    versions: {},
    resolved,
    raw: omitValues(def.item.raw),
    trust: args.trust,
    sources: args.sources,
  };
}

/**
 * Raw JSON without `annotation.values` (values are paged separately; protocol: definitionsOmitValues).
 * Only the two objects on the way to `values` are copied; the rest is shared with the loaded layer,
 * which nothing changes after loading.
 */
function omitValues(raw: unknown): BundleDocument['raw'] {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) return raw as BundleDocument['raw'];
  const copy = { ...(raw as Record<string, unknown>) };
  const annotation = copy.annotation;
  if (annotation && typeof annotation === 'object' && !Array.isArray(annotation) && 'values' in annotation) {
    const { values: _values, ...rest } = annotation as Record<string, unknown>;
    copy.annotation = rest;
  }
  return copy as BundleDocument['raw'];
}

function toRenderingRule(def: Definition<SourceItem<RenderingRuleInput>>): RenderingRule {
  const input = def.item.input;
  const format = input.format ?? {};
  return {
    id: def.id,
    layer: def.layer.name,
    layerIndex: def.layer.index,
    status: def.status,
    statusReason: def.statusReason,
    description: input.description ?? '',
    match: toMatchSpec(input.match),
    target: { kind: input.target?.kind === 'section' ? 'section' : 'file', section: input.target?.section ?? null },
    format: {
      tokensPerLine: format.tokensPerLine ?? 1,
      offset: format.offset ?? null,
      tokensPerLineIndex: format.tokensPerLineIndex ?? null,
      standaloneValues: format.standaloneValues ?? null,
      nestedSections: format.nestedSections ?? null,
    },
  };
}
