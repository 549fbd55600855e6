/**
 * Authored blocks → the bundle's resolved definition, with every optional target part present (null
 * when absent, so 0 and absent stay different), plus pvfine's "covers" test for implicit field rules.
 */
import type { AnnotationSpec, MatchSpec, PreviewSpec, ResolvedDefinition, TargetSpec, VariableRecords, WhenCondition } from '../runtime/bundle/schema.js';
import type { AnnotationInput, MatchInput, PreviewInput, TargetInput } from './input-schema.js';

export function toResolvedDefinition(
  match: MatchInput | undefined,
  target: TargetInput | undefined,
  annotation: AnnotationInput | undefined,
  preview: PreviewInput | undefined,
  values: [string, string][] | null,
  sentinels: [string, string][] | null = null,
): ResolvedDefinition {
  return {
    match: toMatchSpec(match),
    target: toTargetSpec(target),
    annotation: toAnnotationSpec(annotation, values, sentinels),
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
    parent: target?.parent ?? null,
    notInside: target?.notInside ?? null,
    after: target?.after ?? null,
    topLevel: target?.topLevel === true,
    sectionPattern: target?.sectionPattern ?? null,
    when: target?.when?.map((c) => ({ section: c.section, index: c.index ?? 0, values: c.values })) ?? null,
    countedGroups: target?.countedGroups ? { widths: target.countedGroups.widths, group: target.countedGroups.group ?? 0, count: target.countedGroups.count === true } : null,
    variableRecords: target?.variableRecords ? toVariableRecords(target.variableRecords) : null,
  };
}

/**
 * `widthByFirst` as pairs in key order (integer-like keys come first in a parsed object; the lookup is by
 * value, so the order only shows).
 */
function toVariableRecords(v: NonNullable<TargetInput['variableRecords']>): VariableRecords {
  return {
    width: v.width,
    keyAt: v.keyAt ?? 0,
    widthByFirst: Object.entries(v.widthByFirst ?? {}),
    countAt: v.countAt ?? null,
    first: v.first ?? null,
    notFirst: v.notFirst ?? null,
    tail: v.tail === true,
  };
}

/**
 * `sentinels` are the source-ordered pairs the loader read (like `values`); without them (a definition
 * built from parsed input only) the parsed object's order is used.
 */
function toAnnotationSpec(annotation: AnnotationInput | undefined, values: [string, string][] | null, sentinels: [string, string][] | null): AnnotationSpec {
  const type = annotation?.type;
  return {
    title: annotation?.title ?? '',
    content: (annotation?.content ?? '').trim(),
    type: type === 'enum' || type === 'reference' || type === 'path' || type === 'image' ? type : 'text',
    relation: annotation?.relation ?? null,
    pathRoot: annotation?.pathRoot ?? null,
    inlineImage: annotation?.inlineImage ?? null,
    hasValues: values !== null,
    sentinels: sentinels ?? (annotation?.sentinels ? Object.entries(annotation.sentinels) : null),
    columns: annotation?.columns ?? null,
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
 * pvfdoc's scope keys (`parent`, `notInside`, `after`) are part of the target too: a rule limited to one
 * enclosing section does not stand in for a field that applies everywhere (case-insensitive names,
 * `notInside` as a set; absent and empty are the same), and so are `topLevel`, `sectionPattern` and
 * `when` (a rule for files of one kind does not stand in for a field that applies to all), and
 * `countedGroups` and `variableRecords`.
 */
export function covers(rule: ResolvedDefinition | undefined, field: ResolvedDefinition): boolean {
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
    JSON.stringify(s.range) === JSON.stringify(t.range) &&
    (s.parent ?? '').toLowerCase() === (t.parent ?? '').toLowerCase() &&
    nameSet(s.notInside) === nameSet(t.notInside) &&
    nameSet(s.after) === nameSet(t.after) &&
    s.topLevel === t.topLevel &&
    (s.sectionPattern ?? '').toLowerCase() === (t.sectionPattern ?? '').toLowerCase() &&
    whenKey(s.when) === whenKey(t.when) &&
    JSON.stringify(s.countedGroups) === JSON.stringify(t.countedGroups) &&
    JSON.stringify(s.variableRecords) === JSON.stringify(t.variableRecords);
  if (!sameTarget) return false;
  const m = rule.match;
  if (m.extensions.length === 0 && m.glob.trim() === '') return true;
  const n = field.match;
  const sortedLower = (list: string[]) => list.map((e) => e.toLowerCase()).sort().join('\u0000');
  return m.glob.trim().toLowerCase() === n.glob.trim().toLowerCase() && sortedLower(m.extensions) === sortedLower(n.extensions);
}

/** `when` as one comparable string: conditions as a set, names and values case-insensitive, absent = empty. */
function whenKey(when: readonly WhenCondition[] | null): string {
  const conditions = (when ?? []).map((c) => `${c.section.toLowerCase()}\u0001${c.index}\u0001${nameSet(c.values)}`);
  return [...new Set(conditions)].sort().join('\u0000');
}

function nameSet(names: readonly string[] | null): string {
  return [...new Set((names ?? []).map((n) => n.toLowerCase()))].sort().join('\u0000');
}
