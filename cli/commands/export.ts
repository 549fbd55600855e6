import { exportKnowledge, parseExportFormat } from '../../build/export/export-knowledge.js';
import { readExportBase, writeExport } from '../../build/export/write-export.js';
import { PvfdocError } from '../../runtime/errors.js';
import { parseCommandArgs, UsageError } from '../args.js';
import { openSnapshot } from '../open-snapshot.js';

const HELP = `Usage: pvfdoc export --format <format> --out <dir> [options]

Writes what the snapshot knows about each section tag, per file type, in the files an editor shows
as tag hovers (docs/editors.md says where to put them):
  --format pvfutility         pvfUtility's tag comments: <ext>.json for Options/PvfComments/
  --format vscode-scripttags  the pvf-parser-ts VS Code extension: <ext>.json for scriptTags/
  --out <dir>          folder to write into: new, empty, or an earlier export (replaced); with
                       --force any folder (files of the same names replaced, others left alone)
  --snapshot <dir>     bundle folder, or a snapshots folder (uses its current); default ./snapshots,
                       else the builtin rules
  --site-url <url>     the reference site's address: every entry links to its rules' pages
  --base <dir>         the editor's own files: merged, keeping the tags pvfdoc has nothing on
  --pvf-version <V>    only the rules of one client version (90US, 90CN, 110US); default: all
  --force              write into a folder that holds other files
  --json               print what was written as JSON`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'export',
    argv,
    {
      format: { type: 'string' },
      out: { type: 'string' },
      snapshot: { type: 'string' },
      'site-url': { type: 'string' },
      base: { type: 'string' },
      'pvf-version': { type: 'string' },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`export: unexpected argument "${positionals[0] ?? ''}"; give the folder as --out <dir>. Run "pvfdoc export --help".`);
  const format = parseExportFormat(values.format);
  const out = values.out;
  if (out === undefined || out.trim() === '') {
    throw new PvfdocError('INVALID_ARGUMENT', 'export needs --out <dir>', { hint: 'Give the folder to write the files into, e.g. --out pvfdoc-export (docs/editors.md says where they go then).' });
  }
  const base = values.base !== undefined ? await readExportBase(values.base) : new Map<string, string>();
  const bundle = await openSnapshot(values.snapshot);
  const result = exportKnowledge(bundle, { format, siteUrl: values['site-url'] ?? null, pvfVersion: values['pvf-version'] ?? null }, base);
  const written = await writeExport(out, result, { force: values.force === true });
  if (values.json) {
    const files = result.files.map(({ text: _text, ...file }) => file);
    process.stdout.write(`${JSON.stringify({ ...result, files, outDir: written.outDir, removed: written.removed }, null, 2)}\n`);
    return 0;
  }
  const tags = result.files.reduce((n, f) => n + f.tags, 0);
  const lines = [`export: ${format} from snapshot ${result.rulesRevision}${result.pvfVersion ? ` (${result.pvfVersion})` : ''}: ${result.files.length} files, ${tags} tags → ${written.outDir}`];
  const kept = result.files.filter((f) => f.kept > 0);
  if (kept.length > 0) lines.push(`  kept from --base: ${kept.map((f) => `${f.path} ${f.kept}`).join(', ')} entries`);
  for (const s of result.skipped) lines.push(`  not written: ${s.ext} (${s.tags} tags): ${s.reason}`);
  const { path, sectionPattern, topLevel, badExtension } = result.leftOut;
  lines.push(`  rules without a tag to hover (not exported): ${path} path notes, ${sectionPattern} section patterns, ${topLevel} before the first section, ${badExtension} with an unusable file type`);
  if (written.removed.length > 0) lines.push(`  removed from the earlier export: ${written.removed.join(', ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
