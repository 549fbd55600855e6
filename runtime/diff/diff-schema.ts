/**
 * The JSON form of a snapshot diff (`pvfdoc diff --format json`), defined once as zod schemas with
 * inferred types. It lives in runtime/ although build/diff computes it: the site's changes page reads it
 * too, and the site may import runtime/ but never build/. Tools parse it through `SnapshotDiffSchema`.
 * `formatVersion` is bumped on any incompatible change of this shape.
 */
import { z } from 'zod';
import {
  DefinitionKindSchema,
  DefinitionStatusSchema,
  OriginSchema,
  RelationKindSchema,
  SourceCategorySchema,
  VersionStatusSchema,
} from '../bundle/schema.js';

export const DIFF_FORMAT_VERSION = 1;

const Json = z.json();

export const ChangeKindSchema = z.enum(['added', 'removed', 'moved', 'changed']);

/** A layer is known by its name, so it cannot move: a renamed layer is one removed and one added. */
const LayerChangeKindSchema = ChangeKindSchema.exclude(['moved']);

/** One side of the diff. */
const DiffSideSchema = z.strictObject({
  rulesRevision: z.string(),
  schemaVersion: z.int(),
  layers: z.array(z.string()).describe('layer names in build order'),
  pvfVersions: z.array(z.string()).describe('supported client versions'),
  documents: z.int(),
});

/** A document as the diff names it. */
const DocumentRefSchema = z.strictObject({
  documentId: z.string(),
  kind: DefinitionKindSchema,
  id: z.string().describe('rule id ("field:<fieldId>" for an implicit field rule) or field id'),
  origin: OriginSchema,
  layer: z.string(),
  source: SourceCategorySchema,
  title: z.string(),
  status: DefinitionStatusSchema,
});

const PartChangeSchema = z.strictObject({
  part: z
    .string()
    .describe(
      'layer, source, status ({status, reason}), match.extensions, match.glob, target.<member>, annotation.type|title|content|relation|pathRoot|inlineImage|sentinels|columns, preview or preview.<member>, description, group, field, pvfVersions, trust, sources, values (value counts; see enumValues), raw (only when nothing else changed)',
    ),
  old: Json,
  new: Json,
});

const DocumentChangeSchema = z.strictObject({
  change: ChangeKindSchema.describe('moved: same identity (kind, origin, id), other layer or documentId'),
  old: DocumentRefSchema.nullable(),
  new: DocumentRefSchema.nullable(),
  parts: z.array(PartChangeSchema).describe('empty for added and removed'),
});

const EnumPairSchema = z.tuple([z.string(), z.string()]);

/** Changes of one enum, shared by every document listed (a field and its implicit rule hold the same values). */
const EnumChangeSchema = z.strictObject({
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

const EffectiveChangeSchema = z.strictObject({
  document: DocumentRefSchema.describe('the new-side document'),
  oldDocumentId: z.string().describe('differs from document.documentId when the document moved'),
  transitions: z
    .array(
      z.strictObject({
        versions: z.array(z.string()).describe('version contexts with this transition; "" is an archive of unknown version'),
        old: VersionStatusSchema,
        new: VersionStatusSchema,
      }),
    )
    .min(1),
});

const FileTypeDiffSchema = z.strictObject({
  fileType: z.string().describe('".equ" (or ".equ, .stk" for several), "(all files)" or "(path rules)"'),
  documents: z.array(DocumentChangeSchema),
  enumValues: z.array(EnumChangeSchema),
  effective: z.array(EffectiveChangeSchema),
});

const RelationRefSchema = z.strictObject({
  name: z.string(),
  layer: z.string(),
  kind: RelationKindSchema,
  status: DefinitionStatusSchema,
});

const RelationChangeSchema = z.strictObject({
  change: ChangeKindSchema,
  old: RelationRefSchema.nullable(),
  new: RelationRefSchema.nullable(),
  parts: z.array(PartChangeSchema),
});

const RenderingRefSchema = z.strictObject({ id: z.string(), layer: z.string(), status: DefinitionStatusSchema });

const RenderingChangeSchema = z.strictObject({
  change: ChangeKindSchema,
  old: RenderingRefSchema.nullable(),
  new: RenderingRefSchema.nullable(),
  parts: z.array(PartChangeSchema),
});

const LayerChangeSchema = z.strictObject({
  change: LayerChangeKindSchema,
  name: z.string(),
  kind: SourceCategorySchema,
  parts: z.array(PartChangeSchema).describe('kind, description, pvfVersions, disable'),
});

const VersionCountSchema = z.strictObject({ version: z.string(), effective: z.int().describe('documents effective in it') });

const BundleChangesSchema = z.strictObject({
  pvfVersions: z.strictObject({ added: z.array(VersionCountSchema), removed: z.array(VersionCountSchema) }),
  layers: z.array(LayerChangeSchema),
  layerOrder: z.strictObject({ old: z.array(z.string()), new: z.array(z.string()) }).nullable().describe('set when layers both sides have are in another order'),
  ruleOrder: z.array(z.string()).describe('version contexts whose effective rule order (of rules on both sides) changed'),
  renderingOrder: z.boolean().describe('the precedence order of the rendering rules both sides have changed'),
  notes: z.array(z.string()),
});

const AddRemoveMoveChange = z.strictObject({ added: z.int(), removed: z.int(), moved: z.int(), changed: z.int() });

const DiffSummarySchema = z.strictObject({
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

export type ChangeKind = z.output<typeof ChangeKindSchema>;
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
