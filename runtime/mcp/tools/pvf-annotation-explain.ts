import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { tokenSpanText, valueText } from '../../explain/annotation-text.js';
import { EXPLAIN_TOOL, explainFile } from '../../explain/explain-file.js';
import { ExplainInputSchema, ExplainOutputSchema, type ExplainOutput, type ExplainOutputAnnotation } from '../../explain/explain-schema.js';
import { MAX_TEXT_ITEMS, READ_ONLY_ANNOTATIONS } from '../constants.js';
import { describeErrors } from '../error-guide.js';
import { findWorkspace, type ServerContext } from '../server-context.js';
import { listLines, toolResult, withToolErrors } from '../tool-result.js';
import { publishedOutputSchema } from '../published-schema.js';
import { EXPLAIN_VIEW_URI, viewToolMeta } from '../apps/view-resources.js';
import { documentPageUrl } from '../../bundle/site-paths.js';
import { documentLinks, withLinks } from '../site-links.js';

const PvfAnnotationExplainInputSchema = ExplainInputSchema;
export const PvfAnnotationExplainOutputSchema = ExplainOutputSchema;

const DESCRIPTION = [
  'Explains what the annotation rules say about an actual script file in a workspace: each annotated section tag and token with its position, value, enum label or referenced object (with resolutionStatus), plus the notes of the file and its folders (pathContext). It reads the committed workspace content (contentSource "workspace"), never unsaved editor drafts.',
  'Call it on an existing file before changing it, to see which sections repeat, what values mean and what they point to. workspaceId and expectedRevision (the workspace revision) come from workspace_info; filePath from list_files; rulesRevision (optional) from workspace_info or an earlier search. Narrow with section, occurrence (0-based, needs section), tokenIndex (0-based, needs section and occurrence) or startLine/endLine (1-based, inclusive). Without occurrence every same-name section is explained, paged.',
  'Each annotation: title (the field), value and valueType (int, float, string…: write a value back as the same type; a float 1.0 has value "1"), valueLabel or reference, range (0-based, end-exclusive UTF-16 offsets into the read_file text) and start/end (1-based line/column); its one-line description is documents[documentIds[0]].summary, once per page (fullText: true adds whole contents); pathContext comes with the first page. origin "runtime" items come from the workspace, with their own summary. An empty or partial explanation does not mean the content is valid. Follow nextCursor with identical arguments for more.',
  describeErrors([
    'WORKSPACE_NOT_FOUND',
    'NO_ARCHIVE',
    'STALE_WORKSPACE',
    'STALE_RULES',
    'FILE_NOT_FOUND',
    'NOT_A_SCRIPT',
    'INVALID_ARGUMENT',
    'INVALID_CURSOR',
    'RESPONSE_TOO_LARGE',
    'IO_ERROR',
    'INVALID_ARCHIVE',
  ]),
].join('\n\n');

/** Made once, not per registration: Streamable HTTP registers every tool again for each request. */
const PUBLISHED_OUTPUT_SCHEMA = publishedOutputSchema(PvfAnnotationExplainOutputSchema);

export function registerPvfAnnotationExplainTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    EXPLAIN_TOOL,
    {
      title: 'Explain a PVF script file',
      description: DESCRIPTION,
      inputSchema: PvfAnnotationExplainInputSchema,
      outputSchema: PUBLISHED_OUTPUT_SCHEMA,
      annotations: READ_ONLY_ANNOTATIONS,
      // Hosts with MCP Apps show the result in this view; others ignore the key (docs/mcp.md, MCP Apps views).
      _meta: viewToolMeta(EXPLAIN_VIEW_URI),
    },
    withToolErrors(ctx.log, async (args) => {
      const { bundle } = ctx.rules.current();
      const workspace = findWorkspace(ctx, args.workspaceId);
      const explained = await explainFile({ bundle, workspace, input: args, ...(ctx.explainCache ? { cache: ctx.explainCache } : {}), ...(ctx.cursorKey ? { cursorKey: ctx.cursorKey } : {}) });
      const siteUrl = ctx.siteUrl;
      if (siteUrl === undefined) return toolResult(explained, renderExplain(explained));
      const documents = Object.fromEntries(Object.entries(explained.documents).map(([id, doc]) => [id, { ...doc, url: documentPageUrl(siteUrl, id) }]));
      const output = { ...explained, documents };
      return withLinks(toolResult(output, renderExplain(output)), documentLinks(siteUrl, citedDocuments(output)));
    }),
  );
}

/**
 * One compact line per annotation, readable without structuredContent:
 * `12:4 [rarity]#0.0 稀有度 4 = 史诗` or `30:2 [skill]#0.1 技能 200 → 冲击 (skill/x.skl)`.
 */
function formatExplainAnnotation(a: ExplainOutputAnnotation): string {
  const where = a.section === null ? '' : ` [${a.section}]#${a.occurrence ?? 0}${tokenSpanText(a)}`;
  const parts = [`${a.start.line}:${a.start.column}${where}`];
  if (a.title !== '') parts.push(oneLine(a.title));
  const value = valueText(a, oneLine);
  if (value !== null) parts.push(value);
  if (a.valueLabel !== undefined) parts.push(`= ${oneLine(a.valueLabel)}`);
  if (a.unknownValue) parts.push('= ?');
  if (a.reference) {
    const r = a.reference;
    const target = r.name ?? r.path ?? `${r.relation}:${r.id}`;
    const status = r.resolutionStatus === 'resolved' ? '' : ` (${r.resolutionStatus})`;
    parts.push(`→ ${oneLine(target)}${r.name !== null && r.path !== null ? ` (${r.path})` : ''}${status}`);
  }
  if (a.pathLink) parts.push(`→ ${a.pathLink.path}${a.pathLink.resolutionStatus === 'resolved' ? '' : ` (${a.pathLink.resolutionStatus})`}`);
  if (a.placeholder) parts.push(`→ ${a.placeholder.text ?? `${a.placeholder.table}:${a.placeholder.key}`}${a.placeholder.resolutionStatus === 'resolved' ? '' : ` (${a.placeholder.resolutionStatus})`}`);
  if (a.image) parts.push(`image ${a.image.path}[${a.image.index}]`);
  return parts.join(' ');
}

/** The documents of a page in the order its path notes and annotations cite them, each with the title it is cited under. */
function citedDocuments(output: ExplainOutput): { documentId: string; title: string }[] {
  const notes = output.pathContext.map((p) => ({ documentId: p.documentId, title: p.title }));
  const cited = output.annotations.flatMap((a) => a.blocks ?? a.documentIds.map((documentId) => ({ documentId, title: a.title })));
  return [...notes, ...cited.map((b) => ({ documentId: b.documentId, title: b.title }))];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function renderExplain(output: ExplainOutput): string {
  const head = `${output.filePath}: ${output.annotations.length} annotations (revision ${output.revision}, version ${output.pvfVersion || '(unknown)'})${output.nextCursor ? '; more with nextCursor' : ''}`;
  const lines = [head];
  for (const p of output.pathContext) lines.push(`${p.scopeKind} ${p.scopePath}: ${p.title}`);
  if (output.pathContextOmitted) lines.push('(path notes: see the first page)');
  lines.push(...listLines(output.annotations.map(formatExplainAnnotation), MAX_TEXT_ITEMS));
  for (const w of output.warnings) lines.push(`warning ${w.code}${w.start ? ` at ${w.start.line}:${w.start.column}` : ''}: ${w.message}`);
  return lines.join('\n');
}
