/**
 * One MCP server over a context. No module state: the HTTP transport creates one per request, tests
 * one per case, all sharing the caller's rules holder and workspaces, and the parts of a server that
 * hold no request state (server-context.ts, SharedServerParts). Each server has its own protocol state
 * (request ids, client capabilities, handlers), so no request sees another's.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ENGINE_VERSION } from '../bundle/constants.js';
import { registerViewResources } from './apps/view-resources.js';
import { SERVER_NAME } from './constants.js';
import { sharedServerParts, type ServerContext } from './server-context.js';
import { registerPrompts } from './prompts/register-prompts.js';
import { registerSkillResource } from './skill.js';
import { registerListFilesTool } from './tools/list-files.js';
import { registerPvfAnnotationExplainTool } from './tools/pvf-annotation-explain.js';
import { registerPvfAnnotationGetTool } from './tools/pvf-annotation-get.js';
import { registerPvfAnnotationSearchTool } from './tools/pvf-annotation-search.js';
import { registerReadFileTool } from './tools/read-file.js';
import { registerWorkspaceInfoTool } from './tools/workspace-info.js';

export type { ServerContext, SharedServerParts } from './server-context.js';
export { createSharedServerParts } from './server-context.js';

export interface CreatedServer {
  server: McpServer;
  /** Closes the server and its transport; the context (rules, workspaces) stays open. */
  close(): Promise<void>;
}

export function createServer(ctx: ServerContext): CreatedServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: ENGINE_VERSION },
    {
      instructions: 'PVF annotation docs (read-only). Start with workspace_info; the resource skill://pvf-annotations/SKILL.md explains the call order and every error code.',
      jsonSchemaValidator: sharedServerParts(ctx).jsonSchemaValidator,
    },
  );
  registerWorkspaceInfoTool(server, ctx);
  registerListFilesTool(server, ctx);
  registerReadFileTool(server, ctx);
  registerPvfAnnotationSearchTool(server, ctx);
  registerPvfAnnotationGetTool(server, ctx);
  registerPvfAnnotationExplainTool(server, ctx);
  registerSkillResource(server);
  registerViewResources(server);
  registerPrompts(server, ctx);
  return { server, close: () => server.close() };
}
