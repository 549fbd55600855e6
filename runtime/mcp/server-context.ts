import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { CursorKey } from '../bundle/cursor.js';
import type { RulesHolder } from '../bundle/rules-holder.js';
import type { ExplainCache } from '../explain/explain-file.js';
import { PvfdocError } from '../errors.js';
import type { Workspace } from '../workspace/workspace.js';
import type { Logger } from './log.js';

/** Everything a server instance reads; owned by the caller (the CLI), never by a module. */
export interface ServerContext {
  /** The active rules snapshot; a request reads `rules.current()` once and keeps that bundle. */
  rules: RulesHolder;
  /** Open workspaces by workspaceId. */
  workspaces: ReadonlyMap<string, Workspace>;
  log: Logger;
  /** Explanations reused across requests while the workspace revision and rules stay the same. */
  explainCache?: ExplainCache;
  /** Snapshots folder the rules come from, when there is one: older revisions there explain STALE_RULES. */
  snapshotsDir?: string;
  /**
   * Signs the cursors this server hands out. `pvfdoc serve` makes one per process (cursor-key.ts);
   * without it, LOCAL_CURSOR_KEY (cursors anyone could forge: for tests and in-process use).
   */
  cursorKey?: CursorKey;
  /**
   * Base URL of the reference site built from the same rules (serve --site-url, or the site the HTTP
   * server serves itself): search, get and explain then link each document to its page.
   */
  siteUrl?: string;
  /**
   * What every server of this context can share (sharedServerParts). Left out, the first server made
   * from this context object creates it and keeps it here for the next ones.
   */
  shared?: SharedServerParts;
}

/**
 * Parts of an MCP server that hold no request or connection state, made once and reused by every
 * server of a context: Streamable HTTP makes one server per POST, and building these cost about a third
 * of the server's CPU time per request.
 */
export interface SharedServerParts {
  /**
   * The SDK's JSON Schema validator (an Ajv instance, expensive to build). The SDK's server uses it only
   * to check the answer to an elicitation request, which no tool sends; it compiles a schema when asked
   * and keeps no state about a request or a client. Ajv caches every schema object it compiles, so a
   * tool that ever elicits should reuse its schema objects.
   */
  jsonSchemaValidator: jsonSchemaValidator;
}

export function createSharedServerParts(): SharedServerParts {
  let ajv: AjvJsonSchemaValidator | undefined;
  // Built on first use: no tool elicits, so a server normally never builds it at all.
  return {
    jsonSchemaValidator: {
      getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
        ajv ??= new AjvJsonSchemaValidator();
        return ajv.getValidator<T>(schema);
      },
    },
  };
}

/** The context's shared parts, made and kept on it by the first server of the context. */
export function sharedServerParts(ctx: ServerContext): SharedServerParts {
  ctx.shared ??= createSharedServerParts();
  return ctx.shared;
}

export function findWorkspace(ctx: ServerContext, workspaceId: string): Workspace {
  const workspace = ctx.workspaces.get(workspaceId);
  if (workspace) return workspace;
  const ids = [...ctx.workspaces.keys()];
  throw new PvfdocError('WORKSPACE_NOT_FOUND', `no workspace "${workspaceId}"`, {
    hint: ids.length > 0 ? `Use one of ${ids.map((id) => `"${id}"`).join(', ')} (see workspace_info).` : 'This server has no workspace; start it with --workspace <name>=<folder>.',
    data: { workspaceIds: ids },
  });
}
