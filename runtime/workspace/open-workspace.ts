/**
 * Opens what `--workspace name=path` names: a file (or a path ending in `.pvf`) as an archive of the
 * format its container is detected as (archive-drivers.ts), anything else as a folder. Nothing here
 * throws for a missing or unreadable path: the workspace reports `archiveOpen: false` with the reason,
 * and opens once the path becomes readable.
 */
import { stat } from 'node:fs/promises';
import { ARCHIVE_FORMATS, classicDriver } from './archive-drivers.js';
import { createArchiveWorkspace } from './archive-workspace.js';
import { detectPvfContainer } from './detect-container.js';
import { openDirectoryWorkspace } from './open-directory-workspace.js';
import type { Workspace } from './workspace.js';

interface OpenWorkspaceOptions {
  workspaceId: string;
  name: string;
  /** A folder of decompiled script text, or a Script.pvf file (classic or nkpi family). */
  path: string;
  pvfVersion?: string;
  /** Text encoding of a Script.pvf instead of detecting it (cp950, cp936, cp949, utf-8, ...); folders are always UTF-8. */
  encoding?: string;
}

export async function openWorkspace(options: OpenWorkspaceOptions): Promise<Workspace> {
  const version = options.pvfVersion !== undefined ? { pvfVersion: options.pvfVersion } : {};
  const isFile = await stat(options.path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile && !options.path.toLowerCase().endsWith('.pvf')) {
    return openDirectoryWorkspace({ workspaceId: options.workspaceId, name: options.name, root: options.path, ...version });
  }
  // A missing or foreign file goes to the classic reader (the last format takes everything), which
  // reports it and opens it once it is a readable archive.
  const container = await detectPvfContainer(options.path);
  const driver = ARCHIVE_FORMATS.find((f) => f.detect(container))?.driver ?? classicDriver;
  const reader = options.encoding !== undefined ? { encoding: options.encoding } : {};
  return createArchiveWorkspace(driver, { workspaceId: options.workspaceId, name: options.name, path: options.path, ...version, reader });
}
