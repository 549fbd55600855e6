import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { isPvfdocError } from '../../errors.js';
import { WorkspaceInfoSchema, type Workspace, type WorkspaceInfo } from '../../workspace/workspace.js';
import { READ_ONLY_ANNOTATIONS } from '../constants.js';
import { describeErrors } from '../error-guide.js';
import type { ServerContext } from '../server-context.js';
import { toolResult, withToolErrors } from '../tool-result.js';
import { publishedOutputSchema } from '../published-schema.js';
import { RulesStatusSchema } from '../../bundle/rules-holder.js';

const WORKSPACE_INFO_TOOL = 'workspace_info';

const WorkspaceInfoInputSchema = z.strictObject({});

export const WorkspaceInfoOutputSchema = z.strictObject({
  rulesRevision: z.string().describe('revision of the active rules snapshot; pass it as rulesRevision to pvf_annotation_get and pvf_annotation_explain'),
  rules: z.strictObject({
    status: RulesStatusSchema.describe('reload_failed: a newer snapshot on disk could not be loaded; the previous one (rulesRevision) is still served'),
    lastReloadError: z.string().nullable().describe('why the last reload failed; null when status is ok'),
  }),
  supportedVersions: z.array(z.string()).describe('explicit pvfVersion values pvf_annotation_search accepts, e.g. "110US"'),
  workspaces: z.array(WorkspaceInfoSchema),
});

export type WorkspaceInfoOutput = z.output<typeof WorkspaceInfoOutputSchema>;

const DESCRIPTION = [
  'Lists the open workspaces and the active annotation rules snapshot. Call it first, and again after STALE_WORKSPACE or STALE_RULES.',
  'No arguments.',
  'Returns rulesRevision (the active rules snapshot), rules.status ("ok", or "reload_failed" with lastReloadError when a newer snapshot on disk was refused and the old one is still served), supportedVersions (explicit pvfVersion values for pvf_annotation_search), and per workspace: workspaceId (the argument of every other tool), kind, pvfVersion ("" = unknown), revision (expectedRevision of pvf_annotation_explain), fileCount, encoding, archiveOpen, error (why it cannot be read) and warnings (problems that do not stop reading, when any).',
  describeErrors([]),
].join('\n\n');

/** Made once, not per registration: Streamable HTTP registers every tool again for each request. */
const PUBLISHED_OUTPUT_SCHEMA = publishedOutputSchema(WorkspaceInfoOutputSchema);

export function registerWorkspaceInfoTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    WORKSPACE_INFO_TOOL,
    {
      title: 'Workspaces and rules',
      description: DESCRIPTION,
      inputSchema: WorkspaceInfoInputSchema,
      outputSchema: PUBLISHED_OUTPUT_SCHEMA,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    withToolErrors(ctx.log, async () => {
      const rules = ctx.rules.current();
      const workspaces = await Promise.all([...ctx.workspaces.values()].map(freshInfo));
      const output: WorkspaceInfoOutput = {
        rulesRevision: rules.bundle.rulesRevision,
        rules: { status: rules.status, lastReloadError: rules.lastReloadError },
        supportedVersions: [...rules.bundle.manifest.pvfVersions],
        workspaces,
      };
      const lines = [
        `rules ${output.rulesRevision} (${rules.status}${rules.lastReloadError ? `: ${rules.lastReloadError}` : ''}); versions ${output.supportedVersions.join(', ')}`,
        ...workspaces.map(
          (w) =>
            `${w.workspaceId}: ${w.kind}, ${w.archiveOpen ? `${w.fileCount} files, revision ${w.revision}, pvfVersion ${w.pvfVersion || '(unknown)'}${w.kind === 'directory' ? '' : `, encoding ${w.encoding}`}` : `not open: ${w.error ?? 'unknown reason'}`}${w.warnings ? `; ${w.warnings.length} warning(s): ${w.warnings.slice(0, 3).join('; ')}` : ''}`,
        ),
      ];
      if (workspaces.length === 0) lines.push('no workspaces (start the server with --workspace <name>=<folder>)');
      return toolResult(output, lines.join('\n'));
    }),
  );
}

/** The workspace's info after bringing its revision up to date (a closed workspace reports why). */
async function freshInfo(workspace: Workspace): Promise<WorkspaceInfo> {
  try {
    await workspace.view();
  } catch (error) {
    if (!isPvfdocError(error)) throw error;
  }
  const i = workspace.info();
  return {
    workspaceId: i.workspaceId,
    name: i.name,
    kind: i.kind,
    pvfVersion: i.pvfVersion,
    revision: i.revision,
    fileCount: i.fileCount,
    encoding: i.encoding,
    archiveOpen: i.archiveOpen,
    error: i.error,
    ...(i.warnings !== undefined && i.warnings.length > 0 ? { warnings: [...i.warnings] } : {}),
  };
}
