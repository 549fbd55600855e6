/**
 * `rule.field` resolution (rule-format §1.9): a rule that names a shared field takes the field's `match`,
 * `target` and `annotation` blocks unless it supplies its own, and a supplied block replaces the field's
 * as a whole (never a per-key merge).
 *
 * "Supplies its own" follows pvfine's Go code, which tests zero values, not key presence: pvfine's editor
 * saves every rule with `"target": {"kind": ""}` and `"annotation": {"title": "", "type": ""}` (those keys
 * have no `omitempty`), so a key that is present but empty must not count, or files it wrote would lose
 * their field blocks.
 */
import type { AnnotationInput, FieldInput, MatchInput, RuleInput, TargetInput } from './input-schema.js';

export interface ResolvedFieldBlocks {
  match: MatchInput;
  target: TargetInput;
  annotation: AnnotationInput;
  /** Which blocks came from the field (all false when there is no field). */
  fromField: { match: boolean; target: boolean; annotation: boolean };
}

/** The rule supplies its own match: any extension or a non-empty glob. */
export function ruleSuppliesMatch(match: MatchInput | undefined): boolean {
  return (match?.extensions?.length ?? 0) > 0 || (match?.glob ?? '') !== '';
}

/**
 * The rule supplies its own target: a non-empty `kind`, or one of pvfdoc's target keys (`parent`,
 * `notInside`, `after`, `topLevel`, `sectionPattern`, `when`, `countedGroups`, `variableRecords`): pvfine never writes those, so a rule that has them means its own target, and leaving
 * out `kind` is then reported instead of silently using the field's target.
 */
export function ruleSuppliesTarget(target: TargetInput | undefined): boolean {
  return (
    (target?.kind ?? '') !== '' ||
    target?.parent !== undefined ||
    target?.notInside !== undefined ||
    target?.after !== undefined ||
    target?.topLevel !== undefined ||
    target?.sectionPattern !== undefined ||
    target?.when !== undefined ||
    target?.countedGroups !== undefined ||
    target?.variableRecords !== undefined
  );
}

/**
 * The rule supplies its own annotation: any of title, type, content, values, relation, pathRoot,
 * inlineImage set, or one of pvfdoc's `sentinels` / `columns` (as for `parent` above).
 */
export function ruleSuppliesAnnotation(annotation: AnnotationInput | undefined): boolean {
  if (annotation === undefined) return false;
  return (
    (annotation.title ?? '') !== '' ||
    (annotation.type ?? '') !== '' ||
    (annotation.content ?? '') !== '' ||
    Object.keys(annotation.values ?? {}).length > 0 ||
    (annotation.relation ?? '') !== '' ||
    (annotation.pathRoot ?? '') !== '' ||
    annotation.inlineImage === true ||
    annotation.sentinels !== undefined ||
    annotation.columns !== undefined
  );
}

/**
 * The effective blocks of `rule` given the field it names (`undefined`: no field, or none found). Pure:
 * returns the input block objects themselves (or `{}` for an absent block) and never mutates them.
 */
export function resolveFieldBlocks(rule: RuleInput, field: FieldInput | undefined): ResolvedFieldBlocks {
  if (field === undefined) {
    return {
      match: rule.match ?? {},
      target: rule.target ?? {},
      annotation: rule.annotation ?? {},
      fromField: { match: false, target: false, annotation: false },
    };
  }
  const ownMatch = ruleSuppliesMatch(rule.match);
  const ownTarget = ruleSuppliesTarget(rule.target);
  const ownAnnotation = ruleSuppliesAnnotation(rule.annotation);
  return {
    match: (ownMatch ? rule.match : field.match) ?? {},
    target: (ownTarget ? rule.target : field.target) ?? {},
    annotation: (ownAnnotation ? rule.annotation : field.annotation) ?? {},
    fromField: { match: !ownMatch, target: !ownTarget, annotation: !ownAnnotation },
  };
}
