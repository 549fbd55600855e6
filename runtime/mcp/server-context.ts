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
