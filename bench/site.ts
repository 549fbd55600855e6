/**
 * `npm run bench:site`: how long `pvfdoc site` takes and how big the site gets, for the builtin snapshot
 * and for the benchmark layer of bench/generate-layer.ts (10 000 definitions, 100 000 enum values), plus
 * the same layer at smaller scales to show that build time grows linearly with the page count. With
 * Chromium at /usr/bin/chromium it also times the browser search page: loading and checking the bundle,
 * then one search. A benchmark, not a test: it asserts nothing about time. See docs/benchmarks.md.
 *
 * Options: --scales <list> (benchmark-layer scales, default 0.25,0.5,1), --runs <n> (site builds per
 * snapshot, default 3; the best and the median are reported), --no-browser, --out <file> (results JSON; default a
 * temp file), --keep (keep the temp folder).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { launchChromium, serveStatic, siteSearch } from '../test/site/helpers.js';
import { DEFAULT_SPEC, generateLayer, writeLayer, type LayerSpec } from './generate-layer.js';
import { fmtBytes, fmtMs, median, table } from './stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'dist/pvfdoc.mjs');
const run = promisify(execFile);

const { values: args } = parseArgs({
  options: {
    scales: { type: 'string', default: '0.25,0.5,1' },
    runs: { type: 'string', default: '3' },
    'no-browser': { type: 'boolean', default: false },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const scales = args.scales.split(',').map(Number);
if (scales.some((s) => !(s > 0 && s <= 4))) throw new Error(`--scales takes numbers in (0, 4], got ${args.scales}`);
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${args.runs}`);
const log = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`  … ${line}\n`);

interface SiteFigures {
  pages: number;
  files: number;
  bytes: number;
  htmlBytes: number;
  bundleBytes: number;
  searchScriptBytes: number;
  timings: { astroMs: number; searchScriptMs: number; totalMs: number };
}

interface Row {
  name: string;
  documents: number;
  enumValues: number;
  /** Wall time of each `pvfdoc site` process (start to exit). */
  wallMs: number[];
  /** The figures of the last build (sizes are the same every run). */
  site: SiteFigures;
  /** Astro's part of each build. */
  astroMs: number[];
  browser: { loadMs: number[]; searchMs: number[]; query: string; hits: number; firstResultBytes: number } | null;
}

async function pvfdoc(argv: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [CLI, ...argv], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Compiles a layer into a fresh snapshots folder; the bundle's document and enum-value counts. */
async function buildSnapshot(layerDir: string, snapshots: string): Promise<{ documents: number; enumValues: number }> {
  await pvfdoc(['build', '--layer', layerDir, '--out', snapshots]);
  const revision = (await readFile(path.join(snapshots, 'current'), 'utf8')).trim();
  const manifest = JSON.parse(await readFile(path.join(snapshots, revision, 'manifest.json'), 'utf8')) as { counts: { documents: number; enumValues: number } };
  return { documents: manifest.counts.documents, enumValues: manifest.counts.enumValues };
}

async function measure(name: string, snapshots: string, work: string, counts: { documents: number; enumValues: number }): Promise<Row> {
  const wallMs: number[] = [];
  const astroMs: number[] = [];
  let site: SiteFigures | undefined;
  const out = path.join(work, `site-${name.replace(/[^a-z0-9]+/gi, '-')}`);
  for (let i = 0; i < runs; i++) {
    progress(`${name}: site build ${i + 1}/${runs}`);
    const started = performance.now();
    const stdout = await pvfdoc(['site', '--snapshot', snapshots, '--out', out, '--json', '--quiet', '--no-changes']);
    wallMs.push(performance.now() - started);
    site = JSON.parse(stdout) as SiteFigures;
    astroMs.push(site.timings.astroMs);
  }
  return { name, ...counts, wallMs, astroMs, site: site as SiteFigures, browser: await browserFigures(name, out) };
}

/** Median of 3 loads of the search page: bundle fetched, hash-checked and parsed, then one search. */
async function browserFigures(name: string, siteDir: string): Promise<Row['browser']> {
  if (args['no-browser'] || !existsSync('/usr/bin/chromium')) return null;
  progress(`${name}: search page in Chromium`);
  const server = await serveStatic(siteDir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const loadMs: number[] = [];
    const searchMs: number[] = [];
    const query = '攻击';
    let hits = 0;
    for (let i = 0; i < 3; i++) {
      const result = await siteSearch(page, server.url, { q: query });
      hits = result.total;
      loadMs.push(Number(await page.getAttribute('#search-app', 'data-load-ms')));
      const status = (await page.textContent('#search-status')) ?? '';
      searchMs.push(Number(/用时 ([\d.]+) 毫秒/.exec(status)?.[1] ?? NaN));
    }
    // Every response body (page, style, script, search files) until the first result of 稀有 shows.
    const fresh = await browser.newPage();
    const responses: { body(): Promise<Buffer> }[] = [];
    fresh.on('response', (response) => responses.push(response));
    await fresh.goto(`${server.url}search/?q=${encodeURIComponent('稀有')}`);
    await fresh.waitForSelector('#search-results > li', { timeout: 120_000 });
    let firstResultBytes = 0;
    for (const response of [...responses]) firstResultBytes += (await response.body()).length;
    return { loadMs, searchMs, query, hits, firstResultBytes };
  } finally {
    await browser.close();
    await server.close();
  }
}

function scaledSpec(scale: number): LayerSpec {
  const s = (n: number) => Math.max(1, Math.round(n * scale));
  const largeEnums = DEFAULT_SPEC.largeEnums.map(s);
  const enumDefinitions = Math.max(largeEnums.length + 10, s(DEFAULT_SPEC.enumDefinitions));
  return {
    seed: DEFAULT_SPEC.seed,
    rules: s(DEFAULT_SPEC.rules),
    fields: s(DEFAULT_SPEC.fields),
    enumDefinitions,
    largeEnums,
    enumValues: Math.max(s(DEFAULT_SPEC.enumValues), largeEnums.reduce((a, b) => a + b, 0) + 2 * (enumDefinitions - largeEnums.length)),
  };
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/bundle-cli.mjs (or npm run build) first`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-bench-site-'));
  const started = new Date();
  const loadAtStart = os.loadavg();
  const rows: Row[] = [];
  try {
    progress('builtin snapshot');
    const builtinSnapshots = path.join(work, 'snapshots-builtin');
    const builtinCounts = await buildSnapshot(path.join(ROOT, 'rules/builtin'), builtinSnapshots);
    rows.push(await measure('builtin', builtinSnapshots, work, builtinCounts));

    for (const scale of [...scales].sort((a, b) => a - b)) {
      const name = scale === 1 ? 'benchmark layer' : `benchmark layer ×${scale}`;
      progress(`${name}: generate and compile`);
      const layerDir = path.join(work, `layer-${scale}`);
      const layer = generateLayer(scaledSpec(scale));
      await writeLayer(layerDir, layer);
      const snapshots = path.join(work, `snapshots-${scale}`);
      rows.push(await measure(name, snapshots, work, await buildSnapshot(layerDir, snapshots)));
    }
  } finally {
    if (!args.keep) await rm(work, { recursive: true, force: true });
    else log(`kept ${work}`);
  }

  const cpus = os.cpus();
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
  log(`load average at start ${load(loadAtStart)}, at end ${load(os.loadavg())}`);
  log(`Site build, ${started.toISOString()} on ${cpus[0]?.model ?? 'unknown CPU'} (${cpus.length} cores), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.type()} ${os.release()}`);
  log();
  log(
    table(
      ['snapshot', 'documents', 'enum values', 'pages', 'build, best (median)', 'Astro, best', 'search.js', 'ms/page (best)', 'total size', 'HTML', 'bundle copy', 'search.js size'],
      rows.map((r) => [
        r.name,
        String(r.documents),
        String(r.enumValues),
        String(r.site.pages),
        `${fmtMs(Math.min(...r.wallMs))} (${fmtMs(median(r.wallMs))})`,
        fmtMs(Math.min(...r.astroMs)),
        fmtMs(r.site.timings.searchScriptMs),
        (Math.min(...r.wallMs) / r.site.pages).toFixed(2),
        fmtBytes(r.site.bytes),
        fmtBytes(r.site.htmlBytes),
        fmtBytes(r.site.bundleBytes),
        fmtBytes(r.site.searchScriptBytes),
      ]),
    ),
  );
  const browserRows = rows.filter((r) => r.browser !== null);
  if (browserRows.length > 0) {
    log();
    log(
      table(
        ['snapshot', 'bundle load in Chromium (median of 3)', `first search "${browserRows[0]?.browser?.query ?? ''}" (median)`, 'hits', 'fetched before the first result of 稀有', 'of the bundle copy'],
        browserRows.map((r) => [
          r.name,
          fmtMs(median(r.browser?.loadMs ?? [])),
          fmtMs(median(r.browser?.searchMs ?? [])),
          String(r.browser?.hits ?? 0),
          fmtBytes(r.browser?.firstResultBytes ?? 0),
          `${((100 * (r.browser?.firstResultBytes ?? 0)) / r.site.bundleBytes).toFixed(1)} %`,
        ]),
      ),
    );
  }
  // Linearity: time per page of the benchmark layer at each scale (a quadratic build would grow with scale).
  const scaled = rows.filter((r) => r.name.startsWith('benchmark'));
  if (scaled.length > 1) {
    const first = scaled[0] as Row;
    const last = scaled[scaled.length - 1] as Row;
    const best = (r: Row) => Math.min(...r.wallMs);
    log();
    log(`pages ×${(last.site.pages / first.site.pages).toFixed(1)} → best build time ×${(best(last) / best(first)).toFixed(1)}; ms/page ${(best(first) / first.site.pages).toFixed(2)} → ${(best(last) / last.site.pages).toFixed(2)}`);
  }
  const out = args.out ?? path.join(os.tmpdir(), `pvfdoc-bench-site-${Date.now()}.json`);
  await writeFile(out, `${JSON.stringify({ started: started.toISOString(), machine: { cpu: cpus[0]?.model, cores: cpus.length, memoryBytes: os.totalmem(), node: process.version, loadAverage: { start: loadAtStart, end: os.loadavg() } }, runs, scales, rows }, null, 2)}\n`);
  log();
  log(`results: ${out}`);
}

await main();
