import { compileLayers } from '../../build/compile-layers.js';
import { parseCommandArgs } from '../args.js';
import { layerList } from '../layers.js';
import { printProblems } from '../print-problems.js';

const HELP = `Usage: pvfdoc validate [--layer <dir>]... [--no-builtin]

Checks rule layers and reports every problem with its layer, file and JSON path. Writes nothing.
Exit code 0 when valid, 1 when any layer has an error.
  --layer <dir>   a layer folder to check after the builtin layer; repeatable, in order
  --no-builtin    leave out the builtin layer shipped with pvfdoc (it comes first otherwise)`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('validate', argv, { layer: { type: 'string', multiple: true }, 'no-builtin': { type: 'boolean' } }, false);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const layers = layerList(values.layer, values['no-builtin']);
  const result = await compileLayers(layers);
  printProblems(result.problems);
  if (!result.ok) return 1;
  const { counts } = result.bundle.manifest;
  process.stdout.write(
    `valid: ${layers.length} layer(s), ${counts.rules} rules, ${counts.fields} fields, ${counts.relations} relations, ${counts.renderingRules} rendering rules\n`,
  );
  return 0;
}
