import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { countChangedSince } from '../../diff/count-changed.js';
import { PvfdocError } from '../../errors.js';
import { getDocument, GET_TOOL } from '../../get/get-document.js';
import { GetInputSchema, GetOutputSchema, type GetInput, type GetOutput } from '../../get/get-schema.js';
import { MAX_TEXT_ITEMS, READ_ONLY_ANNOTATIONS } from '../constants.js';
import { describeErrors } from '../error-guide.js';
import type { ServerContext } from '../server-context.js';
import { listLines, toolResult, withToolErrors } from '../tool-result.js';
import { documentPageUrl } from '../../bundle/site-paths.js';
import { documentLinks, withLinks } from '../site-links.js';
import { publishedOutputSchema } from '../published-schema.js';

const PvfAnnotationGetInputSchema = GetInputSchema;
export const PvfAnnotationGetOutputSchema = GetOutputSchema;

const DESCRIPTION = [
  'Gets one annotation document in full: its description and content, status (effective, overridden, disabled) and why, the raw and the resolved definition (match, complete target, annotation), the enum values page by page or one exact value, the relations it references with the .lst paths they need, and the shared field preview.',
  'Call it after pvf_annotation_search, for a document whose summary is not enough, or to look up what an enum value means. documentId and rulesRevision come from the same pvf_annotation_search result; value is an exact enum key as written in the script ("001" and "1" differ); valuesCursor is valuesNextCursor of the previous call.',
  'valueLookup.found=false means the key is not in the enum; no nearest value is guessed.',
  describeErrors(['DOCUMENT_NOT_FOUND', 'STALE_RULES', 'INVALID_CURSOR', 'RESPONSE_TOO_LARGE']),
].join('\n\n');

/** Made once, not per registration: Streamable HTTP registers every tool again for each request. */
const PUBLISHED_OUTPUT_SCHEMA = publishedOutputSchema(PvfAnnotationGetOutputSchema);

export function registerPvfAnnotationGetTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    GET_TOOL,
    {
      title: 'Get a PVF annotation document',
      description: DESCRIPTION,
      inputSchema: PvfAnnotationGetInputSchema,
      outputSchema: PUBLISHED_OUTPUT_SCHEMA,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    withToolErrors(ctx.log, async (args) => {
      const { bundle } = ctx.rules.current();
      try {
        const found = getDocument(bundle, args, ctx.cursorKey ? { cursorKey: ctx.cursorKey } : {});
        const siteUrl = ctx.siteUrl;
        if (siteUrl === undefined) return toolResult(found, renderGet(found));
        const output = { ...found, document: { ...found.document, url: documentPageUrl(siteUrl, found.document.documentId) } };
        return withLinks(toolResult(output, renderGet(output)), documentLinks(siteUrl, [{ documentId: output.document.documentId, title: output.document.title }]));
      } catch (error) {
        throw await withChangeCount(error, ctx, bundle, args);
      }
    }),
  );
}

/**
 * A STALE_RULES answer says whether the client's document changed, when the snapshot it searched is
 * still on disk; otherwise the error stays as it was.
 */
async function withChangeCount(
  error: unknown,
  ctx: ServerContext,
  bundle: Parameters<typeof getDocument>[0],
  args: Pick<GetInput, 'documentId' | 'rulesRevision'>,
): Promise<unknown> {
  if (!(error instanceof PvfdocError) || error.code !== 'STALE_RULES' || !ctx.snapshotsDir || !args.rulesRevision) return error;
  const count = await countChangedSince(ctx.snapshotsDir, args.rulesRevision, bundle, [args.documentId]);
  if (count === null) return error;
  const verdict =
    count.unchanged > 0
      ? '; the document is unchanged in the active snapshot'
      : count.changed > 0
        ? '; the document changed in the active snapshot'
        : count.removed > 0
          ? '; the document was removed or moved to another layer'
          : '';
  return new PvfdocError('STALE_RULES', `${error.message}${verdict}`, {
    ...(error.hint !== undefined ? { hint: error.hint } : {}),
    data: { ...error.data, changedDocuments: count },
    cause: error,
  });
}

function renderGet(output: GetOutput): string {
  const d = output.document;
  const lines = [
    `${d.kind} ${d.ruleId ?? d.fieldId ?? ''} (${d.documentId}, layer ${d.layer}, ${d.status}${d.statusReason ? `: ${d.statusReason}` : ''}; rulesRevision ${output.rulesRevision})`,
    `title: ${d.title}`,
  ];
  if (d.description) lines.push(`description: ${d.description}`);
  if (d.content) lines.push(d.content);
  if (output.valueLookup) {
    const v = output.valueLookup;
    lines.push(v.found ? `value ${v.key} = ${v.label ?? ''}` : `value ${v.key}: not in the enum`);
  }
  if (output.valueCount > 0) {
    lines.push(`values (${output.values.length} of ${output.valueCount}${output.valuesNextCursor ? '; more with valuesNextCursor' : ''}):`);
    lines.push(...listLines(output.values.map((v) => `  ${v.key} = ${v.label}`), MAX_TEXT_ITEMS));
  }
  for (const r of output.relations) lines.push(`relation ${r.name} (${r.kind}): ${r.listPaths.join(', ')}`);
  return lines.join('\n');
}
