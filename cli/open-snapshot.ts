import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadBundle, resolveCurrentBundleDir, type Bundle } from '../runtime/bundle/load-bundle.js';
import { MANIFEST_FILE } from '../runtime/bundle/constants.js';

/** `--snapshot` is a bundle folder or a snapshots folder (then its `current`); default ./snapshots/current. */
export async function openSnapshot(snapshot: string | undefined): Promise<Bundle> {
  const given = snapshot ?? 'snapshots';
  const dir = existsSync(path.join(given, MANIFEST_FILE)) ? given : await resolveCurrentBundleDir(given);
  return loadBundle(dir);
}
