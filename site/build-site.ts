/**
 * Builds the reference site from one checked snapshot bundle (ARCHITECTURE §7): Astro renders the
 * pages (site/src/pages) in this process, reading the bundle named through the environment; esbuild
 * bundles the browser search (site/src/browser/search-app.ts, the runtime's own search code with
 * browser stand-ins for the few Node modules the bundle reader imports); the bundle's files are copied
 * next to the pages, byte for byte, and beside them the light search files derived from the bundle
 * (site/src/browser/search-files.ts: a search head and content shards, under a hashed search.json whose
 * sha256 the search page carries), for the browser to load and hash-check.
 *
 * The caller (cli/commands/site.ts) loads and checks the bundle first, so a missing, corrupt or
 * foreign snapshot fails before Astro starts.
 */
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as AstroModule from 'astro';
import type * as EsbuildModule from 'esbuild';
import { MANIFEST_FILE } from '../runtime/bundle/constants.js';
import type { Bundle } from '../runtime/bundle/load-bundle.js';
import { BUNDLE_FILES } from '../runtime/bundle/schema.js';
import { bundleAssetDir, ENV_BUNDLE_DIR, ENV_CHANGES_FILE, ENV_SEARCH_MANIFEST, searchAssetDir, SEARCH_SCRIPT, SITE_STAMP } from './src/lib/assets.js';
import { buildSearchFiles, SEARCH_HEAD_NAME } from './src/browser/search-files.js';
import { NO_CHANGES_DATA, type ChangesData } from './src/lib/changes.js';

/** A failure of the site build that is the user's to fix (the CLI reports it as one line). */
export class SiteBuildError extends Error {
  override readonly name = 'SiteBuildError';
  constructor(
    message: string,
    readonly hint: string,
    /** INVALID_ARGUMENT: an option to change; IO_ERROR: a missing part of the installation. */
    readonly code: 'INVALID_ARGUMENT' | 'IO_ERROR' = 'INVALID_ARGUMENT',
  ) {
    super(message);
  }
}

export interface BuildSiteOptions {
  /** A bundle loaded (and so checked) from disk: its `dir` is what the pages read. */
  bundle: Bundle;
  outDir: string;
  /** URL path the site is served under, default "/". */
  base?: string;
  /** Data of the changes page; default: no previous snapshot. */
  changes?: ChangesData;
  /** Astro's log level; default "warn". */
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

export interface BuildSiteResult {
  outDir: string;
  rulesRevision: string;
  /** HTML pages written, and their total size. */
  pages: number;
  htmlBytes: number;
  /** Every file of the site and their total size. */
  files: number;
  bytes: number;
  /** Size of the browser search script, and of the bundle copy (its six files). */
  searchScriptBytes: number;
  bundleBytes: number;
  /** The light search files: all of them, the head, and the content shards. */
  searchFiles: { files: number; bytes: number; headBytes: number; shards: number };
  timings: { astroMs: number; searchScriptMs: number; totalMs: number };
}

/** The site folder (holds astro.config.mjs and src/pages), found from this module's location. */
export function findSiteRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'astro.config.mjs')) && existsSync(path.join(dir, 'src/pages'))) return dir;
    const nested = path.join(dir, 'site');
    if (existsSync(path.join(nested, 'astro.config.mjs')) && existsSync(path.join(nested, 'src/pages'))) return nested;
    if (path.dirname(dir) === dir) break;
  }
  throw new SiteBuildError('the site sources (site/astro.config.mjs, site/src/pages) are not part of this installation', 'The site sources and Astro are not part of the npm package: in a clone of the pvfdoc repository run npm ci, then npm run site -- --snapshot <your snapshots folder>.', 'IO_ERROR');
}

/** A dev dependency, imported by a name the CLI bundler leaves alone (so it is resolved at run time). */
async function importDevDependency<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (cause) {
    throw new SiteBuildError(`the site build needs the "${name}" package, which cannot be loaded (${(cause as Error).message.split('\n')[0] ?? ''})`, 'Run npm ci in the pvfdoc checkout (astro and esbuild are dev dependencies).', 'IO_ERROR');
  }
}

export async function buildSite(options: BuildSiteOptions): Promise<BuildSiteResult> {
  const started = performance.now();
  const { bundle } = options;
  if (bundle.dir === '') throw new SiteBuildError('the site is built from a bundle folder on disk', 'Write the snapshot with pvfdoc build first.');
  const siteRoot = findSiteRoot();
  const outDir = path.resolve(options.outDir);
  const base = normalizeBase(options.base ?? '/');
  await prepareOutDir(outDir);
  // Marks the folder as ours at once, so a build that fails half way can be replaced by the next one.
  await mkdir(path.join(outDir, path.dirname(SITE_STAMP)), { recursive: true });
  await writeFile(path.join(outDir, SITE_STAMP), `${JSON.stringify({ generator: 'pvfdoc site', building: true })}\n`);

  const work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-site-'));
  const cleanup = [work];
  const saved = {
    bundle: process.env[ENV_BUNDLE_DIR],
    changes: process.env[ENV_CHANGES_FILE],
    search: process.env[ENV_SEARCH_MANIFEST],
    telemetry: process.env.ASTRO_TELEMETRY_DISABLED,
  };
  try {
    const changesFile = path.join(work, 'changes.json');
    await writeFile(changesFile, JSON.stringify(options.changes ?? NO_CHANGES_DATA));
    // Before the pages: the search page carries the sha256 of search.json.
    const search = buildSearchFiles(bundle, await readFile(path.join(bundle.dir, MANIFEST_FILE)));
    process.env[ENV_BUNDLE_DIR] = path.resolve(bundle.dir);
    process.env[ENV_CHANGES_FILE] = changesFile;
    process.env[ENV_SEARCH_MANIFEST] = search.manifestSha256;
    process.env.ASTRO_TELEMETRY_DISABLED = '1';

    const astro = await importDevDependency<typeof AstroModule>('astro');
    const esbuild = await importDevDependency<typeof EsbuildModule>('esbuild');
    const astroStarted = performance.now();
    // Astro writes its prerender chunks into outDir and imports them from there; they resolve their
    // packages (piccolore, …) through node_modules, so they must be written inside the checkout, then moved.
    const stage = await mkdtemp(path.join(siteRoot, '.build-'));
    cleanup.push(stage);
    // Astro puts some of its build files under the working folder (.astro/); run it from the site
    // folder so that nothing is left where the user stands and those files resolve node_modules.
    const cwd = process.cwd();
    process.chdir(siteRoot);
    cleanup.push(path.join(siteRoot, '.astro', 'pages'));
    try {
      await astro.build({
        root: siteRoot,
        outDir: stage,
        base,
        cacheDir: path.join(work, 'cache'),
        logLevel: options.logLevel ?? 'warn',
        // prepareOutDir emptied it already; Astro would also delete the stamp that marks it as ours.
        vite: { build: { emptyOutDir: false } },
      });
    } finally {
      process.chdir(cwd);
    }
    await moveEntries(stage, outDir);
    const astroMs = performance.now() - astroStarted;

    const scriptStarted = performance.now();
    await buildSearchScript(esbuild, siteRoot, path.join(outDir, SEARCH_SCRIPT));
    const searchScriptMs = performance.now() - scriptStarted;

    const bundleDir = path.join(outDir, bundleAssetDir(bundle.rulesRevision));
    await mkdir(bundleDir, { recursive: true });
    for (const name of [MANIFEST_FILE, ...BUNDLE_FILES]) await copyFile(path.join(bundle.dir, name), path.join(bundleDir, name));
    const bundleBytes = (await folderStats(bundleDir)).bytes;
    const searchDir = path.join(outDir, searchAssetDir(bundle.rulesRevision, search.dirName));
    await mkdir(searchDir, { recursive: true });
    for (const [name, text] of search.files) await writeFile(path.join(searchDir, name), text);
    await writeFile(path.join(outDir, SITE_STAMP), `${JSON.stringify({ generator: 'pvfdoc site', rulesRevision: bundle.rulesRevision, base })}\n`);

    const stats = await folderStats(outDir);
    return {
      outDir,
      rulesRevision: bundle.rulesRevision,
      pages: stats.pages,
      htmlBytes: stats.htmlBytes,
      files: stats.files,
      bytes: stats.bytes,
      searchScriptBytes: (await stat(path.join(outDir, SEARCH_SCRIPT))).size,
      bundleBytes,
      searchFiles: {
        files: search.files.size,
        bytes: (await folderStats(searchDir)).bytes,
        headBytes: Buffer.byteLength(search.files.get(SEARCH_HEAD_NAME) ?? ''),
        shards: search.files.size - 2,
      },
      timings: { astroMs, searchScriptMs, totalMs: performance.now() - started },
    };
  } finally {
    restoreEnv(ENV_BUNDLE_DIR, saved.bundle);
    restoreEnv(ENV_CHANGES_FILE, saved.changes);
    restoreEnv(ENV_SEARCH_MANIFEST, saved.search);
    restoreEnv('ASTRO_TELEMETRY_DISABLED', saved.telemetry);
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
  }
}

/** Moves every entry of `from` into `to` (rename; copy where they are on different file systems). */
async function moveEntries(from: string, to: string): Promise<void> {
  for (const name of await readdir(from)) {
    const source = path.join(from, name);
    const target = path.join(to, name);
    try {
      await rename(source, target);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'EXDEV') throw cause;
      await cp(source, target, { recursive: true });
      await rm(source, { recursive: true, force: true });
    }
  }
}

/**
 * Node modules the bundle reader imports, and their browser stand-ins. Anything else from node: in the
 * search bundle fails the build: the browser must run the runtime's code, not a Node-only copy of it.
 */
const NODE_SHIMS: Record<string, string> = {
  'node:crypto': 'src/browser/shims/node-crypto.ts',
  'node:fs': 'src/browser/shims/node-unavailable.ts',
  'node:fs/promises': 'src/browser/shims/node-unavailable.ts',
  'node:path': 'src/browser/shims/node-unavailable.ts',
};

export async function buildSearchScript(esbuild: typeof EsbuildModule, siteRoot: string, outfile: string): Promise<void> {
  const result = await esbuild.build({
    entryPoints: [path.join(siteRoot, 'src/browser/search-app.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
    inject: [path.join(siteRoot, 'src/browser/shims/node-buffer.ts')],
    plugins: [
      {
        name: 'pvfdoc-node-shims',
        setup(build) {
          build.onResolve({ filter: /^node:/ }, (args) => {
            const shim = NODE_SHIMS[args.path];
            if (shim) return { path: path.join(siteRoot, shim) };
            return { errors: [{ text: `${args.path} (imported by ${path.relative(siteRoot, args.importer)}) is Node-only and has no browser stand-in in the site's search bundle` }] };
          });
        },
      },
    ],
  });
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.text).join('\n'));
}

function normalizeBase(base: string): string {
  const trimmed = base.trim();
  if (!trimmed.startsWith('/')) throw new SiteBuildError(`--base must start with "/", got "${base}"`, 'Give the URL path the site is served under, e.g. / or /pvfdoc/.');
  return trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
}

/** An empty or missing folder, or an earlier site (its stamp file) that is cleared; anything else is refused. */
async function prepareOutDir(outDir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(outDir);
  } catch {
    await mkdir(outDir, { recursive: true });
    return;
  }
  if (entries.length === 0) return;
  let stamp = '';
  try {
    stamp = await readFile(path.join(outDir, SITE_STAMP), 'utf8');
  } catch {
    // not a site folder
  }
  if (!stamp.includes('"pvfdoc site"')) {
    throw new SiteBuildError(`${outDir} is not empty and does not hold a site built by pvfdoc (no ${SITE_STAMP})`, 'Give --out an empty or new folder; pvfdoc replaces only a folder it built.');
  }
  await Promise.all(entries.map((name) => rm(path.join(outDir, name), { recursive: true, force: true })));
}

async function folderStats(dir: string): Promise<{ files: number; pages: number; bytes: number; htmlBytes: number }> {
  const totals = { files: 0, pages: 0, bytes: 0, htmlBytes: 0 };
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else {
        const size = (await stat(full)).size;
        totals.files++;
        totals.bytes += size;
        if (entry.name.endsWith('.html')) {
          totals.pages++;
          totals.htmlBytes += size;
        }
      }
    }
  };
  await walk(dir);
  return totals;
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

