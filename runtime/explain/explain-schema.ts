/**
 * Arguments and result of `pvf_annotation_explain` (protocol: 实际文件解释; protocol-notes: Explain).
 */
import { z } from 'zod';
import { formatIssues } from '../bundle/format-issues.js';
import { AnnotationTypeSchema, PathKindSchema, TrustSchema } from '../bundle/schema.js';
import { PvfdocError } from '../errors.js';
import { LinkResolutionStatusSchema, ResolutionStatusSchema } from '../references/reference-query.js';
import { TOKEN_VALUE_TYPES } from '../script/parse-script-view.js';

export const DEFAULT_EXPLAIN_LIMIT = 20;
export const MAX_EXPLAIN_LIMIT = 100;
/** Explain pages shrink to stay under this many bytes of JSON. */
export const MAX_EXPLAIN_RESPONSE_BYTES = 256 * 1024;
/**
 * A page also ends once its JSON would pass this many bytes (truncated + nextCursor), so one page stays
 * affordable in an agent's context (about 8 k tokens) even with limit 100. A single larger annotation is
 * still returned alone, up to MAX_EXPLAIN_RESPONSE_BYTES.
 */
export const EXPLAIN_PAGE_BUDGET_BYTES = 24 * 1024;
/** Longest annotation summary (UTF-16 code units, ellipsis included); the full text is in `documents`. */
export const MAX_EXPLAIN_SUMMARY = 80;

export const ExplainInputSchema = z.strictObject({
  workspaceId: z.string().min(1).max(200).describe('from workspace_info'),
  expectedRevision: z.int().min(0).describe('the workspace revision from workspace_info (or the previous explain); another value gives STALE_WORKSPACE'),
  filePath: z.string().min(1).max(1000).describe('archive-internal path of an existing script file, with "/" (from list_files)'),
  rulesRevision: z.string().max(100).optional().describe('rulesRevision you expect; another active snapshot gives STALE_RULES'),
  section: z.string().max(200).optional().describe('only annotations inside sections of this name (with or without brackets)'),
  occurrence: z.int().min(0).optional().describe('0-based occurrence among same-name sections; needs section. Without it every occurrence is explained, paged'),
  tokenIndex: z.int().min(0).optional().describe('0-based direct-token index inside the section; needs section and occurrence'),
  startLine: z.int().min(1).optional().describe('first line, 1-based, inclusive; annotations intersecting the line range are kept'),
  endLine: z.int().min(1).optional().describe('last line, 1-based, inclusive'),
  cursor: z.string().max(2000).optional().describe('nextCursor of the previous page; omit on the first call'),
  limit: z.int().min(1).max(MAX_EXPLAIN_LIMIT).optional().describe(`annotations per page, 1–${MAX_EXPLAIN_LIMIT}, default ${DEFAULT_EXPLAIN_LIMIT}`),
  fullText: z.boolean().optional().describe('true: documents also carry each cited definition\'s whole content and sources (default: its one-line summary)'),
});

const TextRangeSchema = z.strictObject({
  start: z.int().describe('0-based UTF-16 offset, inclusive'),
  end: z.int().describe('0-based UTF-16 offset, exclusive'),
});
const TextPositionSchema = z.strictObject({
  line: z.int().describe('1-based line'),
  column: z.int().describe('1-based column in UTF-16 code units'),
});

/** Path links and placeholders are looked up without a context, so they are never context_required. */

const ExplainBlockSchema = z.strictObject({
  title: z.string(),
  ruleId: z.string(),
  documentId: z.string(),
  trust: TrustSchema.optional().describe("that rule's trust (pvfdoc extension), only when its definition states one"),
});

const ExplainReferenceSchema = z.strictObject({
  relation: z.string(),
  id: z.string(),
  context: z.string().nullable(),
  name: z.string().nullable(),
  path: z.string().nullable().describe('archive path of the referenced file'),
  resolutionStatus: ResolutionStatusSchema,
});

/** The file a `path` annotation points at. */
const ExplainPathLinkSchema = z.strictObject({
  /** The rule's `pathRoot` ("" when none). */
  root: z.string(),
  /** The token value. */
  value: z.string(),
  /** The archive path: as the workspace spells it when resolved, else the looked-up candidate. */
  path: z.string(),
  resolutionStatus: LinkResolutionStatusSchema,
  relativeToFile: z
    .literal(true)
    .optional()
    .describe('set when the file was found relative to the folder of the explained file, not as pathRoot + value from the archive root'),
});

const ExplainPlaceholderSchema = z.strictObject({
  table: z.int(),
  key: z.string(),
  text: z.string().nullable(),
  path: z.string().nullable().describe('.str file that answered'),
  fallback: z.boolean(),
  resolutionStatus: LinkResolutionStatusSchema,
});

const ExplainAnnotationSchema = z.strictObject({
  title: z.string().describe("the field's name: its definition's title (labels and reference names are in valueLabel / reference.name)"),
  summary: z
    .string()
    .optional()
    .describe(`one line, at most ${MAX_EXPLAIN_SUMMARY} characters; only when it differs from documents[documentIds[0]].summary (a {record}/{column} filled in) or no document is cited`),
  type: z.union([AnnotationTypeSchema, z.enum(['link', 'placeholder'])]),
  origin: z.literal('runtime').optional().describe('computed from the workspace, not from a rule (ruleIds/documentIds empty); absent on rule items'),
  ruleIds: z.array(z.string()),
  documentIds: z.array(z.string()),
  section: z.string().nullable().describe('section name as written; null before any section'),
  occurrence: z.int().nullable(),
  tokenIndex: z.int().nullable().describe('direct-token index in the section; null on a section tag'),
  lastTokenIndex: z.int().optional(),
  recordIndex: z.int().optional().describe('record ordinal in the section occurrence; only where exact'),
  value: z.string().nullable().describe('the token value as canonicalised by the lexer (a float 1.0 reads 1: see valueType); null on a section tag and on a range of several tokens'),
  valueType: z
    .enum(TOKEN_VALUE_TYPES)
    .nullable()
    .describe('how the token is written, to write it back as the same type: int, float, string (backtick), word (bare), link (<id::key`text`>), block ({N=…}); null with value'),
  range: TextRangeSchema,
  start: TextPositionSchema,
  end: TextPositionSchema.describe('position of the exclusive end offset'),
  valueLabel: z.string().optional().describe('enum label of value, or the label of a sentinel value (then it is not looked up)'),
  unknownValue: z.literal(true).optional(),
  reference: ExplainReferenceSchema.optional(),
  image: z.strictObject({ path: z.string(), index: z.int() }).optional(),
  inlineImage: z.literal(true).optional(),
  pathLink: ExplainPathLinkSchema.optional(),
  placeholder: ExplainPlaceholderSchema.optional(),
  blocks: z.array(ExplainBlockSchema).optional().describe('only when several rules meet on this span: each one\'s title, ruleId, documentId and trust'),
});

const ExplainWarningSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  range: TextRangeSchema.nullable(),
  start: TextPositionSchema.nullable(),
  end: TextPositionSchema.nullable(),
});

const PathContextEntrySchema = z.strictObject({
  /** The file or folder the note is about (slashes normalised, outer slashes removed, case kept). */
  scopePath: z.string(),
  scopeKind: PathKindSchema,
  ruleId: z.string(),
  documentId: z.string(),
  title: z.string(),
});

/** One document a page cites, sent once per page (schemaVersion 3): what its annotations would repeat. */
const ExplainDocumentSchema = z.strictObject({
  summary: z.string().describe(`its content in one line, at most ${MAX_EXPLAIN_SUMMARY} characters`),
  trust: TrustSchema.optional().describe('absent when the definition does not say'),
  content: z.string().optional().describe('with fullText: the whole content as written ({record}/{column} not filled in)'),
  sources: z.array(z.string()).optional().describe('with fullText: where its facts come from'),
  url: z.string().optional().describe('page of this document on the reference site; only when the server knows the site (serve --site-url, or the site it serves itself)'),
});

export const ExplainOutputSchema = z.strictObject({
  schemaVersion: z.literal(3),
  contentSource: z.literal('workspace'),
  rulesRevision: z.string(),
  workspaceId: z.string(),
  revision: z.int(),
  textRevision: z.string(),
  filePath: z.string().describe('the file as stored in the workspace'),
  pvfVersion: z.string().describe('the version context used ("" = unknown: only unrestricted rules)'),
  pathContext: z.array(PathContextEntrySchema).describe('on the first page only; later pages send [] and pathContextOmitted. Its text is documents[documentId]'),
  pathContextOmitted: z.literal(true).optional().describe('set on later pages: pathContext was sent with the first page'),
  annotations: z.array(ExplainAnnotationSchema),
  documents: z.record(z.string(), ExplainDocumentSchema).describe('keyed by documentId: every document the annotations of this page cite, once'),
  warnings: z.array(ExplainWarningSchema),
  nextCursor: z.string().nullable(),
  truncated: z.boolean(),
});

/** Parsed arguments: what explainFile takes, checked once where the request came in. */
export type ExplainInput = z.output<typeof ExplainInputSchema>;
export type ExplainOutput = z.output<typeof ExplainOutputSchema>;
export type ExplainOutputAnnotation = z.output<typeof ExplainAnnotationSchema>;
export type ExplainOutputBlock = z.output<typeof ExplainBlockSchema>;
export type ExplainPathLink = z.output<typeof ExplainPathLinkSchema>;
export type ExplainOutputWarning = z.output<typeof ExplainWarningSchema>;
export type PathContextEntry = z.output<typeof PathContextEntrySchema>;
export type ExplainDocument = z.output<typeof ExplainDocumentSchema>;

/**
 * The arguments of a caller the MCP SDK does not check for us (the CLI), as INVALID_ARGUMENT when
 * they do not fit ExplainInputSchema.
 */
export function parseExplainInput(value: unknown): ExplainInput {
  const parsed = ExplainInputSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new PvfdocError('INVALID_ARGUMENT', `invalid explain arguments: ${formatIssues(parsed.error.issues)}`, {
    hint: 'Pass workspaceId, expectedRevision and filePath; see the tool schema for the optional filters.',
  });
}
