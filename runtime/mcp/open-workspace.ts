import { stat } from 'node:fs/promises';
import { openClassicWorkspace } from '../workspace/open-classic-workspace.js';
import { openDirectoryWorkspace } from '../workspace/open-directory-workspace.js';
import type { Workspace } from '../workspace/workspace.js';

export interface OpenWorkspaceOptions {
  workspaceId: string;
  name: string;
  /** A folder of decompiled script text, or a classic Script.pvf file. */
  path: string;
  pvfVersion?: string;
}

/**
 * Opens what `--workspace name=path` names: a file (or a path ending in `.pvf`) as a classic archive,
 * anything else as a folder. Neither throws for a missing or unreadable path: the workspace reports
 * `archiveOpen: false` with the reason, and opens once the path becomes readable.
 */
export async function openWorkspace(options: OpenWorkspaceOptions): Promise<Workspace> {
  const version = options.pvfVersion !== undefined ? { pvfVersion: options.pvfVersion } : {};
  const isFile = await stat(options.path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (isFile || options.path.toLowerCase().endsWith('.pvf')) {
    return openClassicWorkspace({ workspaceId: options.workspaceId, name: options.name, path: options.path, ...version });
  }
  return openDirectoryWorkspace({ workspaceId: options.workspaceId, name: options.name, root: options.path, ...version });
}
