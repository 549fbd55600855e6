import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CURRENT_POINTER } from '../runtime/bundle/constants.js';
import { PvfdocError } from '../runtime/errors.js';
import type { BuiltBundle } from './compile-layers.js';
import { processIsAlive } from './process-alive.js';

/**
 * Writes `snapshots/<rulesRevision>/` through a temporary folder and a rename, so a reader never sees
 * a half-written bundle, then (if asked) points `snapshots/current` at it, also by rename.
 */
export async function writeBundle(snapshotsDir: string, bundle: BuiltBundle, options: { setCurrent: boolean }): Promise<string> {
  const finalDir = path.join(snapshotsDir, bundle.rulesRevision);
  try {
    await mkdir(snapshotsDir, { recursive: true });
    await removeStaleTemporaries(snapshotsDir);
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

/** `.tmp-<revision>-<pid>-<time>` and `.current.tmp-<pid>-<time>`: what a write in progress leaves. */
const TEMPORARY = /^\.(?:tmp-[0-9a-f]+|current\.tmp)-(\d+)-(\d+)$/;
/** A temporary older than this is stale even when its pid has been reused by a live process. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the temporaries of builds that were killed while writing (their process is gone, or they are
 * a day old); those of a build running right now are left alone.
 */
export async function removeStaleTemporaries(snapshotsDir: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(snapshotsDir).catch(() => [] as string[])) {
    const found = TEMPORARY.exec(name);
    if (!found) continue;
    const pid = Number(found[1]);
    const started = Number(found[2]);
    if (processIsAlive(pid) && now - started < STALE_AFTER_MS) continue;
    await rm(path.join(snapshotsDir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}
