/**
 * Authored shapes of a rule layer: pvfine's `annotations.json`, `lists.json`, `rendering.json`
 * (rule-format §1) plus this project's `layer.json`. Objects are strict: pvfine rejects unknown keys at
 * any depth, so do we. Semantic checks (§1.10) live in validate-*.ts.
 */
import { z } from 'zod';
import { TrustSchema } from '../runtime/bundle/schema.js';

const int = () => z.int('expected an integer');
const str = () => z.string('expected a string');

export const MatchInputSchema = z.strictObject({
  extensions: z.array(str()).optional(),
  glob: str().optional(),
});

/** One condition of `target.when`: the first `[section]` of the file has one of `values` at token `index`. */
export const WhenConditionInputSchema = z.strictObject({
  section: str(),
  index: int().optional(),
  values: z.array(str()),
});

/** `target.countedGroups`: groups of a count N and N records of `widths[g]` tokens; one group's records (or its count). */
export const CountedGroupsInputSchema = z.strictObject({
  widths: z.array(int()),
  group: int().optional(),
  count: z.boolean('expected true or false').optional(),
});

/**
 * `target.variableRecords`: records of `width` tokens, or of `widthByFirst[key token]`, plus N more when
 * `countAt` names a count column; the records `first` / `notFirst` select (by the key token too); column
 * `index`, or the tail. The key token is the record's first unless `keyAt` names another column.
 */
export const VariableRecordsInputSchema = z.strictObject({
  width: int(),
  keyAt: int().optional(),
  widthByFirst: z.record(z.string(), int()).optional(),
  countAt: int().optional(),
  first: z.array(str()).optional(),
  notFirst: z.array(str()).optional(),
  tail: z.boolean('expected true or false').optional(),
});

export const TargetInputSchema = z.strictObject({
  kind: str().optional(),
  section: str().optional(),
  index: int().optional(),
  range: z.strictObject({ start: int().optional(), endExclusive: int().optional() }).optional(),
  offset: int().optional(),
  groupOffset: int().optional(),
  standaloneValues: z.array(z.int32('expected a 32-bit integer')).optional(),
  recordTokens: int().optional(),
  tokensPerLineIndex: int().optional(),
  contextIndex: int().optional(),
  imagePathToken: int().optional(),
  imageIndexToken: int().optional(),
  // pvfdoc extensions (docs/rule-layers.md "Format extensions"): where the section must sit.
  parent: str().optional(),
  notInside: z.array(str()).optional(),
  after: z.array(str()).optional(),
  // pvfdoc extensions: the tokens before the first section, and section names by pattern.
  topLevel: z.boolean('expected true or false').optional(),
  sectionPattern: str().optional(),
  // pvfdoc extension: the rule applies only in files where other sections hold these values.
  when: z.array(WhenConditionInputSchema).optional(),
  // pvfdoc extension: the section is count-prefixed groups of records.
  countedGroups: CountedGroupsInputSchema.optional(),
  // pvfdoc extension: records whose width their own first token or a count in them decides.
  variableRecords: VariableRecordsInputSchema.optional(),
});

export const AnnotationInputSchema = z.strictObject({
  title: str().optional(),
  content: str().optional(),
  type: str().optional(),
  values: z.record(z.string(), str()).optional(),
  relation: str().optional(),
  pathRoot: str().optional(),
  inlineImage: z.boolean('expected true or false').optional(),
  // pvfdoc extensions: values with a fixed meaning (enum/reference), and per-column titles of records.
  sentinels: z.record(z.string(), str()).optional(),
  columns: z.array(str()).optional(),
});

/** How far a builtin definition can be trusted (pvfdoc extension; docs/builtin-layer.md "Trust"). */
export const TrustInputSchema = z.enum(TrustSchema.options, 'expected "confirmed", "likely" or "unverified"');

export const PreviewInputSchema = z.strictObject({
  provider: str().optional(),
  providers: z.array(str()).optional(),
  role: str().optional(),
  group: str().optional(),
  order: int().optional(),
  format: str().optional(),
  label: str().optional(),
});

export const RuleInputSchema = z.strictObject({
  id: str().optional(),
  pvfVersions: z.array(str()).optional(),
  description: str().optional(),
  field: str().optional(),
  match: MatchInputSchema.optional(),
  target: TargetInputSchema.optional(),
  annotation: AnnotationInputSchema.optional(),
  group: str().optional(),
  trust: TrustInputSchema.optional(),
  sources: z.array(str()).optional(),
});

export const FieldInputSchema = z.strictObject({
  id: str().optional(),
  pvfVersions: z.array(str()).optional(),
  match: MatchInputSchema.optional(),
  target: TargetInputSchema.optional(),
  annotation: AnnotationInputSchema.optional(),
  preview: PreviewInputSchema.optional(),
  trust: TrustInputSchema.optional(),
  sources: z.array(str()).optional(),
});

export const RelationInputSchema = z.strictObject({
  kind: str().optional(),
  listPath: str().optional(),
  idToken: int().optional(),
  pathToken: int().optional(),
  recordTokens: int().optional(),
  nameSection: str().optional(),
  contextToken: int().optional(),
  contextPaths: z.record(z.string(), str()).optional(),
  relations: z.array(str()).optional(),
});

export const AnnotationsFileInputSchema = z.strictObject({
  version: int(),
  description: str().optional(),
  relations: z.record(z.string(), RelationInputSchema).optional(),
  fields: z.array(FieldInputSchema).optional(),
  rules: z.array(RuleInputSchema).optional(),
});

export const ListsFileInputSchema = z.strictObject({
  version: int(),
  description: str().optional(),
  relations: z.record(z.string(), RelationInputSchema).optional(),
});

export const RenderingRuleInputSchema = z.strictObject({
  id: str().optional(),
  description: str().optional(),
  match: MatchInputSchema.optional(),
  target: z.strictObject({ kind: str().optional(), section: str().optional() }).optional(),
  format: z
    .strictObject({
      tokensPerLine: int().optional(),
      offset: int().optional(),
      tokensPerLineIndex: int().optional(),
      standaloneValues: z.array(z.int32('expected a 32-bit integer')).optional(),
      nestedSections: z.array(str()).optional(),
    })
    .optional(),
});

export const RenderingFileInputSchema = z.strictObject({
  version: int(),
  description: str().optional(),
  rules: z.array(RenderingRuleInputSchema).optional(),
});

export const LayerManifestInputSchema = z.strictObject({
  // An editor's pointer to schemas/layer.schema.json (pvfdoc's own file, so it may carry one; pvfine's files may not).
  $schema: str().optional(),
  name: str(),
  kind: str().optional(),
  description: str().optional(),
  pvfVersions: z.array(str()).optional(),
  disable: z.array(str()).optional(),
});

export type MatchInput = z.output<typeof MatchInputSchema>;
export type TargetInput = z.output<typeof TargetInputSchema>;
export type AnnotationInput = z.output<typeof AnnotationInputSchema>;
export type PreviewInput = z.output<typeof PreviewInputSchema>;
export type RuleInput = z.output<typeof RuleInputSchema>;
export type FieldInput = z.output<typeof FieldInputSchema>;
export type RelationInput = z.output<typeof RelationInputSchema>;
export type AnnotationsFileInput = z.output<typeof AnnotationsFileInputSchema>;
export type ListsFileInput = z.output<typeof ListsFileInputSchema>;
export type RenderingRuleInput = z.output<typeof RenderingRuleInputSchema>;
export type RenderingFileInput = z.output<typeof RenderingFileInputSchema>;
export type LayerManifestInput = z.output<typeof LayerManifestInputSchema>;
