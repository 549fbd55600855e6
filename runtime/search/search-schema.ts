/**
 * Arguments and result of `pvf_annotation_search` (protocol: 规则搜索). The MCP tool, the CLI and the
 * site use these schemas as they are.
 */
import { z } from 'zod';
import {
  AnnotationTypeSchema,
  DefinitionKindSchema,
  OriginSchema,
  PathKindSchema,
  SourceCategorySchema,
  TargetKindSchema,
  TrustSchema,
  VersionStateSchema,
} from '../bundle/schema.js';

export const DEFAULT_SEARCH_LIMIT = 20;
const MAX_SEARCH_LIMIT = 100;
export const MAX_MATCHED_VALUES = 5;
/** Search pages shrink to stay under this many bytes of JSON. */
export const MAX_SEARCH_RESPONSE_BYTES = 256 * 1024;

export const SearchInputSchema = z.strictObject({
  query: z.string().max(1000).optional().describe('keywords split on whitespace (a bracketed group such as "[skill levelup]" is one word); every word must appear (AND), as a case-insensitive substring of id, description, title, content, section, field id, relation name, enum keys/labels, sentinel labels or column titles'),
  filePath: z.string().max(1000).optional().describe('archive-internal path with "/" (may be a file that does not exist yet); only definitions whose match applies to it are returned'),
  pathKind: PathKindSchema.optional().describe('"file" (default) or "directory"; directory returns only path notes of that folder itself'),
  extensions: z.array(z.string().max(32)).max(50).optional().describe('extensions with the dot, e.g. [".equ", ".stk"]; any of them (OR)'),
  section: z.string().max(200).optional().describe('section name, with or without one pair of brackets, e.g. "rarity" or "[rarity]"'),
  kinds: z.array(DefinitionKindSchema).optional().describe('"rule" and/or "field"; default both'),
  targetKinds: z.array(TargetKindSchema).optional().describe('target kinds (TargetSpec.kind), any of them'),
  annotationTypes: z.array(AnnotationTypeSchema).optional().describe('annotation types (AnnotationSpec.type), any of them'),
  relation: z.string().max(200).optional().describe('relation name, exact'),
  trust: z.array(TrustSchema).optional().describe('"confirmed", "likely" and/or "unverified": only definitions that state one of these trust levels (any of them)'),
  pvfVersion: z.string().max(32).optional().describe('"current" (default; needs workspaceId), "all" (no version filtering), or a version such as "110US"'),
  workspaceId: z.string().max(200).optional().describe('from workspace_info; required when pvfVersion is "current"'),
  status: z.enum(['effective', 'all']).optional().describe('"effective" (default) or "all" to include disabled, overridden and not-applicable definitions with their reason'),
  cursor: z.string().max(2000).optional().describe('nextCursor of the previous page; omit on the first call'),
  limit: z.int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`page size, 1–${MAX_SEARCH_LIMIT}, default ${DEFAULT_SEARCH_LIMIT}`),
});

const SearchItemSchema = z.strictObject({
  documentId: z.string().describe('opaque id for pvf_annotation_get, valid within this rulesRevision'),
  kind: DefinitionKindSchema,
  ruleId: z.string().nullable().describe('rule id (generated rules: "field:<fieldId>"); null for a field'),
  fieldId: z.string().nullable(),
  origin: OriginSchema,
  title: z.string(),
  summary: z.string().describe('at most 512 code points'),
  summaryTruncated: z.boolean(),
  section: z.string().nullable(),
  targetKind: TargetKindSchema,
  annotationType: AnnotationTypeSchema,
  pvfVersions: z.array(z.string()).describe('versions the definition is limited to; [] = all'),
  effective: z.boolean(),
  state: VersionStateSchema,
  statusReason: z.string().nullable(),
  applicability: z.enum(['matched', 'unknown']),
  matchReasons: z.array(z.string()),
  valueCount: z.int(),
  relation: z.string().nullable(),
  layer: z.string(),
  source: SourceCategorySchema,
  trust: TrustSchema.nullable().describe('how far the definition can be trusted; null = not stated'),
  when: z
    .array(z.strictObject({ section: z.string(), index: z.int(), values: z.array(z.string()) }))
    .optional()
    .describe('only for a rule that applies to some files: it applies where token `index` of the file\'s first [section] is one of `values` (all conditions)'),
  matchedValues: z.array(z.strictObject({ key: z.string(), label: z.string() })).optional(),
  implicitRuleDocumentId: z.string().nullable().optional().describe('field hits: documentId of its implicit "field:<id>" rule, merged into this hit; else null'),
  implicitRuleId: z.string().nullable().optional().describe('that rule\'s ruleId, or null'),
  url: z.string().optional().describe('page of this document on the reference site; only when the server knows the site (serve --site-url, or the site it serves itself)'),
});

export const SearchOutputSchema = z.strictObject({
  schemaVersion: z.literal(1),
  rulesRevision: z.string(),
  context: z.strictObject({
    workspaceId: z.string().nullable(),
    pvfVersion: z.string().describe('"all", or the version the results were filtered for ("" = unknown version)'),
    filePath: z.string().nullable(),
  }),
  items: z.array(SearchItemSchema),
  totalMatches: z.int(),
  nextCursor: z.string().nullable(),
  truncated: z.boolean().describe('true when the page holds fewer than limit items to stay under the response size limit; continue with nextCursor'),
  warnings: z.array(z.string()).optional().describe('unknown relation/section, with the closest known names; filters are still applied as given'),
  suggestions: z
    .array(z.strictObject({ query: z.string(), totalMatches: z.int() }))
    .optional()
    .describe('no matches only: shorter queries that would match with the same filters, with their hit counts'),
});

/** Parsed arguments: what the core function takes, checked once where the request came in. */
export type SearchInput = z.output<typeof SearchInputSchema>;
export type SearchItem = z.output<typeof SearchItemSchema>;
export type SearchOutput = z.output<typeof SearchOutputSchema>;
