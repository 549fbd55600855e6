import { DEFAULT_ENUM_SAMPLE_SIZE, diffBundles } from '../../build/diff/diff-bundles.js';
import { openDiffSides, type SideSpec } from '../../build/diff/open-sides.js';
import { renderDiffMarkdown } from '../../build/diff/render-markdown.js';
import { renderDiffText } from '../../build/diff/render-text.js';
import type { Problem } from '../../build/problems.js';
import { formatError, isPvfdocError } from '../../runtime/errors.js';
import { parseCommandArgs, parseIntOption, UsageError } from '../args.js';
import { printProblems } from '../print-problems.js';

const HELP = `Usage: pvfdoc diff <old> <new> [options]

Shows what changed between two rule snapshots: documents added, removed, moved and changed (part by
part), enum values, per-version effective state, relations, rendering rules and layers, grouped by
file type. Prints nothing when nothing changed.

Each side is a bundle folder, a revision in the snapshots folder (a unique prefix, or "current"), or
a list of layers compiled in memory:
  --old-layer <dir>     a layer of the old side (repeatable, in build order); replaces <old>
  --new-layer <dir>     a layer of the new side (repeatable); replaces <new>
  --snapshots <dir>     where revisions are looked up (default ./snapshots)
  --format <f>          text (default), md (Markdown) or json (schema: SnapshotDiffSchema, docs/diff.md)
  --color <when>        auto (default: on a terminal, unless NO_COLOR is set), always or never
  --values <n>          enum values listed per change (default ${DEFAULT_ENUM_SAMPLE_SIZE}); counts are always exact
  --exit-code           exit 1 when there are changes, like git diff --exit-code

Exit codes: 0 done (no changes, or changes without --exit-code); 1 changes with --exit-code;
2 bad usage, a missing or corrupt side, bundles of different schema versions, or layers that do
not compile.`;

const FORMATS = ['text', 'md', 'json'] as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'diff',
    argv,
    {
      'old-layer': { type: 'string', multiple: true },
      'new-layer': { type: 'string', multiple: true },
      snapshots: { type: 'string' },
      format: { type: 'string' },
      color: { type: 'string' },
      values: { type: 'string' },
      'exit-code': { type: 'boolean' },
    },
    true,
  );
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const format = values.format ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`diff: --format takes text, md or json, got "${format}"`);
  const colorWhen = values.color ?? 'auto';
  if (!['auto', 'always', 'never'].includes(colorWhen)) throw new UsageError(`diff: --color takes auto, always or never, got "${colorWhen}"`);
  const enumSampleSize = parseIntOption('diff', 'values', values.values) ?? DEFAULT_ENUM_SAMPLE_SIZE;

  const rest = [...positionals];
  const side = (name: 'old' | 'new', layers: string[] | undefined): SideSpec => {
    if (layers && layers.length > 0) return { kind: 'layers', dirs: layers };
    const spec = rest.shift();
    if (spec === undefined) {
      throw new UsageError(`diff: the ${name} side is missing; give <old> <new> (bundle folders or revisions) or --${name}-layer <dir>. Run "pvfdoc diff --help".`);
    }
    return { kind: 'path', spec };
  };
  const specs = { old: side('old', values['old-layer']), new: side('new', values['new-layer']) };
  if (rest.length > 0) throw new UsageError(`diff: unexpected argument "${rest[0] ?? ''}"; give at most one <old> and one <new>`);

  let diff;
  try {
    const sides = await openDiffSides(specs, values.snapshots ?? 'snapshots');
    printProblems([...sides.old.problems, ...sides.new.problems]);
    diff = diffBundles(sides.old.bundle, sides.new.bundle, { enumSampleSize });
  } catch (error) {
    // Errors exit 2 here, distinct from the 1 of --exit-code.
    if (!isPvfdocError(error)) throw error;
    const problems = error.data?.problems;
    if (Array.isArray(problems)) printProblems(problems as Problem[]);
    process.stderr.write(`pvfdoc: [${error.code}] ${formatError(error)}\n`);
    return 2;
  }

  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(diff, null, 2)}\n`);
  } else if (format === 'md') {
    process.stdout.write(renderDiffMarkdown(diff));
  } else {
    const color = colorWhen === 'always' || (colorWhen === 'auto' && autoColor(process.stdout.isTTY === true, process.env));
    process.stdout.write(renderDiffText(diff, { color }));
  }
  return values['exit-code'] && diff.hasChanges ? 1 : 0;
}

/** Colour on a terminal, unless NO_COLOR is set to anything but "" (https://no-color.org) or TERM is dumb. */
export function autoColor(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  const noColor = env.NO_COLOR;
  return isTTY && (noColor === undefined || noColor === '') && env.TERM !== 'dumb';
}
