/**
 * The JSON form of a snapshot diff (`pvfdoc diff --format json`), defined once as zod schemas with
 * inferred types. Tools and the site's changes page parse it through `SnapshotDiffSchema`.
 * `formatVersion` is bumped on any incompatible change of this shape.
 */
import { z } from 'zod';
import { DefinitionStatusSchema, SourceCategorySchema, VersionStateSchema } from '../../runtime/bundle/schema.js';

export const DIFF_FORMAT_VERSION = 1;

const Json = z.json();

/** One side of the diff. */
export const DiffSideSchema = z.strictObject({
  rulesRevision: z.string(),
  schemaVersion: z.int(),
  layers: z.array(z.string()).describe('layer names in build order'),
  pvfVersions: z.array(z.string()).describe('supported client versions'),
  documents: z.int(),
});

/** A document as the diff names it. */
export const DocumentRefSchema = z.strictObject({
  documentId: z.string(),
  kind: z.enum(['rule', 'field']),
  id: z.string().describe('rule id ("field:<fieldId>" for an implicit field rule) or field id'),
  origin: z.enum(['configured', 'generated']),
  layer: z.string(),
  source: SourceCategorySchema,
  title: z.string(),
  status: DefinitionStatusSchema,
});

export const PartChangeSchema = z.strictObject({
  part: z
    .string()
    .describe(
      'layer, source, status ({status, reason}), match.extensions, match.glob, target.<member>, annotation.type|title|content|relation|pathRoot|inlineImage|sentinels|columns, preview or preview.<member>, description, group, field, pvfVersions, trust, sources, values (value counts; see enumValues), raw (only when nothing else changed)',
    ),
  old: Json,
  new: Json,
});

export const DocumentChangeSchema = z.strictObject({
  change: z.enum(['added', 'removed', 'moved', 'changed']).describe('moved: same identity (kind, origin, id), other layer or documentId'),
  old: DocumentRefSchema.nullable(),
  new: DocumentRefSchema.nullable(),
  parts: z.array(PartChangeSchema).describe('empty for added and removed'),
});

const EnumPairSchema = z.tuple([z.string(), z.string()]);

/** Changes of one enum, shared by every document listed (a field and its implicit rule hold the same values). */
export const EnumChangeSchema = z.strictObject({
  documents: z.array(DocumentRefSchema).min(1).describe('new-side documents whose values changed exactly like this'),
  oldCount: z.int(),
  newCount: z.int(),
  added: z.strictObject({ count: z.int(), items: z.array(EnumPairSchema).describe('[key, label], the first few') }),
  removed: z.strictObject({ count: z.int(), items: z.array(EnumPairSchema) }),
  relabelled: z.strictObject({
    count: z.int(),
    items: z.array(z.strictObject({ key: z.string(), old: z.string(), new: z.string() })),
  }),
  reordered: z.boolean().describe('keys in both lists appear in another order'),
});

export const VersionStateValueSchema = z.strictObject({ state: VersionStateSchema, effective: z.boolean(), reason: z.string().nullable() });

export const EffectiveChangeSchema = z.strictObject({
  document: DocumentRefSchema.describe('the new-side document'),
  oldDocumentId: z.string().describe('differs from document.documentId when the document moved'),
  transitions: z
    .array(
      z.strictObject({
        versions: z.array(z.string()).describe('version contexts with this transition; "" is an archive of unknown version'),
        old: VersionStateValueSchema,
        new: VersionStateValueSchema,
      }),
    )
    .min(1),
});

export const FileTypeDiffSchema = z.strictObject({
  fileType: z.string().describe('".equ" (or ".equ, .stk" for several), "(all files)" or "(path rules)"'),
  documents: z.array(DocumentChangeSchema),
  enumValues: z.array(EnumChangeSchema),
  effective: z.array(EffectiveChangeSchema),
});

export const RelationRefSchema = z.strictObject({
  name: z.string(),
  layer: z.string(),
  kind: z.enum(['list', 'contextual', 'union']),
  status: DefinitionStatusSchema,
});

export const RelationChangeSchema = z.strictObject({
  change: z.enum(['added', 'removed', 'moved', 'changed']),
  old: RelationRefSchema.nullable(),
  new: RelationRefSchema.nullable(),
  parts: z.array(PartChangeSchema),
});

export const RenderingRefSchema = z.strictObject({ id: z.string(), layer: z.string(), status: DefinitionStatusSchema });

export const RenderingChangeSchema = z.strictObject({
  change: z.enum(['added', 'removed', 'moved', 'changed']),
  old: RenderingRefSchema.nullable(),
  new: RenderingRefSchema.nullable(),
  parts: z.array(PartChangeSchema),
});

export const LayerChangeSchema = z.strictObject({
  change: z.enum(['added', 'removed', 'changed']),
  name: z.string(),
  kind: SourceCategorySchema,
  parts: z.array(PartChangeSchema).describe('kind, description, pvfVersions, disable'),
});

export const VersionCountSchema = z.strictObject({ version: z.string(), effective: z.int().describe('documents effective in it') });

export const BundleChangesSchema = z.strictObject({
  pvfVersions: z.strictObject({ added: z.array(VersionCountSchema), removed: z.array(VersionCountSchema) }),
  layers: z.array(LayerChangeSchema),
  layerOrder: z.strictObject({ old: z.array(z.string()), new: z.array(z.string()) }).nullable().describe('set when layers both sides have are in another order'),
  ruleOrder: z.array(z.string()).describe('version contexts whose effective rule order (of rules on both sides) changed'),
  renderingOrder: z.boolean().describe('the precedence order of the rendering rules both sides have changed'),
  notes: z.array(z.string()),
});

const AddRemoveMoveChange = z.strictObject({ added: z.int(), removed: z.int(), moved: z.int(), changed: z.int() });

export const DiffSummarySchema = z.strictObject({
  documents: AddRemoveMoveChange,
  enumValues: z.strictObject({ enums: z.int(), added: z.int(), removed: z.int(), relabelled: z.int(), reordered: z.int() }),
  effective: z.strictObject({ documents: z.int() }),
  relations: AddRemoveMoveChange,
  rendering: AddRemoveMoveChange,
  layers: z.strictObject({ added: z.int(), removed: z.int(), changed: z.int() }),
});

export const SnapshotDiffSchema = z.strictObject({
  formatVersion: z.literal(DIFF_FORMAT_VERSION),
  old: DiffSideSchema,
  new: DiffSideSchema,
  hasChanges: z.boolean().describe('false when nothing below is reported'),
  summary: DiffSummarySchema,
  bundle: BundleChangesSchema,
  fileTypes: z.array(FileTypeDiffSchema).describe('only file types with a change; "(all files)" first, "(path rules)" last'),
  relations: z.array(RelationChangeSchema),
  rendering: z.array(RenderingChangeSchema),
});

export type DiffSide = z.output<typeof DiffSideSchema>;
export type DocumentRef = z.output<typeof DocumentRefSchema>;
export type DiffPartChange = z.output<typeof PartChangeSchema>;
export type DocumentChange = z.output<typeof DocumentChangeSchema>;
export type EnumChange = z.output<typeof EnumChangeSchema>;
export type EffectiveChange = z.output<typeof EffectiveChangeSchema>;
export type FileTypeDiff = z.output<typeof FileTypeDiffSchema>;
export type RelationRef = z.output<typeof RelationRefSchema>;
export type RelationChange = z.output<typeof RelationChangeSchema>;
export type RenderingRef = z.output<typeof RenderingRefSchema>;
export type RenderingChange = z.output<typeof RenderingChangeSchema>;
export type LayerChange = z.output<typeof LayerChangeSchema>;
export type BundleChanges = z.output<typeof BundleChangesSchema>;
export type DiffSummary = z.output<typeof DiffSummarySchema>;
export type SnapshotDiff = z.output<typeof SnapshotDiffSchema>;
