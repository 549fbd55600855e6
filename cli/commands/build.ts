import { watch } from 'node:fs';
import path from 'node:path';
import { compileLayers } from '../../build/compile-layers.js';
import { writeBundle } from '../../build/write-bundle.js';
import { formatError, isPvfdocError } from '../../runtime/errors.js';
import { parseCommandArgs } from '../args.js';
import { writeBuiltFrom } from '../built-from.js';
import { layerList } from '../layers.js';
import { printProblems } from '../print-problems.js';

const HELP = `Usage: pvfdoc build [--layer <dir>]... [--no-builtin] [--out <snapshots dir>] [--watch]

Compiles rule layers into snapshots/<rulesRevision>/ and points snapshots/current at it. The builtin
layer shipped with pvfdoc always comes first; each --layer follows in the order given, and a later layer
overrides an earlier one's definition of the same id. Invalid input writes nothing and leaves current alone.
  --layer <dir>   a layer folder (layer.json + annotations.json, annotations/*.json, lists.json,
                  rendering.json); repeatable
  --no-builtin    leave out the builtin layer (then give at least one --layer)
  --out <dir>     snapshots folder (default ./snapshots)
  --watch         rebuild whenever a layer file changes; stop with Ctrl+C`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    'build',
    argv,
    { layer: { type: 'string', multiple: true }, 'no-builtin': { type: 'boolean' }, out: { type: 'string' }, watch: { type: 'boolean' } },
    false,
  );
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const layers = layerList(values.layer, values['no-builtin']);
  const out = values.out ?? 'snapshots';
  const code = await buildOnce(layers, out);
  if (!values.watch) return code;
  return watchLayers(layers, out);
}

async function buildOnce(layers: string[], out: string): Promise<number> {
  const result = await compileLayers(layers);
  printProblems(result.problems);
  if (!result.ok) {
    process.stderr.write('build failed: nothing was written and snapshots/current is unchanged\n');
    return 1;
  }
  const dir = await writeBundle(out, result.bundle, { setCurrent: true });
  await writeBuiltFrom(out, result.bundle.rulesRevision, layers);
  const { counts } = result.bundle.manifest;
  process.stdout.write(
    `rulesRevision ${result.bundle.rulesRevision}\n` +
      `  ${counts.rules} rules, ${counts.fields} fields (+${counts.generatedRules} implicit field rules), ` +
      `${counts.relations} relations, ${counts.renderingRules} rendering rules, ${counts.enumValues} enum values\n` +
      `  effective per version: ${Object.entries(counts.effectiveByVersion)
        .map(([v, n]) => `${v === '' ? '(unknown)' : v} ${n}`)
        .join(', ')}\n` +
      `  written to ${path.relative(process.cwd(), dir) || dir}; current → ${result.bundle.rulesRevision}\n`,
  );
  return 0;
}

function watchLayers(layers: string[], out: string): Promise<number> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let running = Promise.resolve();
    const rebuild = () => {
      running = running.then(async () => {
        process.stdout.write(`\n[${new Date().toLocaleTimeString()}] change detected, rebuilding…\n`);
        try {
          await buildOnce(layers, out);
        } catch (error) {
          process.stderr.write(`build failed: ${isPvfdocError(error) ? formatError(error) : String(error)}\n`);
        }
      });
    };
    const watchers = layers.map((dir) =>
      watch(dir, { recursive: true }, () => {
        clearTimeout(timer);
        timer = setTimeout(rebuild, 150);
      }),
    );
    process.stdout.write(`watching ${layers.join(', ')} (Ctrl+C to stop)\n`);
    process.once('SIGINT', () => {
      for (const w of watchers) w.close();
      clearTimeout(timer);
      resolve(0);
    });
  });
}
