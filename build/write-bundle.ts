import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CURRENT_POINTER } from '../runtime/bundle/constants.js';
import { PvfdocError } from '../runtime/errors.js';
import type { BuiltBundle } from './compile-layers.js';

/**
 * Writes `snapshots/<rulesRevision>/` through a temporary folder and a rename, so a reader never sees
 * a half-written bundle, then (if asked) points `snapshots/current` at it, also by rename.
 */
export async function writeBundle(snapshotsDir: string, bundle: BuiltBundle, options: { setCurrent: boolean }): Promise<string> {
  const finalDir = path.join(snapshotsDir, bundle.rulesRevision);
  try {
    await mkdir(snapshotsDir, { recursive: true });
    if (!(await exists(finalDir))) {
      const tmpDir = path.join(snapshotsDir, `.tmp-${bundle.rulesRevision}-${process.pid}-${Date.now()}`);
      await mkdir(tmpDir);
      try {
        for (const [name, text] of bundle.files) await writeFile(path.join(tmpDir, name), text);
        await rename(tmpDir, finalDir);
      } catch (cause) {
        await rm(tmpDir, { recursive: true, force: true });
        // Another build may have written the same revision meanwhile; same revision, same bytes.
        if (!(await exists(finalDir))) throw cause;
      }
    }
    if (options.setCurrent) await setCurrentRevision(snapshotsDir, bundle.rulesRevision);
  } catch (cause) {
    if (cause instanceof PvfdocError) throw cause;
    throw new PvfdocError('IO_ERROR', `could not write the snapshot to ${finalDir}: ${(cause as Error).message}`, {
      hint: 'Check that the --out folder is writable.',
      cause,
    });
  }
  return finalDir;
}

export async function setCurrentRevision(snapshotsDir: string, revision: string): Promise<void> {
  const tmp = path.join(snapshotsDir, `.${CURRENT_POINTER}.tmp-${process.pid}-${Date.now()}`);
  await writeFile(tmp, `${revision}\n`);
  await rename(tmp, path.join(snapshotsDir, CURRENT_POINTER));
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}
