/**
 * The snapshot bundle contract (ARCHITECTURE §4), defined once. `build/` writes through these schemas
 * and validates the finished bundle before writing; `runtime/` and `site/` read through them.
 */
import { z } from 'zod';

/**
 * Bumped on any incompatible change of a bundle file; readers reject other versions.
 * 2: documents.json leaves out the copies of title, content and summary (see StoredDocumentSchema);
 * search-index.json holds bigram postings (tokenizer pvfdoc-bigram@1).
 * 3: the pvfdoc format extensions: documents carry `trust` and `sources`, targets `parent` and
 * `notInside`, annotations `sentinels` and `columns` (docs/rule-layers.md "Format extensions").
 * 4: targets carry `topLevel` and `sectionPattern` (pvfdoc extensions).
 * 5: targets carry `when` (pvfdoc extension: conditions on other sections of the file).
 * 6: targets carry `countedGroups` (pvfdoc extension: count-prefixed groups of records).
 * 7: targets carry `variableRecords` (pvfdoc extension: records whose width their own tokens decide) and
 * `after` (the section opened right before must have one of these names).
 */
export const SCHEMA_VERSION = 8;

export const BUNDLE_FILES = [
  'documents.json',
  'values.json',
  'relations.json',
  'rendering.json',
  'search-index.json',
] as const;
export type BundleFileName = (typeof BUNDLE_FILES)[number];

/**
 * A version context: a supported client version (e.g. "110US"), or "" for an archive whose version is
 * unknown, where only definitions without a `pvfVersions` restriction apply (rule-format §1.12).
 */
const VersionKeySchema = z.string().describe('client version such as "110US", or "" for unknown');

export const SourceCategorySchema = z
  .enum(['builtin', 'user', 'unknown'])
  .describe('where the definition comes from: the builtin layer, a user layer, or unknown');

export const DefinitionStatusSchema = z
  .enum(['effective', 'overridden', 'disabled'])
  .describe('layer-level status: overridden by a later layer, disabled by a layer.json, or effective');

/** What a definition annotates: an archive path, a section tag, or tokens of a section. */
export const TargetKindSchema = z.enum(['path', 'section', 'token']);

/** A rule, or a shared field that rules reuse (each field also yields an implicit rule). */
export const DefinitionKindSchema = z.enum(['rule', 'field']);

/** Written in a layer, or the implicit "field:<fieldId>" rule the build generates for a shared field. */
export const OriginSchema = z.enum(['configured', 'generated']);

export const RelationKindSchema = z.enum(['list', 'contextual', 'union']);

/** What an archive path names (path notes apply to files and to folders). */
export const PathKindSchema = z.enum(['file', 'directory']);

const MatchSpecSchema = z.strictObject({
  extensions: z.array(z.string()).describe('file extensions with the dot, compared case-insensitively; [] = any'),
  glob: z.string().describe('archive-relative path pattern; "" = any path'),
});

const RangeSchema = z.strictObject({
  start: z.int().describe('first direct-token index, 0-based'),
  endExclusive: z.int().describe('direct-token index after the last one'),
});

/** A condition of `target.when`: token `index` of the file's first `[section]` is one of `values` (case-insensitive). */
const WhenConditionSchema = z.strictObject({
  section: z.string().describe('section name without brackets, matched case-insensitively; its first occurrence in the file decides'),
  index: z.int().describe('direct-token index in that section'),
  values: z.array(z.string()).describe('canonical token values, compared case-insensitively'),
});

/** `target.countedGroups`: the section as groups of a count N and N records; `group` and `count` filled in. */
const CountedGroupsSchema = z.strictObject({
  widths: z.array(z.int()).describe('record width of each group, in order'),
  group: z.int().describe('0-based group the target addresses'),
  count: z.boolean().describe('true: the group\'s count token; false: token `index` of each of its records'),
});

/**
 * `target.variableRecords`: the section as consecutive records whose width depends on one of their own
 * tokens, the key (`widthByFirst`; the first token unless `keyAt`), or on a count inside them (`countAt`:
 * that many more tokens, the tail).
 */
const VariableRecordsSchema = z.strictObject({
  width: z.int().describe('tokens of a record, unless widthByFirst has its key token'),
  keyAt: z.int().describe('column of the key token that widthByFirst, first and notFirst compare (0: the first token)'),
  widthByFirst: z.array(z.tuple([z.string(), z.int()])).describe('[key token value, width] pairs in source order, compared case-insensitively'),
  countAt: z.int().nullable().describe('column holding a count N: the record has N more tokens after its width'),
  first: z.array(z.string()).nullable().describe('only records whose key token is one of these (case-insensitive)'),
  notFirst: z.array(z.string()).nullable().describe('only records whose key token is none of these (case-insensitive)'),
  tail: z.boolean().describe('true: the N tokens after the width; false: column `index` of each record'),
});

/** Every optional part is present, `null` when the source did not set it: 0 and absent differ. */
const TargetSpecSchema = z.strictObject({
  kind: TargetKindSchema,
  section: z.string().nullable().describe('section name without brackets, matched case-insensitively'),
  index: z.int().nullable(),
  range: RangeSchema.nullable(),
  offset: z.int().nullable(),
  groupOffset: z.int().nullable(),
  standaloneValues: z.array(z.int()).nullable(),
  recordTokens: z.int().nullable(),
  tokensPerLineIndex: z.int().nullable(),
  contextIndex: z.int().nullable(),
  imagePathToken: z.int().nullable(),
  parent: z.string().nullable().describe('pvfdoc extension: the direct enclosing section must have this name'),
  notInside: z.array(z.string()).nullable().describe('pvfdoc extension: no enclosing section (any depth) may have one of these names'),
  after: z.array(z.string()).nullable().describe('pvfdoc extension: the section opened right before this one (text order, any depth) has one of these names'),
  topLevel: z.boolean().describe('pvfdoc extension: the target is the tokens before the first section (as one section\'s direct tokens)'),
  sectionPattern: z
    .string()
    .nullable()
    .describe('pvfdoc extension: section names matching this Go path.Match pattern (case-insensitive), instead of section'),
  when: z
    .array(WhenConditionSchema)
    .nullable()
    .describe('pvfdoc extension: the rule applies only in files where every condition holds'),
  countedGroups: CountedGroupsSchema.nullable().describe('pvfdoc extension: the section is count-prefixed groups of records'),
  variableRecords: VariableRecordsSchema.nullable().describe('pvfdoc extension: records whose width depends on their own tokens'),
});

/** A JSON value (the type of `z.json()`). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Whether `value` is a JSON value: what `z.json()` accepts, checked by one plain walk. `z.json()` is a
 * recursive union that costs about half of all the checks of documents.json on load.
 */
export function isJsonValue(value: unknown): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every(isJsonValue);
}

export const JsonValueSchema = z.custom<JsonValue>(isJsonValue, { message: 'not a JSON value' });

export const AnnotationTypeSchema = z.enum(['text', 'enum', 'reference', 'path', 'image']);

/** The annotation block without its `values` map (values are paged separately). */
const AnnotationSpecSchema = z.strictObject({
  title: z.string(),
  content: z.string(),
  type: AnnotationTypeSchema,
  relation: z.string().nullable(),
  pathRoot: z.string().nullable(),
  inlineImage: z.boolean().nullable(),
  hasValues: z.boolean().describe('whether the source set a values map (valueCount says how many)'),
  sentinels: z
    .array(z.tuple([z.string(), z.string()]))
    .nullable()
    .describe('pvfdoc extension: values with a fixed meaning, [value, label] in source order; such a token is not looked up'),
  columns: z.array(z.string()).nullable().describe('pvfdoc extension: title of each column of a record ("" = the annotation title)'),
});

/** How far a definition can be trusted (pvfdoc extension `trust`; null when the source does not say). */
export const TrustSchema = z
  .enum(['confirmed', 'likely', 'unverified'])
  .describe('confirmed = independent sources agree; likely = one source; unverified = not checked');

export const PreviewSpecSchema = z.strictObject({
  providers: z.array(z.string()),
  role: z.string(),
  group: z.string(),
  order: z.int().nullable(),
  format: z.string(),
  label: z.string().nullable(),
});

export const ResolvedDefinitionSchema = z.strictObject({
  match: MatchSpecSchema,
  target: TargetSpecSchema,
  annotation: AnnotationSpecSchema,
  preview: PreviewSpecSchema.nullable(),
});

export const VersionStateSchema = z
  .enum([...DefinitionStatusSchema.options, 'notApplicable', 'suppressed'])
  .describe('status in one version context: notApplicable = pvfVersions exclude it; suppressed = an explicit rule replaces this implicit field rule');

export const VersionStatusSchema = z.strictObject({
  state: VersionStateSchema,
  effective: z.boolean(),
  reason: z.string().nullable(),
});

export const DocumentSchema = z.strictObject({
  documentId: z.string(),
  kind: DefinitionKindSchema,
  id: z.string().describe('rule id (for generated rules "field:<fieldId>") or field id'),
  origin: OriginSchema,
  layer: z.string(),
  layerIndex: z.int(),
  source: SourceCategorySchema,
  sourcePointer: z.string().describe('file and JSON path inside the layer, e.g. annotations.json#rules[3]'),
  fieldId: z.string().nullable().describe('shared field a rule uses, or the field a generated rule comes from'),
  group: z.string().nullable(),
  description: z.string(),
  title: z.string(),
  content: z.string(),
  summary: z.string(),
  summaryTruncated: z.boolean(),
  section: z.string().nullable(),
  targetKind: TargetKindSchema,
  annotationType: AnnotationTypeSchema,
  relation: z.string().nullable(),
  pvfVersions: z.array(z.string()),
  match: MatchSpecSchema,
  valueCount: z.int(),
  status: DefinitionStatusSchema,
  statusReason: z.string().nullable(),
  overriddenBy: z.string().nullable().describe('documentId of the overriding definition'),
  versions: z.record(VersionKeySchema, VersionStatusSchema),
  resolved: ResolvedDefinitionSchema,
  raw: JsonValueSchema.describe('the definition as written, values map omitted'),
  trust: TrustSchema.nullable().describe('pvfdoc extension: how far the definition can be trusted; null = not stated'),
  sources: z.array(z.string()).describe('pvfdoc extension: source keys the definition is based on, e.g. "OFF/equipmentsample.equ"'),
});

/**
 * A document as documents.json stores it. Each text is stored once: `title` and `content` are those of
 * `resolved.annotation`, and `summary` is left out when it equals `content` (the usual case). Readers
 * get full documents (DocumentSchema) from `fromStoredDocument`.
 */
export const StoredDocumentSchema = DocumentSchema.omit({ title: true, content: true, summary: true }).extend({
  summary: z.string().optional().describe('only when it differs from resolved.annotation.content'),
});

export function toStoredDocument(doc: BundleDocument): StoredDocument {
  const { title, content, summary, ...rest } = doc;
  if (title !== doc.resolved.annotation.title || content !== doc.resolved.annotation.content) {
    throw new Error(`internal: document ${doc.documentId} has a title or content other than its resolved annotation's`);
  }
  return summary === content ? rest : { ...rest, summary };
}

/**
 * The full document of a stored one. Written out member by member: every document then has the same
 * shape, and property reads stay fast (an object built by rest/spread of this many members can end up
 * a slow dictionary object, which made every filter of a search several times slower).
 *
 * With `rawGetter`, `raw` is an enumerable accessor that reads the raw definition when first asked
 * (load-bundle.ts reads them lazily); one getter shared by every document keeps them one shape.
 */
export function fromStoredDocument(d: StoredDocument, rawGetter?: (this: BundleDocument) => JsonValue): BundleDocument {
  const { title, content } = d.resolved.annotation;
  const doc = {
    documentId: d.documentId,
    kind: d.kind,
    id: d.id,
    origin: d.origin,
    layer: d.layer,
    layerIndex: d.layerIndex,
    source: d.source,
    sourcePointer: d.sourcePointer,
    fieldId: d.fieldId,
    group: d.group,
    description: d.description,
    title,
    content,
    summary: d.summary ?? content,
    summaryTruncated: d.summaryTruncated,
    section: d.section,
    targetKind: d.targetKind,
    annotationType: d.annotationType,
    relation: d.relation,
    pvfVersions: d.pvfVersions,
    match: d.match,
    valueCount: d.valueCount,
    status: d.status,
    statusReason: d.statusReason,
    overriddenBy: d.overriddenBy,
    versions: d.versions,
    resolved: d.resolved,
  } as BundleDocument;
  // Members after `raw` are added in order, so keys keep DocumentSchema's order whichever raw it is.
  if (rawGetter) Object.defineProperty(doc, 'raw', { get: rawGetter, enumerable: true, configurable: false });
  else doc.raw = d.raw;
  doc.trust = d.trust;
  doc.sources = d.sources;
  return doc;
}

export const DocumentsFileSchema = z.strictObject({
  documents: z.array(StoredDocumentSchema),
  /** Per version context, the effective rules in explain order (explicit, then generated field rules). */
  ruleOrder: z.record(VersionKeySchema, z.array(z.string())),
});

export const ValuesFileSchema = z.strictObject({
  values: z.record(z.string(), z.array(z.tuple([z.string(), z.string()]))),
});

export const RelationProblemSchema = z.strictObject({
  kind: z.enum(['cycle', 'missing', 'disabled']),
  member: z.string().nullable(),
  message: z.string(),
});

export const RelationSchema = z.strictObject({
  name: z.string(),
  layer: z.string(),
  layerIndex: z.int(),
  source: SourceCategorySchema,
  sourcePointer: z.string(),
  status: DefinitionStatusSchema,
  statusReason: z.string().nullable(),
  kind: RelationKindSchema,
  listPath: z.string().nullable(),
  idToken: z.int(),
  pathToken: z.int(),
  recordTokens: z.int().nullable(),
  effectiveRecordTokens: z.int(),
  nameSection: z.string().nullable(),
  contextToken: z.int().nullable(),
  contextPaths: z.array(z.tuple([z.string(), z.string()])).nullable().describe('context value → list path, in source order'),
  members: z.array(z.string()).nullable(),
  /** Union members flattened in lookup order (only effective, existing, acyclic members). */
  resolvedMembers: z.array(z.string()),
  /** Every .lst path a lookup may read, with the layout fallbacks of rule-format §4.3. */
  listPaths: z.array(z.string()),
  problems: z.array(RelationProblemSchema),
  raw: JsonValueSchema,
});

export const RelationsFileSchema = z.strictObject({
  relations: z.array(RelationSchema),
});

const RenderingRuleSchema = z.strictObject({
  id: z.string(),
  layer: z.string(),
  layerIndex: z.int(),
  status: DefinitionStatusSchema,
  statusReason: z.string().nullable(),
  description: z.string(),
  match: MatchSpecSchema,
  target: z.strictObject({ kind: z.enum(['file', 'section']), section: z.string().nullable() }),
  format: z.strictObject({
    tokensPerLine: z.int(),
    offset: z.int().nullable(),
    tokensPerLineIndex: z.int().nullable(),
    standaloneValues: z.array(z.int()).nullable(),
    nestedSections: z.array(z.string()).nullable(),
  }),
});

export const RenderingFileSchema = z.strictObject({
  /** Effective rendering rules in precedence order (later wins ties, as in pvfine). */
  rules: z.array(RenderingRuleSchema),
});

const TokenizerInfoSchema = z.strictObject({ id: z.string(), version: z.int() });

export const SearchIndexFileSchema = z.strictObject({
  tokenizer: TokenizerInfoSchema,
  /** Position i is the documentId of documents.json's document i, which the postings refer to. */
  documentIds: z.array(z.string()),
  /** Term (a code-unit bigram or unigram of lower-cased text) → its gap-encoded document positions. */
  terms: z.record(z.string(), z.string()).describe('term → posting list (runtime/bundle/search-index.ts)'),
});

const LayerInfoSchema = z.strictObject({
  name: z.string(),
  kind: SourceCategorySchema,
  description: z.string(),
  contentHash: z.string(),
  pvfVersions: z.array(z.string()),
  disable: z.array(z.string()),
  counts: z.strictObject({
    rules: z.int(),
    fields: z.int(),
    relations: z.int(),
    renderingRules: z.int(),
  }),
});

export const ManifestSchema = z.strictObject({
  schemaVersion: z.literal(SCHEMA_VERSION),
  rulesRevision: z.string(),
  engine: z.strictObject({ name: z.literal('pvfdoc'), version: z.string() }),
  tokenizer: TokenizerInfoSchema,
  layers: z.array(LayerInfoSchema),
  pvfVersions: z.array(z.string()),
  counts: z.strictObject({
    documents: z.int(),
    rules: z.int(),
    fields: z.int(),
    generatedRules: z.int(),
    relations: z.int(),
    renderingRules: z.int(),
    enumValues: z.int(),
    effectiveByVersion: z.record(VersionKeySchema, z.int()),
  }),
  files: z.array(z.strictObject({ name: z.string(), sha256: z.string(), bytes: z.int() })),
});

export type SourceCategory = z.output<typeof SourceCategorySchema>;
export type DefinitionStatus = z.output<typeof DefinitionStatusSchema>;
export type TargetKind = z.output<typeof TargetKindSchema>;
export type DefinitionKind = z.output<typeof DefinitionKindSchema>;
export type Origin = z.output<typeof OriginSchema>;
export type RelationKind = z.output<typeof RelationKindSchema>;
export type MatchSpec = z.output<typeof MatchSpecSchema>;
export type TargetSpec = z.output<typeof TargetSpecSchema>;
export type WhenCondition = z.output<typeof WhenConditionSchema>;
export type CountedGroups = z.output<typeof CountedGroupsSchema>;
export type VariableRecords = z.output<typeof VariableRecordsSchema>;
export type AnnotationType = z.output<typeof AnnotationTypeSchema>;
export type Trust = z.output<typeof TrustSchema>;
export type AnnotationSpec = z.output<typeof AnnotationSpecSchema>;
export type PreviewSpec = z.output<typeof PreviewSpecSchema>;
export type ResolvedDefinition = z.output<typeof ResolvedDefinitionSchema>;
export type VersionState = z.output<typeof VersionStateSchema>;
export type VersionStatus = z.output<typeof VersionStatusSchema>;
export type BundleDocument = z.output<typeof DocumentSchema>;
type StoredDocument = z.output<typeof StoredDocumentSchema>;
export type RelationProblem = z.output<typeof RelationProblemSchema>;
export type BundleRelation = z.output<typeof RelationSchema>;
export type RenderingRule = z.output<typeof RenderingRuleSchema>;
export type TokenizerInfo = z.output<typeof TokenizerInfoSchema>;
export type SearchIndexFile = z.output<typeof SearchIndexFileSchema>;
export type Manifest = z.output<typeof ManifestSchema>;
