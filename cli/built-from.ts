/**
 * What a snapshots folder's current was built from: `pvfdoc build` records each layer folder and the
 * hash of its files next to the snapshots (`built-from.json`), and commands that serve current compare
 * them with the folders as they are now. A snapshot keeps the builtin rules of the pvfdoc that built
 * it, so after an upgrade (or a `git pull` in a checkout) it would otherwise serve the old knowledge
 * without a word; the same for a layer edited since the build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { builtinLayerDir, layerFilesHash } from './layers.js';

export const BUILT_FROM_FILE = 'built-from.json';

const BuiltFromSchema = z.strictObject({
  rulesRevision: z.string(),
  layers: z.array(
    z.strictObject({
      /** Absolute folder of the layer when it was built. */
      dir: z.string(),
      /** The builtin layer of the pvfdoc that built it: compared with the builtin layer shipped now, wherever that is. */
      builtin: z.boolean(),
      /** layerFilesHash of the folder then. */
      filesHash: z.string(),
    }),
  ),
});

type BuiltFrom = z.output<typeof BuiltFromSchema>;

/** Records the layers `revision` (now current) was compiled from. Written after current, replaced atomically. */
export async function writeBuiltFrom(snapshotsDir: string, revision: string, layers: readonly string[]): Promise<void> {
  const builtin = builtinLayerDir();
  const record: BuiltFrom = {
    rulesRevision: revision,
    layers: layers.map((dir) => {
      const absolute = path.resolve(dir);
      return { dir: absolute, builtin: builtin !== null && absolute === path.resolve(builtin), filesHash: layerFilesHash(absolute) };
    }),
  };
  const file = path.join(snapshotsDir, BUILT_FROM_FILE);
  const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
  await writeFile(tmp, `${JSON.stringify(record, null, 2)}\n`);
  await rename(tmp, file);
}

/**
 * One line saying which layers changed since `revision` was built from them and the command that
 * rebuilds it, or null when none did or nothing was recorded for that revision (a snapshot built by an
 * older pvfdoc, or a current set by hand).
 */
export function staleSnapshotNote(snapshotsDir: string, revision: string, defaultDir = 'snapshots'): string | null {
  const record = readBuiltFrom(snapshotsDir);
  if (record === null || record.rulesRevision !== revision) return null;
  const shippedBuiltin = builtinLayerDir();
  const changed: string[] = [];
  for (const layer of record.layers) {
    const dir = layer.builtin ? shippedBuiltin : layer.dir;
    if (dir === null || !existsSync(path.join(dir, 'layer.json'))) {
      changed.push(layer.builtin ? 'the builtin layer is missing' : `layer ${layer.dir} no longer exists`);
      continue;
    }
    let now: string;
    try {
      now = layerFilesHash(dir);
    } catch {
      changed.push(`layer ${dir} cannot be read`);
      continue;
    }
    if (now !== layer.filesHash) changed.push(layer.builtin ? 'the builtin rules of this pvfdoc' : `layer ${layer.dir}`);
  }
  if (changed.length === 0) return null;
  const own = record.layers.filter((l) => !l.builtin).map((l) => ` --layer ${quoteArg(path.relative(process.cwd(), l.dir) || '.')}`);
  const noBuiltin = record.layers.some((l) => l.builtin) ? '' : ' --no-builtin';
  const out = path.resolve(snapshotsDir) === path.resolve(defaultDir) ? '' : ` --out ${quoteArg(snapshotsDir)}`;
  return (
    `${path.join(snapshotsDir, 'current')} (rulesRevision ${revision}) is older than the rules it was built from: ${changed.join(', ')} changed since. ` +
    // The command last and unquoted, so it can be copied whole, quoted paths included (cmd.exe has no single quotes).
    `Serving it as built; to serve the rules as they are now, run: npx pvfdoc build${noBuiltin}${own.join('')}${out}`
  );
}

function readBuiltFrom(snapshotsDir: string): BuiltFrom | null {
  try {
    const parsed = BuiltFromSchema.safeParse(JSON.parse(readFileSync(path.join(snapshotsDir, BUILT_FROM_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    // No record (built before pvfdoc wrote one) or an unreadable one: nothing can be said.
    return null;
  }
}

/** A path as one shell argument where it needs quoting (spaces are common on Windows). */
function quoteArg(value: string): string {
  return /^[\w./:\\-]+$/.test(value) ? value : `"${value}"`;
}
