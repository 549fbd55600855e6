import { stat } from 'node:fs/promises';
import { detectPvfContainer } from '../nkpi/detect.js';
import { openClassicWorkspace } from '../workspace/open-classic-workspace.js';
import { openDirectoryWorkspace } from '../workspace/open-directory-workspace.js';
import { openNkpiWorkspace } from '../workspace/open-nkpi-workspace.js';
import type { Workspace } from '../workspace/workspace.js';

export interface OpenWorkspaceOptions {
  workspaceId: string;
  name: string;
  /** A folder of decompiled script text, or a Script.pvf file (classic or nkpi family). */
  path: string;
  pvfVersion?: string;
  /** Text encoding of a Script.pvf instead of detecting it (cp950, cp936, cp949, utf-8, ...); folders are always UTF-8. */
  encoding?: string;
}

/**
 * Opens what `--workspace name=path` names: a file (or a path ending in `.pvf`) as an archive (the nkpi
 * family when its header says so, else classic), anything else as a folder. Neither throws for a missing or unreadable path: the workspace reports
 * `archiveOpen: false` with the reason, and opens once the path becomes readable.
 */
export async function openWorkspace(options: OpenWorkspaceOptions): Promise<Workspace> {
  const version = options.pvfVersion !== undefined ? { pvfVersion: options.pvfVersion } : {};
  const isFile = await stat(options.path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (isFile || options.path.toLowerCase().endsWith('.pvf')) {
    // A missing file detects as unknown and goes to the classic opener, which reports it and retries.
    if ((await detectPvfContainer(options.path)).family === 'nkpi') {
      return openNkpiWorkspace({ workspaceId: options.workspaceId, name: options.name, path: options.path, ...version });
    }
    const encoding = options.encoding !== undefined ? { encoding: options.encoding } : {};
    return openClassicWorkspace({ workspaceId: options.workspaceId, name: options.name, path: options.path, ...version, ...encoding });
  }
  return openDirectoryWorkspace({ workspaceId: options.workspaceId, name: options.name, root: options.path, ...version });
}
