import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { searchDocuments, SEARCH_TOOL, type SearchOptions } from '../../search/search-documents.js';
import { SearchInputSchema, SearchOutputSchema } from '../../search/search-schema.js';
import { MAX_TEXT_ITEMS, READ_ONLY_ANNOTATIONS } from '../constants.js';
import { describeErrors } from '../error-guide.js';
import { findWorkspace, type ServerContext } from '../server-context.js';
import { listLines, toolResult, withToolErrors } from '../tool-result.js';
import { documentPageUrl } from '../../bundle/site-paths.js';
import { documentLinks, withLinks } from '../site-links.js';
import { publishedOutputSchema } from '../published-schema.js';
import { SEARCH_VIEW_URI, viewToolMeta } from '../apps/view-resources.js';

const PvfAnnotationSearchInputSchema = SearchInputSchema;
export const PvfAnnotationSearchOutputSchema = SearchOutputSchema;

const DESCRIPTION = [
  'Searches the PVF annotation rules and shared fields (what a file, section or token means, enum values, references) and returns short summaries with a documentId each. It describes rules that apply to a kind of file; it does not prove a file contains that section or value (use pvf_annotation_explain for an actual file).',
  'Call it before reading or changing a PVF script, or when a value or section is unclear. For pvfVersion "current" (the default) give workspaceId from workspace_info (the workspace must be open); otherwise give an explicit pvfVersion from workspace_info supportedVersions, or "all". filePath is an archive path (it may be a file that does not exist yet), section a section name such as "price" or "[price]". Filters combine with AND, array entries with OR. No results: drop section or use query; the server never loosens filters itself (see warnings, suggestions).',
  'Pass an item\'s documentId and rulesRevision to pvf_annotation_get for the full definition and enum values. Follow nextCursor with identical arguments for more.',
  describeErrors(['WORKSPACE_NOT_FOUND', 'NO_ARCHIVE', 'INVALID_VERSION', 'INVALID_ARGUMENT', 'INVALID_CURSOR', 'STALE_RULES', 'RESPONSE_TOO_LARGE']),
].join('\n\n');

/** Made once, not per registration: Streamable HTTP registers every tool again for each request. */
const PUBLISHED_OUTPUT_SCHEMA = publishedOutputSchema(PvfAnnotationSearchOutputSchema);

export function registerPvfAnnotationSearchTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    SEARCH_TOOL,
    {
      title: 'Search PVF annotation docs',
      description: DESCRIPTION,
      inputSchema: PvfAnnotationSearchInputSchema,
      outputSchema: PUBLISHED_OUTPUT_SCHEMA,
      annotations: READ_ONLY_ANNOTATIONS,
      // Hosts with MCP Apps show the result in this view; others ignore the key (docs/mcp.md, MCP Apps views).
      _meta: viewToolMeta(SEARCH_VIEW_URI),
    },
    withToolErrors(ctx.log, async (args) => {
      const { bundle } = ctx.rules.current();
      const options: SearchOptions = ctx.cursorKey ? { cursorKey: ctx.cursorKey } : {};
      if ((args.pvfVersion ?? 'current') === 'current' && args.workspaceId !== undefined) {
        // The version comes from the workspace now, never from an archive opened earlier (protocol: 规则搜索).
        const workspace = findWorkspace(ctx, args.workspaceId);
        await workspace.view();
        options.currentVersion = workspace.info().pvfVersion;
      }
      const found = searchDocuments(bundle, args, options);
      const siteUrl = ctx.siteUrl;
      const output = siteUrl === undefined ? found : { ...found, items: found.items.map((i) => ({ ...i, url: documentPageUrl(siteUrl, i.documentId) })) };
      const lines = listLines(
        output.items.map(
          (i) =>
            `${i.documentId}  ${i.kind === 'rule' ? (i.ruleId ?? '') : `field ${i.fieldId ?? ''}`}  ${i.section === null ? '' : `[${i.section}]  `}${i.annotationType}  ${i.title}${i.effective ? '' : `  (${i.state})`}${i.implicitRuleId ? `  (+ rule ${i.implicitRuleId} ${i.implicitRuleDocumentId ?? ''})` : ''}`,
        ),
        MAX_TEXT_ITEMS,
      );
      const head =
        output.items.length === 0
          ? `no matches (rulesRevision ${output.rulesRevision}, version ${output.context.pvfVersion || '(unknown)'}); ${
              output.suggestions ? `shorter queries that match: ${output.suggestions.map((s) => `"${s.query}" (${s.totalMatches})`).join(', ')}` : 'try fewer filters or another query'
            }`
          : `${output.items.length} of ${output.totalMatches} documents (rulesRevision ${output.rulesRevision}, version ${output.context.pvfVersion || '(unknown)'})${output.nextCursor ? '; more with nextCursor' : ''}`;
      const warnings = (output.warnings ?? []).map((w) => `warning: ${w}`);
      const result = toolResult(output, [head, ...warnings, ...lines].join('\n'));
      return siteUrl === undefined ? result : withLinks(result, documentLinks(siteUrl, output.items));
    }),
  );
}
