/**
 * Runs the published entry point (dist/pvfdoc.mjs, the esbuild bundle test/global-setup.ts builds) the
 * way a user does, and returns its exit code and output instead of throwing on a non-zero exit.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const CLI = path.resolve(import.meta.dirname, '../../dist/pvfdoc.mjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], cwd: string): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
