/**
 * Opens the two sides of a diff. A side is a bundle folder, a revision in a snapshots folder (a unique
 * prefix of one, or "current"), or a list of layer folders compiled in memory. Before either bundle is
 * loaded, the schema versions of both manifests are compared, so two bundles of different schema
 * versions fail with a message naming both, not with the load error of one of them.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE } from '../../runtime/bundle/constants.js';
import { loadBundle, openBuiltBundle, resolveCurrentBundleDir, type Bundle } from '../../runtime/bundle/load-bundle.js';
import { SCHEMA_VERSION } from '../../runtime/bundle/schema.js';
import { isPvfdocError, PvfdocError } from '../../runtime/errors.js';
import { compileLayers } from '../compile-layers.js';
import type { Problem } from '../problems.js';

export type SideName = 'old' | 'new';

/** What the user gave for one side. */
export type SideSpec = { kind: 'path'; spec: string } | { kind: 'layers'; dirs: readonly string[] };

export interface OpenedSide {
  bundle: Bundle;
  /** Where it came from, for messages: a folder, or "layers a, b". */
  label: string;
  /** Warnings of a layer compile (errors throw). */
  problems: Problem[];
}

/**
 * The bundle folder a path side names: a folder with manifest.json; a snapshots folder (its
 * `current`); "current" or a revision (or a unique prefix of one, 4+ hex digits) in `snapshotsDir`.
 */
export async function resolveSideDir(name: SideName, spec: string, snapshotsDir: string): Promise<string> {
  if (existsSync(path.join(spec, MANIFEST_FILE))) return spec;
  if (existsSync(path.join(spec, 'current'))) return resolveCurrentBundleDir(spec);
  if (spec === 'current') return resolveCurrentBundleDir(snapshotsDir);
  if (/^[0-9a-f]{4,64}$/.test(spec)) {
    const exact = path.join(snapshotsDir, spec);
    if (existsSync(path.join(exact, MANIFEST_FILE))) return exact;
    let entries: string[] = [];
    try {
      entries = await readdir(snapshotsDir);
    } catch {
      // no snapshots folder: reported below
    }
    const found = entries.filter((e) => e.startsWith(spec) && existsSync(path.join(snapshotsDir, e, MANIFEST_FILE))).sort();
    if (found.length === 1) return path.join(snapshotsDir, found[0] as string);
    if (found.length > 1) {
      throw new PvfdocError('INVALID_ARGUMENT', `${name} side "${spec}" matches several revisions in ${snapshotsDir}: ${found.join(', ')}`, {
        hint: 'Give more digits of the revision.',
      });
    }
  }
  throw new PvfdocError('INVALID_BUNDLE', `${name} side "${spec}" is neither a bundle folder (with ${MANIFEST_FILE}) nor a revision in ${snapshotsDir}`, {
    hint: `Give a folder written by pvfdoc build, a revision listed in ${snapshotsDir} (see --snapshots), or --${name}-layer <dir>.`,
    data: { side: name, spec, file: path.join(spec, MANIFEST_FILE) },
  });
}

/** The manifest's schemaVersion as written, or undefined when it cannot be read (loading then says why). */
async function peekSchemaVersion(dir: string): Promise<unknown> {
  try {
    return (JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as { schemaVersion?: unknown } | null)?.schemaVersion;
  } catch {
    return undefined;
  }
}

/** Opens both sides; errors are PvfdocErrors whose message says which side. */
export async function openDiffSides(
  specs: Record<SideName, SideSpec>,
  snapshotsDir: string,
): Promise<Record<SideName, OpenedSide>> {
  const names: SideName[] = ['old', 'new'];
  const dirs: Partial<Record<SideName, string>> = {};
  for (const name of names) {
    const spec = specs[name];
    if (spec.kind === 'path') dirs[name] = await resolveSideDir(name, spec.spec, snapshotsDir);
  }
  const versions: Partial<Record<SideName, unknown>> = {};
  for (const name of names) {
    const dir = dirs[name];
    versions[name] = dir === undefined ? SCHEMA_VERSION : await peekSchemaVersion(dir);
  }
  const [vOld, vNew] = [versions.old, versions.new];
  if (vOld !== undefined && vNew !== undefined && vOld !== vNew) {
    const where = (name: SideName) => dirs[name] ?? 'compiled from its layers';
    throw new PvfdocError(
      'INVALID_BUNDLE',
      `the old side (${where('old')}) has schemaVersion ${JSON.stringify(vOld)} and the new side (${where('new')}) has schemaVersion ${JSON.stringify(vNew)}; a diff compares two bundles of the same schema version`,
      {
        hint: `Rebuild the older one from its layers with this pvfdoc (schemaVersion ${SCHEMA_VERSION}), or diff the layers directly with --old-layer/--new-layer.`,
        data: { file: MANIFEST_FILE, old: vOld, new: vNew },
      },
    );
  }
  const opened: Partial<Record<SideName, OpenedSide>> = {};
  for (const name of names) {
    const spec = specs[name];
    const dir = dirs[name];
    opened[name] = spec.kind === 'layers' ? await compileSide(name, spec.dirs) : await loadSide(name, dir ?? '');
  }
  return opened as Record<SideName, OpenedSide>;
}

async function loadSide(name: SideName, dir: string): Promise<OpenedSide> {
  try {
    return { bundle: await loadBundle(dir), label: dir, problems: [] };
  } catch (error) {
    if (!isPvfdocError(error)) throw error;
    throw new PvfdocError(error.code, `${name} side ${dir}: ${error.message}`, {
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      data: { ...error.data, side: name, dir },
      cause: error,
    });
  }
}

async function compileSide(name: SideName, dirs: readonly string[]): Promise<OpenedSide> {
  const result = await compileLayers(dirs);
  if (!result.ok) {
    const errors = result.problems.filter((p) => p.severity === 'error').length;
    throw new PvfdocError('INVALID_RULES', `${name} side: the layers ${dirs.join(', ')} do not compile (${errors} error${errors === 1 ? '' : 's'})`, {
      hint: `Fix the problems listed above (pvfdoc validate --layer … shows them too).`,
      data: { side: name, problems: result.problems },
    });
  }
  return { bundle: openBuiltBundle(result.bundle.files), label: `layers ${dirs.join(', ')}`, problems: result.problems };
}
