/**
 * Rule semantics across layers (ARCHITECTURE §3, rule-format §1.9 and §1.12): override by identity,
 * `disable`, shared-field resolution, implicit `field:<id>` rules, relations, and the effective rule
 * order per version context. Input must already be validated.
 */
import { sha256Hex } from '../runtime/bundle/canonical-json.js';
import type {
  AnnotationSpec,
  BundleDocument,
  BundleRelation,
  DefinitionStatus,
  MatchSpec,
  PreviewSpec,
  RelationProblem,
  RenderingRule,
  ResolvedDefinition,
  TargetSpec,
  VersionStatus,
} from '../runtime/bundle/schema.js';
import { DEFAULT_PVF_VERSIONS, UNKNOWN_VERSION } from '../runtime/bundle/constants.js';
import { toSummary } from '../runtime/bundle/summary.js';
import type { AnnotationInput, FieldInput, MatchInput, PreviewInput, RenderingRuleInput, RuleInput, TargetInput } from './input-schema.js';
import type { DefinitionItem, LoadedLayer, RelationItem, SourceItem } from './load-layers.js';
import { resolveFieldBlocks } from './resolve-field-blocks.js';

export interface ResolvedRules {
  pvfVersions: string[];
  documents: BundleDocument[];
  values: Record<string, [string, string][]>;
  ruleOrder: Record<string, string[]>;
  relations: BundleRelation[];
  rendering: RenderingRule[];
}

type IdentityKind = 'rule' | 'field' | 'relation' | 'rendering';

interface Definition<T> {
  kind: IdentityKind;
  id: string;
  layer: LoadedLayer;
  item: T;
  status: DefinitionStatus;
  statusReason: string | null;
  /** The definition that directly overrides this one, if any. */
  overrider: Definition<T> | null;
  /** The last definition of this identity across all layers. */
  winner: Definition<T>;
  /** Whether this is the earliest definition of its identity (it fixes the identity's place in order). */
  first: boolean;
}

export function supportedVersions(layers: readonly LoadedLayer[]): string[] {
  const declared: string[] = [];
  for (const layer of layers) for (const v of layer.pvfVersions) if (!declared.includes(v)) declared.push(v);
  return declared.length > 0 ? declared : [...DEFAULT_PVF_VERSIONS];
}

export function documentIdFor(layer: string, kind: 'rule' | 'field', origin: 'configured' | 'generated', id: string): string {
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
    const valuesSource = blocks.fromField.annotation && field ? field.item.values : def.item.values;
    const resolved = toResolvedDefinition(blocks.match, blocks.target, blocks.annotation, undefined, valuesSource);
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
    const resolved = toResolvedDefinition(input.match, input.target, input.annotation, input.preview, def.item.values);
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
    const generatedApplied = new Map<BundleDocument, VersionStatus>();
    for (const f of orderedFields) {
      const generated = generatedByField.get(f);
      if (!generated) continue;
      if (!fieldApplies(f)) continue;
      const suppressor = activeRules.find((r) => ruleField.get(r) === f || covers(resolvedRules.get(r), generated.resolved));
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

function layerDefinitions<T>(
  layers: readonly LoadedLayer[],
  kind: IdentityKind,
  pick: (layer: LoadedLayer) => readonly (readonly [string, T])[],
): Definition<T>[] {
  const all: Definition<T>[] = [];
  const byId = new Map<string, Definition<T>[]>();
  for (const layer of layers) {
    for (const [id, item] of pick(layer)) {
      const chain = byId.get(id) ?? [];
      const def: Definition<T> = {
        kind,
        id,
        layer,
        item,
        status: 'effective',
        statusReason: null,
        overrider: null,
        winner: undefined as unknown as Definition<T>,
        first: chain.length === 0,
      };
      const previous = chain.at(-1);
      if (previous) previous.overrider = def;
      chain.push(def);
      byId.set(id, chain);
      all.push(def);
    }
  }
  for (const chain of byId.values()) {
    const winner = chain.at(-1) as Definition<T>;
    for (const def of chain) {
      def.winner = winner;
      if (def.overrider) {
        def.status = 'overridden';
        def.statusReason = `overridden by ${kind} "${def.id}" of layer "${def.overrider.layer.name}"`;
        continue;
      }
      const disabler = layers.find((l) => l.index > def.layer.index && l.disable.includes(`${kind}:${def.id}`));
      if (disabler) {
        def.status = 'disabled';
        def.statusReason = `disabled by layer "${disabler.name}" (layer.json disable: "${kind}:${def.id}")`;
      }
    }
  }
  return all;
}

function winnersById<T>(defs: readonly Definition<T>[]): Map<string, Definition<T>> {
  const map = new Map<string, Definition<T>>();
  for (const def of defs) map.set(def.id, def.winner);
  return map;
}

/**
 * Order of identities (ARCHITECTURE §3): for rules, later layers first, each in array order, and an
 * override keeps the place of the definition it overrides. Rendering rules keep layer order
 * (pvfine lets the later rule win ties). Only effective winners are listed.
 */
function placementOrder<T>(defs: readonly Definition<T>[], direction: 'later-first' | 'earlier-first'): Definition<T>[] {
  const layerIndexes = [...new Set(defs.map((d) => d.layer.index))].sort((a, b) => a - b);
  if (direction === 'later-first') layerIndexes.reverse();
  const out: Definition<T>[] = [];
  for (const index of layerIndexes) {
    for (const def of defs) {
      if (def.layer.index !== index || !def.first) continue;
      if (def.winner.status === 'effective') out.push(def.winner);
    }
  }
  return out;
}

function makeDocument(args: {
  def: Definition<SourceItem<unknown>>;
  kind: 'rule' | 'field';
  origin: 'configured' | 'generated';
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
    section: resolved.target.kind === 'path' ? null : resolved.target.section,
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
  };
}

/** Raw JSON without `annotation.values` (values are paged separately; protocol: definitionsOmitValues). */
function omitValues(raw: unknown): BundleDocument['raw'] {
  const copy = JSON.parse(JSON.stringify(raw ?? null)) as BundleDocument['raw'];
  if (copy && typeof copy === 'object' && !Array.isArray(copy)) {
    const annotation = (copy as Record<string, unknown>).annotation;
    if (annotation && typeof annotation === 'object' && !Array.isArray(annotation)) {
      delete (annotation as Record<string, unknown>).values;
    }
  }
  return copy;
}

function toResolvedDefinition(
  match: MatchInput | undefined,
  target: TargetInput | undefined,
  annotation: AnnotationInput | undefined,
  preview: PreviewInput | undefined,
  values: [string, string][] | null,
): ResolvedDefinition {
  return {
    match: toMatchSpec(match),
    target: toTargetSpec(target),
    annotation: toAnnotationSpec(annotation, values),
    preview: preview ? toPreviewSpec(preview) : null,
  };
}

export function toMatchSpec(match: MatchInput | undefined): MatchSpec {
  return { extensions: match?.extensions ?? [], glob: match?.glob ?? '' };
}

function toTargetSpec(target: TargetInput | undefined): TargetSpec {
  const kind = target?.kind === 'section' || target?.kind === 'token' ? target.kind : 'path';
  const range = target?.range;
  return {
    kind,
    section: target?.section ?? null,
    index: target?.index ?? null,
    range: range ? { start: range.start ?? 0, endExclusive: range.endExclusive ?? 0 } : null,
    offset: target?.offset ?? null,
    groupOffset: target?.groupOffset ?? null,
    standaloneValues: target?.standaloneValues ?? null,
    recordTokens: target?.recordTokens ?? null,
    tokensPerLineIndex: target?.tokensPerLineIndex ?? null,
    contextIndex: target?.contextIndex ?? null,
    imagePathToken: target?.imagePathToken ?? null,
  };
}

function toAnnotationSpec(annotation: AnnotationInput | undefined, values: [string, string][] | null): AnnotationSpec {
  const type = annotation?.type;
  return {
    title: annotation?.title ?? '',
    content: (annotation?.content ?? '').trim(),
    type: type === 'enum' || type === 'reference' || type === 'path' || type === 'image' ? type : 'text',
    relation: annotation?.relation ?? null,
    pathRoot: annotation?.pathRoot ?? null,
    inlineImage: annotation?.inlineImage ?? null,
    hasValues: values !== null,
  };
}

function toPreviewSpec(preview: PreviewInput): PreviewSpec {
  const providers: string[] = [];
  for (const name of [preview.provider, ...(preview.providers ?? [])]) {
    const trimmed = name?.trim();
    if (trimmed && !providers.some((p) => p.toLowerCase() === trimmed.toLowerCase())) providers.push(trimmed);
  }
  return {
    providers,
    role: preview.role ?? '',
    group: preview.group ?? '',
    order: preview.order ?? null,
    format: preview.format ?? '',
    label: preview.label ?? null,
  };
}

/**
 * pvfine's "covers" test (rule-format §1.9): an explicit rule with the same annotation type, title,
 * relation, pathRoot and an identical target, and an empty or equal match, suppresses a field's
 * implicit rule. Go zero values: plain ints compare absent as 0; pointer fields keep absent distinct.
 */
function covers(rule: ResolvedDefinition | undefined, field: ResolvedDefinition): boolean {
  if (!rule) return false;
  const a = rule.annotation;
  const b = field.annotation;
  if (a.type !== b.type || a.title !== b.title || (a.relation ?? '') !== (b.relation ?? '') || (a.pathRoot ?? '') !== (b.pathRoot ?? '')) {
    return false;
  }
  const s = rule.target;
  const t = field.target;
  const sameTarget =
    s.kind === t.kind &&
    (s.section ?? '').toLowerCase() === (t.section ?? '').toLowerCase() &&
    (s.offset ?? 0) === (t.offset ?? 0) &&
    (s.recordTokens ?? 0) === (t.recordTokens ?? 0) &&
    (s.groupOffset ?? 0) === (t.groupOffset ?? 0) &&
    (s.standaloneValues ?? []).join(',') === (t.standaloneValues ?? []).join(',') &&
    s.index === t.index &&
    s.tokensPerLineIndex === t.tokensPerLineIndex &&
    s.contextIndex === t.contextIndex &&
    s.imagePathToken === t.imagePathToken &&
    JSON.stringify(s.range) === JSON.stringify(t.range);
  if (!sameTarget) return false;
  const m = rule.match;
  if (m.extensions.length === 0 && m.glob.trim() === '') return true;
  const n = field.match;
  const sortedLower = (list: string[]) => list.map((e) => e.toLowerCase()).sort().join('\u0000');
  return m.glob.trim().toLowerCase() === n.glob.trim().toLowerCase() && sortedLower(m.extensions) === sortedLower(n.extensions);
}

function resolveRelations(
  defs: readonly Definition<RelationItem>[],
  winners: Map<string, Definition<RelationItem>>,
): BundleRelation[] {
  const flatten = (name: string, stack: string[], problems: RelationProblem[]): { members: string[]; paths: string[] } => {
    const def = winners.get(name);
    if (!def) {
      problems.push({ kind: 'missing', member: name, message: `member relation "${name}" is not defined` });
      return { members: [], paths: [] };
    }
    if (def.status !== 'effective') {
      problems.push({ kind: 'disabled', member: name, message: `member relation "${name}" is ${def.status}; lookups skip it` });
      return { members: [], paths: [] };
    }
    if (stack.includes(name)) {
      problems.push({ kind: 'cycle', member: name, message: `relation cycle: ${[...stack, name].join(' → ')}` });
      return { members: [], paths: [] };
    }
    const input = def.item.input;
    if (input.kind === 'union') {
      const out = { members: [] as string[], paths: [] as string[] };
      for (const member of input.relations ?? []) {
        const sub = flatten(member, [...stack, name], problems);
        if (winners.get(member)?.item.input.kind !== 'union' && sub.paths.length + sub.members.length > 0) out.members.push(member);
        out.members.push(...sub.members.filter((m) => !out.members.includes(m)));
        out.paths.push(...sub.paths.filter((p) => !out.paths.includes(p)));
      }
      return out;
    }
    const listPaths = input.kind === 'contextual' ? (def.item.contextPaths ?? []).map(([, p]) => p) : [input.listPath ?? ''];
    const paths: string[] = [];
    for (const p of listPaths) for (const candidate of listPathCandidates(p)) if (!paths.includes(candidate)) paths.push(candidate);
    return { members: [], paths };
  };

  return defs.map((def) => {
    const input = def.item.input;
    const kind = input.kind === 'contextual' || input.kind === 'union' ? input.kind : 'list';
    const problems: RelationProblem[] = [];
    let resolvedMembers: string[] = [];
    let listPaths: string[] = [];
    if (def.status === 'effective') {
      const flat = kind === 'union'
        ? (() => {
            const out = { members: [] as string[], paths: [] as string[] };
            for (const member of input.relations ?? []) {
              const sub = flatten(member, [def.id], problems);
              if (winners.get(member)?.status === 'effective' && winners.get(member)?.item.input.kind !== 'union') out.members.push(member);
              for (const m of sub.members) if (!out.members.includes(m)) out.members.push(m);
              for (const p of sub.paths) if (!out.paths.includes(p)) out.paths.push(p);
            }
            return out;
          })()
        : flatten(def.id, [], problems);
      resolvedMembers = flat.members;
      listPaths = flat.paths;
    }
    const idToken = input.idToken ?? 0;
    const pathToken = input.pathToken ?? 0;
    return {
      name: def.id,
      layer: def.layer.name,
      layerIndex: def.layer.index,
      source: def.layer.kind,
      sourcePointer: `${def.item.file}#${def.item.path}`,
      status: def.status,
      statusReason: def.statusReason,
      kind,
      listPath: input.listPath ?? null,
      idToken,
      pathToken,
      recordTokens: input.recordTokens ?? null,
      effectiveRecordTokens: input.recordTokens && input.recordTokens > 0 ? input.recordTokens : Math.max(idToken, pathToken) + 1,
      nameSection: input.nameSection ?? null,
      contextToken: input.contextToken ?? null,
      contextPaths: def.item.contextPaths,
      members: input.relations ?? null,
      resolvedMembers,
      listPaths,
      problems,
      raw: JSON.parse(JSON.stringify(def.item.raw ?? null)) as BundleRelation['raw'],
    };
  });
}

/**
 * Where a configured `.lst` may live (rule-format §4.3): as given, `list/<basename>`, and for
 * `list/x.lst` also `x/x.lst` (90US keeps `equipment/equipment.lst`, 110US `list/equipment.lst`).
 */
export function listPathCandidates(listPath: string): string[] {
  const clean = listPath.replace(/\\/g, '/').replace(/^\/+/, '').trim();
  if (!clean) return [];
  const base = clean.slice(clean.lastIndexOf('/') + 1);
  const out = [clean];
  const inList = `list/${base}`;
  if (!out.includes(inList)) out.push(inList);
  if (clean.toLowerCase().startsWith('list/') && !clean.slice(5).includes('/')) {
    const stem = base.replace(/\.lst$/i, '');
    const folder = `${stem}/${base}`;
    if (!out.includes(folder)) out.push(folder);
  }
  return out;
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
