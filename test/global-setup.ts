import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder of this run that test files share outputs through (removed at the end of the run). */
    sharedDir: string;
  }
}

/**
 * Builds dist/pvfdoc.mjs once before any test file runs: the CLI and end-to-end tests spawn the
 * published single-file entry point, and building it per file would race between parallel files.
 * Gives the files one folder of this run to share expensive outputs through (the builtin site).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, '..');
  await promisify(execFile)(process.execPath, [path.join(root, 'scripts/bundle-cli.mjs')], { cwd: root });
  const shared = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-test-run-'));
  project.provide('sharedDir', shared);
  return async () => {
    await rm(shared, { recursive: true, force: true });
  };
}
