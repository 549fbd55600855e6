/**
 * Arguments and result of `pvf_annotation_get` (protocol: 文档详情).
 */
import { z } from 'zod';
import {
  DefinitionKindSchema,
  DefinitionStatusSchema,
  OriginSchema,
  PreviewSpecSchema,
  RelationSchema,
  ResolvedDefinitionSchema,
  SourceCategorySchema,
  TrustSchema,
  VersionStatusSchema,
} from '../bundle/schema.js';

export const DEFAULT_VALUES_LIMIT = 50;
export const MAX_VALUES_LIMIT = 100;
/** A get response larger than this is refused with RESPONSE_TOO_LARGE rather than cut. */
export const MAX_GET_RESPONSE_BYTES = 512 * 1024;

export const GetInputSchema = z.strictObject({
  documentId: z.string().min(1).max(200).describe('documentId from pvf_annotation_search items of the same rulesRevision'),
  rulesRevision: z.string().max(100).optional().describe('rulesRevision of the search that gave the documentId; a different active snapshot gives STALE_RULES'),
  value: z.string().max(1000).optional().describe('exact enum key to look up, compared as a string ("001" and "1" differ)'),
  valuesCursor: z.string().max(2000).optional().describe('valuesNextCursor of the previous call; omit for the first page'),
  valuesLimit: z.int().min(1).max(MAX_VALUES_LIMIT).optional().describe(`enum values per page, 1–${MAX_VALUES_LIMIT}, default ${DEFAULT_VALUES_LIMIT}`),
});

/** A relation as get shows it: the bundle's fields (types taken from its schema), in reading order. */
const relation = RelationSchema.shape;
const GetRelationSchema = z.strictObject({
  name: relation.name,
  kind: relation.kind,
  status: relation.status,
  statusReason: relation.statusReason,
  layer: relation.layer,
  source: relation.source,
  listPath: relation.listPath,
  idToken: relation.idToken,
  pathToken: relation.pathToken,
  recordTokens: relation.recordTokens,
  effectiveRecordTokens: relation.effectiveRecordTokens,
  nameSection: relation.nameSection,
  contextRequired: z.boolean().describe('true when a lookup needs a context token (e.g. a job tag)'),
  contextToken: relation.contextToken,
  contextPaths: z.array(z.strictObject({ context: z.string(), listPath: z.string() })).nullable(),
  members: relation.members,
  resolvedMembers: z.array(z.string()),
  listPaths: z.array(z.string()).describe('archive .lst paths a lookup may read, layout fallbacks included'),
  problems: relation.problems,
});

export const GetOutputSchema = z.strictObject({
  schemaVersion: z.literal(1),
  rulesRevision: z.string(),
  document: z.strictObject({
    documentId: z.string(),
    url: z.string().optional().describe('page of this document on the reference site; only when the server knows the site (serve --site-url, or the site it serves itself)'),
    kind: DefinitionKindSchema,
    ruleId: z.string().nullable(),
    fieldId: z.string().nullable(),
    origin: OriginSchema,
    layer: z.string(),
    source: SourceCategorySchema,
    sourcePointer: z.string(),
    group: z.string().nullable(),
    description: z.string(),
    title: z.string(),
    content: z.string(),
    pvfVersions: z.array(z.string()),
    status: DefinitionStatusSchema,
    statusReason: z.string().nullable(),
    overriddenBy: z.string().nullable(),
    versions: z.record(z.string(), VersionStatusSchema),
    trust: TrustSchema.nullable().describe('how far the definition can be trusted (pvfdoc extension); null = not stated'),
    sources: z.array(z.string()).describe('source keys the definition is based on, e.g. "OFF/equipmentsample.equ"'),
  }),
  definitionsOmitValues: z.literal(true),
  rawDefinition: z.json(),
  resolvedDefinition: ResolvedDefinitionSchema,
  preview: PreviewSpecSchema.nullable(),
  valueCount: z.int(),
  values: z.array(z.strictObject({ key: z.string(), label: z.string() })),
  valuesNextCursor: z.string().nullable(),
  valueLookup: z.strictObject({ key: z.string(), found: z.boolean(), label: z.string().nullable() }).nullable(),
  relations: z.array(GetRelationSchema),
});

/** Parsed arguments: what the core function takes, checked once where the request came in. */
export type GetInput = z.output<typeof GetInputSchema>;
export type GetOutput = z.output<typeof GetOutputSchema>;
export type GetRelation = z.output<typeof GetRelationSchema>;
