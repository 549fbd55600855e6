import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Builds dist/pvfdoc.mjs once before any test file runs: the CLI and end-to-end tests spawn the
 * published single-file entry point, and building it per file would race between parallel files.
 */
export default async function setup(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  await promisify(execFile)(process.execPath, [path.join(root, 'scripts/bundle-cli.mjs')], { cwd: root });
}
