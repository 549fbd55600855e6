import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { bindingHash, checkOffset, decodeCursor, encodeCursor, type CursorKey } from '../../bundle/cursor.js';
import { PathKindSchema } from '../../bundle/schema.js';
import { isPvfdocError, PvfdocError } from '../../errors.js';
import { normalizeArchivePath } from '../../script/archive-path.js';
import { DEFAULT_LIST_FILES_LIMIT, MAX_LIST_FILES_LIMIT, MAX_TEXT_ITEMS, READ_ONLY_ANNOTATIONS } from '../constants.js';
import { describeErrors } from '../error-guide.js';
import { findWorkspace, type ServerContext } from '../server-context.js';
import { listLines, toolResult, withToolErrors } from '../tool-result.js';
import { publishedOutputSchema } from '../published-schema.js';

const LIST_FILES_TOOL = 'list_files';

const ListFilesInputSchema = z.strictObject({
  workspaceId: z.string().min(1).max(200).describe('from workspace_info'),
  path: z.string().max(1000).optional().describe('archive-internal folder path with "/", e.g. "equipment/character"; omit or "" for the top level'),
  cursor: z.string().max(2000).optional().describe('nextCursor of the previous page; omit on the first call'),
  limit: z.int().min(1).max(MAX_LIST_FILES_LIMIT).optional().describe(`entries per page, 1–${MAX_LIST_FILES_LIMIT}, default ${DEFAULT_LIST_FILES_LIMIT}`),
});

export const ListFilesOutputSchema = z.strictObject({
  workspaceId: z.string(),
  revision: z.int().describe('workspace revision the listing belongs to'),
  path: z.string().describe('the folder listed ("" = top level)'),
  entries: z.array(
    z.strictObject({
      name: z.string().describe('last path segment'),
      path: z.string().describe('archive-internal path: filePath of read_file / pvf_annotation_explain, or path of list_files'),
      kind: PathKindSchema,
      size: z.int().nullable().describe('bytes; null for a folder'),
    }),
  ).describe('one level, folders first, then by name'),
  totalEntries: z.int(),
  nextCursor: z.string().nullable().describe('pass as cursor with the same workspaceId and path for the next page; null on the last page'),
});

type ListFilesOutput = z.output<typeof ListFilesOutputSchema>;

const DESCRIPTION = [
  'Lists one folder level of a workspace, paged: folders first, then files, by name.',
  'Call it to find the archive path of a file before read_file or pvf_annotation_explain. workspaceId comes from workspace_info; path is a folder path from an earlier list_files entry (omit it for the top level).',
  'Returns { workspaceId, revision, path, entries: [{ name, path, kind, size }], totalEntries, nextCursor }. Follow nextCursor with the same arguments for more entries; the cursor is bound to this workspace revision.',
  describeErrors(['WORKSPACE_NOT_FOUND', 'NO_ARCHIVE', 'FILE_NOT_FOUND', 'INVALID_ARGUMENT', 'INVALID_CURSOR', 'STALE_WORKSPACE']),
].join('\n\n');

/** Made once, not per registration: Streamable HTTP registers every tool again for each request. */
const PUBLISHED_OUTPUT_SCHEMA = publishedOutputSchema(ListFilesOutputSchema);

export function registerListFilesTool(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    LIST_FILES_TOOL,
    {
      title: 'List workspace files',
      description: DESCRIPTION,
      inputSchema: ListFilesInputSchema,
      outputSchema: PUBLISHED_OUTPUT_SCHEMA,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    withToolErrors(ctx.log, async (args) => {
      const view = await findWorkspace(ctx, args.workspaceId).view();
      const folder = normalizeArchivePath(args.path ?? '');
      const all = view.listDirectory(folder);
      const binding = bindingHash({ workspaceId: args.workspaceId, path: folder.toLowerCase() });
      const offset = args.cursor === undefined ? 0 : checkOffset(decodeListCursor(args.cursor, view.revision, binding, ctx.cursorKey), all.length);
      const limit = args.limit ?? DEFAULT_LIST_FILES_LIMIT;
      const page = all.slice(offset, offset + limit);
      const end = offset + page.length;
      const output: ListFilesOutput = {
        workspaceId: args.workspaceId,
        revision: view.revision,
        path: folder,
        entries: page.map((e) => ({ name: e.name, path: e.path, kind: e.kind, size: e.size })),
        totalEntries: all.length,
        nextCursor: end < all.length ? encodeCursor({ tool: LIST_FILES_TOOL, rulesRevision: revisionSlot(view.revision), binding, offset: end }, ctx.cursorKey) : null,
      };
      const lines = listLines(
        output.entries.map((e) => (e.kind === 'directory' ? `${e.path}/` : `${e.path}  ${e.size ?? 0} B`)),
        MAX_TEXT_ITEMS,
      );
      const head = `${folder === '' ? '(top level)' : folder}: entries ${offset + 1}–${end} of ${all.length} (revision ${view.revision})${output.nextCursor ? '; more with nextCursor' : ''}`;
      return toolResult(output, [head, ...lines].join('\n'));
    }),
  );
}

/**
 * List cursors carry the workspace revision in the cursor's snapshot slot, so a cursor from before a
 * content change is STALE_WORKSPACE rather than an altered cursor.
 */
function revisionSlot(revision: number): string {
  return `workspace:${revision}`;
}

function decodeListCursor(cursor: string, revision: number, binding: string, key: CursorKey | undefined): number {
  try {
    return decodeCursor(cursor, { tool: LIST_FILES_TOOL, rulesRevision: revisionSlot(revision), binding }, key);
  } catch (error) {
    if (isPvfdocError(error) && error.code === 'STALE_RULES') {
      throw new PvfdocError('STALE_WORKSPACE', `the cursor belongs to another revision of the workspace; it is now at revision ${revision}`, {
        hint: 'The files changed: list the folder again without a cursor.',
        data: { revision },
        cause: error,
      });
    }
    throw error;
  }
}
