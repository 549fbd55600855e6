/**
 * `pvfdoc site`: builds the static reference site (site/, Astro) from one snapshot. The snapshot is
 * loaded and checked here, before Astro starts, so a missing, corrupt or foreign bundle is one clear
 * error. The changes page compares it with the previous snapshot through the diff library.
 */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { CURRENT_POINTER, MANIFEST_FILE } from '../../runtime/bundle/constants.js';
import { loadBundle, resolveCurrentBundleDir, type Bundle } from '../../runtime/bundle/load-bundle.js';
import { formatError, isPvfdocError, PvfdocError } from '../../runtime/errors.js';
import type { ChangesData } from '../../site/src/lib/changes.js';
import { parseCommandArgs } from '../args.js';

const HELP = `Usage: pvfdoc site [options]

Builds the static reference site (Chinese UI) from one snapshot: overview, a page per file type,
section, document, relation, shared fields, changes, and a search that runs the MCP search code in
the browser over the snapshot's own index. Needs a pvfdoc checkout with its dev dependencies
(git clone, then npm ci): the site sources and Astro are not part of the npm package.
  --snapshot <dir>   a bundle folder (holds manifest.json), or a snapshots folder (uses its current);
                     default ./snapshots
  --out <dir>        where to write the site (default ./site/dist); must be new, empty, or a site
                     pvfdoc built before (which is replaced)
  --base <path>      URL path the site will be served under (default /)
  --previous <dir>   the bundle the changes page compares with; default: the newest other bundle
                     in the snapshot's snapshots folder
  --no-changes       build the changes page without a comparison
  --quiet            print nothing but errors
  --json             print the build's figures (pages, files, bytes, timings) as JSON on stdout

Serve the folder with any static file server; npm start serves it next to the MCP endpoint.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    'site',
    argv,
    {
      snapshot: { type: 'string' },
      out: { type: 'string' },
      base: { type: 'string' },
      previous: { type: 'string' },
      'no-changes': { type: 'boolean' },
      quiet: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    false,
  );
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const say = (line: string) => {
    if (!values.quiet) process.stderr.write(`${line}\n`);
  };

  const { buildSite, findSiteRoot, SiteBuildError } = await import('../../site/build-site.js');
  try {
    findSiteRoot();
  } catch (error) {
    if (error instanceof SiteBuildError) throw new PvfdocError(error.code, error.message, { hint: error.hint });
    throw error;
  }
  // Everything that can be wrong with the input is found before Astro starts.
  const bundle = await loadBundle(await resolveBundleDir(values.snapshot ?? 'snapshots', '--snapshot'));
  const previousDir = values.previous !== undefined ? await resolveBundleDir(values.previous, '--previous') : null;
  const previous = previousDir !== null ? await loadBundle(previousDir) : null;
  const changes = values['no-changes'] ? noChanges('构建时选择了 --no-changes。') : await changesFor(bundle, previous);

  say(`site: building from snapshot ${bundle.rulesRevision} (${bundle.documents.length} documents)…`);
  try {
    const result = await buildSite({ bundle, outDir: values.out ?? path.join('site', 'dist'), ...(values.base !== undefined ? { base: values.base } : {}), changes });
    if (values.json) process.stdout.write(`${JSON.stringify({ ...result, changes: changes.status }, null, 2)}\n`);
    say(
      `site: ${result.pages} pages, ${result.files} files, ${(result.bytes / 1024 / 1024).toFixed(1)} MiB in ${(result.timings.totalMs / 1000).toFixed(1)} s → ${result.outDir}` +
        `\nsite: changes page: ${changes.status === 'diff' ? `against ${changes.previous.rulesRevision}` : changes.reason}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof SiteBuildError) throw new PvfdocError(error.code, error.message, { hint: error.hint });
    throw error;
  }
}

/** A bundle folder, or a snapshots folder's current bundle; a clear INVALID_BUNDLE otherwise. */
async function resolveBundleDir(given: string, option: string): Promise<string> {
  if (!existsSync(given)) {
    throw new PvfdocError('INVALID_BUNDLE', `${option} ${given} does not exist`, {
      hint: 'Give a bundle folder written by pvfdoc build, or a snapshots folder ("npx pvfdoc build" makes one).',
      data: { file: given },
    });
  }
  if (existsSync(path.join(given, MANIFEST_FILE))) return given;
  if (existsSync(path.join(given, CURRENT_POINTER))) return resolveCurrentBundleDir(given);
  throw new PvfdocError('INVALID_BUNDLE', `${option} ${given} is neither a bundle folder (no ${MANIFEST_FILE}) nor a snapshots folder (no ${CURRENT_POINTER})`, {
    hint: 'Give a folder written by pvfdoc build.',
    data: { file: given },
  });
}

function noChanges(reason: string): ChangesData {
  return { status: 'none', reason };
}

/**
 * The changes page's data: the diff against `previous`, else against the newest other bundle of the
 * snapshot's own snapshots folder (by manifest time). A previous bundle that cannot be read or
 * compared leaves a page that says why; it never stops the build.
 */
async function changesFor(bundle: Bundle, previous: Bundle | null): Promise<ChangesData> {
  let old = previous;
  if (old === null) {
    const candidate = await newestOtherBundle(bundle.dir);
    if (candidate === null) return noChanges('快照所在的 snapshots 文件夹中没有其他快照（可用 --previous 指定）。');
    try {
      old = await loadBundle(candidate);
    } catch (error) {
      const reason = isPvfdocError(error) ? formatError(error) : String(error);
      return { status: 'unavailable', reason: `上一个快照无法读取：${reason}`, previous: { rulesRevision: path.basename(candidate), name: path.basename(candidate) } };
    }
  }
  const ref = { rulesRevision: old.rulesRevision, name: path.basename(old.dir) };
  if (old.rulesRevision === bundle.rulesRevision) return noChanges('上一个快照与当前快照相同。');
  try {
    const { diffBundles } = await import('../../build/diff/diff-bundles.js');
    const { renderDiffText } = await import('../../build/diff/render-text.js');
    const diff = diffBundles(old, bundle);
    return { status: 'diff', previous: ref, diff, text: renderDiffText(diff, { color: false }) };
  } catch (error) {
    const reason = isPvfdocError(error) ? formatError(error) : error instanceof Error ? error.message : String(error);
    return { status: 'unavailable', reason: `比较失败：${reason}`, previous: ref };
  }
}

/** The other bundle folder next to `dir` whose manifest was written last, or null. */
async function newestOtherBundle(dir: string): Promise<string | null> {
  const self = path.resolve(dir);
  const parent = path.dirname(self);
  // Only a snapshots folder (it has a current pointer) is searched, never an arbitrary parent folder.
  if (!existsSync(path.join(parent, CURRENT_POINTER))) return null;
  let best: { dir: string; time: number } | null = null;
  let entries: string[] = [];
  try {
    entries = await readdir(parent);
  } catch {
    return null;
  }
  for (const name of entries) {
    const candidate = path.join(parent, name);
    if (candidate === self) continue;
    try {
      const time = (await stat(path.join(candidate, MANIFEST_FILE))).mtimeMs;
      if (best === null || time > best.time || (time === best.time && candidate > best.dir)) best = { dir: candidate, time };
    } catch {
      // not a bundle folder
    }
  }
  return best?.dir ?? null;
}
