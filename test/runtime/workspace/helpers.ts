/**
 * Shared helpers of the workspace and explain-file tests: temp folders with real files, compiled
 * bundles, a bounded poll.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLayers } from '../../../build/compile-layers.js';
import { openBuiltBundle, type Bundle } from '../../../runtime/bundle/load-bundle.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import { makeTempDir as makeSharedTempDir, removeTempDirs } from '../../support/temp-dirs.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';

export const WORKSPACE_LAYER = fileURLToPath(new URL('../../fixtures/workspaces/layer/', import.meta.url));
export const BUILTIN_LAYER = fileURLToPath(new URL('../../../rules/builtin/', import.meta.url));
export const EXAMPLE_WORKSPACE = fileURLToPath(new URL('../../../examples/workspace/', import.meta.url));

const bundles = new Map<string, Promise<Bundle>>();

/** A layer folder compiled in memory (once per test file). */
export function layerBundle(dir: string): Promise<Bundle> {
  let bundle = bundles.get(dir);
  if (!bundle) {
    bundle = compileLayers([dir]).then((result) => {
      if (!result.ok) throw new Error(`layer ${dir} does not compile:\n${JSON.stringify(result.problems, null, 2)}`);
      return openBuiltBundle(result.bundle.files);
    });
    bundles.set(dir, bundle);
  }
  return bundle;
}

export type FileTree = Record<string, string | Uint8Array>;

/** A new empty folder under the OS temp folder (removed by removeTempDirs). */
export function makeTempDir(prefix = 'pvfdoc-ws-'): string {
  return makeSharedTempDir(prefix);
}

export { removeTempDirs };

/** Writes files (archive paths with "/") below root, creating folders. */
export function writeTree(root: string, files: FileTree): void {
  for (const [rel, content] of Object.entries(files)) {
    const target = path.join(root, ...rel.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

let workspaceCounter = 0;

/** A folder workspace over a new temp folder holding `files`. */
export async function openFolder(files: FileTree, options: { pvfVersion?: string } = {}): Promise<{ workspace: Workspace; root: string }> {
  const root = makeTempDir();
  writeTree(root, files);
  const workspace = await openDirectoryWorkspace({ workspaceId: `ws${++workspaceCounter}`, name: 'test', root, ...options });
  return { workspace, root };
}

/** Calls `check` until it returns a value other than undefined, at most `timeoutMs`. */
export async function pollUntil<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The PvfdocError code a promise or function fails with (or "no error"). */
export async function errorCode(run: () => unknown): Promise<string> {
  try {
    await run();
    return 'no error';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** The error a promise or function fails with. */
export async function caught(run: () => unknown): Promise<{ code: string; data?: Record<string, unknown>; message: string; hint?: string }> {
  try {
    await run();
  } catch (error) {
    return error as { code: string; data?: Record<string, unknown>; message: string; hint?: string };
  }
  throw new Error('expected an error');
}
