import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_POINTER, MANIFEST_FILE } from '../runtime/bundle/constants.js';
import { loadBundle, openBuiltBundle, resolveCurrentBundleDir, type Bundle } from '../runtime/bundle/load-bundle.js';
import { PvfdocError } from '../runtime/errors.js';
import { staleSnapshotNote } from './built-from.js';
import { builtinLayerDir, layerFilesHash } from './layers.js';

/** Where the served rules come from. */
export type RulesOrigin =
  /** A bundle folder or a snapshots folder's current, written by `pvfdoc build`. */
  | 'snapshot'
  /** The builtin snapshot prebuilt into the package when it was packed (dist/builtin-snapshots). */
  | 'packaged'
  /** The builtin layer compiled in memory (a checkout, or a package without the prebuilt snapshot). */
  | 'compiled';

export interface OpenedRules {
  bundle: Bundle;
  origin: RulesOrigin;
  /** The snapshots folder whose current was read (null for a bundle folder or the builtin fallback). */
  snapshotsDir: string | null;
  /** One line for stderr: the builtin fallback was used, or the snapshot is older than its layers. */
  note: string | null;
}

/** Folder name, next to dist/pvfdoc.mjs, of the builtin snapshot `npm pack` puts into the package. */
export const PACKAGED_SNAPSHOTS = 'builtin-snapshots';
/** File in that folder holding `layerFilesHash` of the builtin layer it was built from. */
export const PACKAGED_LAYER_HASH = 'builtin-layer.sha256';

/**
 * The rules a command serves. An explicit `--snapshot(s)` must exist. Without it, `./snapshots/current`
 * is used when there is one; when there is none, the builtin rules shipped with pvfdoc are, so that
 * `npx pvfdoc serve` works in an empty folder with no build step. A `current` that exists but cannot be
 * read is an error, never silently replaced.
 */
export async function openRules(given: string | undefined): Promise<OpenedRules> {
  if (given !== undefined) return openGiven(given);
  const local = 'snapshots';
  if (existsSync(path.join(local, CURRENT_POINTER))) return openGiven(local);
  const builtin = await openBuiltin();
  const cwd = process.cwd();
  return {
    ...builtin,
    snapshotsDir: null,
    note:
      `no snapshots/current in ${cwd}: using the builtin rules shipped with pvfdoc (rulesRevision ${builtin.bundle.rulesRevision}, ` +
      `${builtin.origin === 'packaged' ? 'prebuilt' : 'compiled at start'}); run "npx pvfdoc build --layer <your layer>" here to add your own rules`,
  };
}

/** Only the bundle, for commands that print no note (or print it themselves). */
export async function openSnapshot(given: string | undefined, onNote: (line: string) => void = (line) => process.stderr.write(`pvfdoc: ${line}\n`)): Promise<Bundle> {
  const rules = await openRules(given);
  if (rules.note) onNote(rules.note);
  return rules.bundle;
}

async function openGiven(given: string): Promise<OpenedRules> {
  if (existsSync(path.join(given, MANIFEST_FILE))) return { bundle: await loadBundle(given), origin: 'snapshot', snapshotsDir: null, note: null };
  if (!existsSync(given)) {
    throw new PvfdocError('INVALID_BUNDLE', `${path.resolve(given)} does not exist`, {
      hint: 'Give a snapshots folder or a bundle folder written by "npx pvfdoc build", or leave the option out to use ./snapshots (or the builtin rules when there is none).',
      data: { file: given },
    });
  }
  const dir = await resolveCurrentBundleDir(given);
  if (!existsSync(path.join(dir, MANIFEST_FILE))) {
    throw new PvfdocError('INVALID_BUNDLE', `${path.join(given, CURRENT_POINTER)} names the snapshot ${path.basename(dir)}, which is not in ${path.resolve(given)} (deleted?)`, {
      hint: `Run "npx pvfdoc build${given === 'snapshots' ? '' : ` --out ${given}`}" (with your --layer options) to write it again and repoint current.`,
      data: { file: CURRENT_POINTER },
    });
  }
  const bundle = await loadBundle(dir);
  return { bundle, origin: 'snapshot', snapshotsDir: given, note: staleSnapshotNote(given, bundle.rulesRevision) };
}

/**
 * The prebuilt builtin snapshot of a package when it was built from exactly the shipped rules (in a
 * checkout, an old one left by `npm pack` must not hide edited rules), else the builtin layer compiled
 * in memory. docs/packaging.md has the measured start times of both.
 */
async function openBuiltin(): Promise<{ bundle: Bundle; origin: RulesOrigin }> {
  const layer = builtinLayerDir();
  if (layer === null) {
    throw new PvfdocError('INVALID_BUNDLE', 'no snapshots/current here, and the builtin layer of this pvfdoc install is missing', {
      hint: 'Reinstall pvfdoc (npm install pvfdoc), or build a snapshot of your own layers with "npx pvfdoc build --no-builtin --layer <dir>".',
    });
  }
  const packaged = path.join(path.dirname(fileURLToPath(import.meta.url)), PACKAGED_SNAPSHOTS);
  if (existsSync(path.join(packaged, CURRENT_POINTER)) && readStamp(path.join(packaged, PACKAGED_LAYER_HASH)) === layerFilesHash(layer)) {
    try {
      return { bundle: await loadBundle(await resolveCurrentBundleDir(packaged)), origin: 'packaged' };
    } catch {
      // Written by another pvfdoc version, or damaged: compiling the shipped layer is always possible.
    }
  }
  const { compileLayers } = await import('../build/compile-layers.js');
  const compiled = await compileLayers([layer]);
  if (!compiled.ok) {
    throw new PvfdocError('INVALID_BUNDLE', `the builtin layer at ${layer} does not compile (${compiled.problems.length} problems)`, {
      hint: 'Run "npx pvfdoc validate" to see the problems; reinstall pvfdoc if you did not edit it.',
    });
  }
  return { bundle: openBuiltBundle(compiled.bundle.files), origin: 'compiled' };
}

function readStamp(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}
