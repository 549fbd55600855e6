/**
 * Temp folders of a test file, removed together by removeTempDirs (in its afterAll). Each test file runs
 * in its own module graph, so the list never mixes files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const tempDirs: string[] = [];

/** A new empty folder under the OS temp folder (removed by removeTempDirs). */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
