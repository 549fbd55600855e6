/**
 * `npm run bench`: build, size, load and search figures for a large synthetic rule layer (10 000
 * definitions, 100 000 enum values) and for the builtin layer, with two baselines measured in the same
 * run: rebuilding the search index instead of loading it, and a linear scan instead of the index.
 *
 * A benchmark, not a test: it asserts nothing about time. See docs/benchmarks.md.
 *
 * Options: --out <file> (results JSON; default a temp file), --scale <x> (layer size factor, default 1),
 * --build-runs, --builtin-runs, --load-runs, --rebuild-runs, --search-reps, --no-breakdown (skip the
 * file-by-file load split), --build-breakdown (time the compile phases too: one more large compile,
 * not in the default run), --keep (keep temp files).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { gzipSync } from 'node:zlib';
import { bundleLayers, compileLayers, type BuiltBundle } from '../build/compile-layers.js';
import { indexSearch } from '../build/index-search.js';
import { loadLayers } from '../build/load-layers.js';
import { resolveLayers } from '../build/resolve-layers.js';
import { validateLayers } from '../build/validate-layers.js';
import { writeBundle } from '../build/write-bundle.js';
import { sha256Hex } from '../runtime/bundle/canonical-json.js';
import { loadBundle, type Bundle } from '../runtime/bundle/load-bundle.js';
import { BUNDLE_FILES, DocumentsFileSchema, RelationsFileSchema, RenderingFileSchema, SearchIndexFileSchema, ValuesFileSchema } from '../runtime/bundle/schema.js';
import { indexWords, queryWords, searchDocuments } from '../runtime/search/search-documents.js';
import { createSearchIndex, loadSearchIndex, toSearchableRecord, type SearchableRecord } from '../runtime/bundle/search-index.js';
import { DEFAULT_SPEC, generateLayer, writeLayer, type LayerSpec } from './generate-layer.js';
import { linearSearch } from './linear-scan.js';
import { buildQueries, type BenchQuery } from './queries.js';
import { exposeGc, fmtBytes, fmtMs, fmtRatio, geometricMean, median, now, percentile, table, timeAsync, timeSync } from './stats.js';

const BUILTIN_DIR = fileURLToPath(new URL('../rules/builtin', import.meta.url));

const { values: args } = parseArgs({
  options: {
    out: { type: 'string' },
    scale: { type: 'string', default: '1' },
    'build-runs': { type: 'string', default: '1' },
    'builtin-runs': { type: 'string', default: '5' },
    'load-runs': { type: 'string', default: '3' },
    'rebuild-runs': { type: 'string', default: '2' },
    'search-reps': { type: 'string', default: '10' },
    'no-breakdown': { type: 'boolean', default: false },
    'build-breakdown': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});

const positiveInt = (name: string, text: string | undefined): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(text)}`);
  return n;
};
const options = {
  scale: Number(args.scale),
  buildRuns: positiveInt('build-runs', args['build-runs']),
  builtinRuns: positiveInt('builtin-runs', args['builtin-runs']),
  loadRuns: positiveInt('load-runs', args['load-runs']),
  rebuildRuns: positiveInt('rebuild-runs', args['rebuild-runs']),
  searchReps: positiveInt('search-reps', args['search-reps']),
  breakdown: !args['no-breakdown'],
  buildBreakdown: args['build-breakdown'],
};
if (!(options.scale > 0 && options.scale <= 10)) throw new Error(`--scale must be in (0, 10], got ${args.scale}`);

const gc = exposeGc();
const log = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`  … ${line}\n`);

interface FileSize {
  name: string;
  bytes: number;
  gzipBytes: number;
}

interface BuildRow {
  layer: string;
  definitions: number;
  documents: number;
  enumValuesInBundle: number;
  compileRunsMs: number[];
  compileMedianMs: number;
  writeMs: number;
  files: FileSize[];
  totalBytes: number;
  totalGzipBytes: number;
  loadRunsMs: number[];
  loadMedianMs: number;
  rulesRevision: string;
  problems: number;
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

function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    availableParallelism: os.availableParallelism(),
    memoryBytes: os.totalmem(),
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.platform()}/${os.arch()})`,
    loadAverageAtStart: os.loadavg(),
    heapLimitBytes: v8.getHeapStatistics().heap_size_limit,
  };
}

function fileSizes(bundle: BuiltBundle): FileSize[] {
  return [...bundle.files]
    .map(([name, text]) => ({ name, bytes: Buffer.byteLength(text), gzipBytes: gzipSync(text).length }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

async function compileOrExplain(dir: string): Promise<{ ms: number; bundle: BuiltBundle; problems: number }> {
  const { ms, value } = await timeAsync(() => compileLayers([dir]));
  if (!value.ok) {
    log(`compileLayers rejected ${dir} (${value.problems.length} problems). If the layer is valid pvfine input, this is a validation bug to report:`);
    for (const p of value.problems.slice(0, 20)) log(`  ${p.severity} ${p.layer} ${p.file} ${p.path}: ${p.message}`);
    throw new Error('the benchmark layer did not compile; see the problems above');
  }
  return { ms, bundle: value.bundle, problems: value.problems.length };
}

async function measureBuild(name: string, dir: string, runs: number, loadRuns: number, workDir: string, definitions: number): Promise<{ row: BuildRow; bundleDir: string }> {
  const compileRunsMs: number[] = [];
  let built: BuiltBundle | undefined;
  let problems = 0;
  for (let i = 0; i < runs; i++) {
    built = undefined;
    gc();
    progress(`${name}: compile ${i + 1}/${runs}`);
    const result = await compileOrExplain(dir);
    compileRunsMs.push(result.ms);
    built = result.bundle;
    problems = result.problems;
  }
  if (!built) throw new Error('no build');
  const toWrite = built;
  built = undefined;
  const snapshots = path.join(workDir, `snapshots-${name}`);
  const { ms: writeMs, value: bundleDir } = await timeAsync(() => writeBundle(snapshots, toWrite, { setCurrent: false }));
  progress(`${name}: sizes`);
  const files = fileSizes(toWrite);
  const manifest = toWrite.manifest;
  const loadRunsMs: number[] = [];
  for (let i = 0; i < loadRuns; i++) {
    gc();
    progress(`${name}: load ${i + 1}/${loadRuns}`);
    loadRunsMs.push((await timeAsync(() => loadBundle(bundleDir))).ms);
  }
  return {
    bundleDir,
    row: {
      layer: name,
      definitions,
      documents: manifest.counts.documents,
      enumValuesInBundle: manifest.counts.enumValues,
      compileRunsMs,
      compileMedianMs: median(compileRunsMs),
      writeMs,
      files,
      totalBytes: files.reduce((a, f) => a + f.bytes, 0),
      totalGzipBytes: files.reduce((a, f) => a + f.gzipBytes, 0),
      loadRunsMs,
      loadMedianMs: median(loadRunsMs),
      rulesRevision: manifest.rulesRevision,
      problems,
    },
  };
}

/** Where one load of the bundle spends its time, file by file (same steps as openBundle). */
async function loadBreakdown(bundleDir: string) {
  const schemas = {
    'documents.json': DocumentsFileSchema,
    'values.json': ValuesFileSchema,
    'relations.json': RelationsFileSchema,
    'rendering.json': RenderingFileSchema,
    'search-index.json': SearchIndexFileSchema,
  } as const;
  const rows: { file: string; readMs: number; hashMs: number; utf8DecodeMs: number; jsonParseMs: number; schemaMs: number; indexDecodeMs: number | null }[] = [];
  for (const file of BUNDLE_FILES) {
    gc();
    progress(`load breakdown: ${file}`);
    const read = await timeAsync(() => readFile(path.join(bundleDir, file)));
    const hash = timeSync(() => sha256Hex(read.value));
    const decode = timeSync(() => read.value.toString('utf8'));
    const json = timeSync(() => JSON.parse(decode.value) as unknown);
    const schema = timeSync(() => schemas[file].safeParse(json.value));
    let indexDecodeMs: number | null = null;
    if (file === 'search-index.json' && schema.value.success) {
      const { terms, documentIds } = schema.value.data as { terms: Record<string, string>; documentIds: string[] };
      indexDecodeMs = timeSync(() => loadSearchIndex(terms, documentIds.length)).ms;
    }
    rows.push({ file, readMs: read.ms, hashMs: hash.ms, utf8DecodeMs: decode.ms, jsonParseMs: json.ms, schemaMs: schema.ms, indexDecodeMs });
  }
  return rows;
}

/**
 * The compile phases one by one (opt-in). bundleLayers resolves and indexes again internally, so
 * "serialize" = bundleLayers − resolve − index: schema checks, canonical JSON, hashing.
 */
async function buildBreakdown(dir: string) {
  gc();
  progress('build breakdown: load');
  const loaded = await timeAsync(() => loadLayers([dir]));
  progress('build breakdown: validate');
  const validate = timeSync(() => validateLayers(loaded.value.layers));
  progress('build breakdown: resolve');
  const resolved = timeSync(() => resolveLayers(loaded.value.layers));
  progress('build breakdown: index');
  const index = timeSync(() => indexSearch(resolved.value.documents, resolved.value.values).documentIds.length);
  gc();
  progress('build breakdown: bundleLayers');
  const bundle = timeSync(() => bundleLayers(loaded.value.layers).rulesRevision);
  return {
    loadLayersMs: loaded.ms,
    validateLayersMs: validate.ms,
    resolveLayersMs: resolved.ms,
    indexSearchMs: index.ms,
    bundleLayersMs: bundle.ms,
    serializeEstimateMs: bundle.ms - resolved.ms - index.ms,
  };
}

function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

interface QueryResult {
  label: string;
  category: BenchQuery['category'];
  input: BenchQuery['input'];
  totalMatches: number;
  linearTotalMatches: number;
  index: { p50Ms: number; p99Ms: number; maxMs: number; samplesMs: number[] };
  /** Index lookup alone (the candidate step of searchDocuments); null without query words. */
  lookup: { p50Ms: number; p99Ms: number; maxMs: number; samplesMs: number[]; candidates: number } | null;
  linear: { p50Ms: number; p99Ms: number; maxMs: number; samplesMs: number[] };
  speedupP50: number;
}

function runSearches(bundle: Bundle, queries: readonly BenchQuery[], reps: number): QueryResult[] {
  const results: QueryResult[] = [];
  for (const [i, q] of queries.entries()) {
    if (i % 10 === 0) progress(`search: queries ${i + 1}–${Math.min(i + 10, queries.length)} of ${queries.length}`);
    // One untimed warm-up of each, which also gives the match counts to compare.
    const totalMatches = searchDocuments(bundle, q.input).totalMatches;
    const linearTotalMatches = linearSearch(bundle, q.input).totalMatches;
    const lookupWords = indexWords(queryWords(q.input.query));
    const hasWords = lookupWords.length > 0;
    const candidates = hasWords ? (bundle.searchIndex.candidates(lookupWords)?.length ?? bundle.documents.length) : 0;
    const indexSamples: number[] = [];
    const lookupSamples: number[] = [];
    const linearSamples: number[] = [];
    // Alternate the two so that background load hits both alike.
    for (let r = 0; r < reps; r++) {
      let start = now();
      searchDocuments(bundle, q.input);
      indexSamples.push(now() - start);
      start = now();
      linearSearch(bundle, q.input);
      linearSamples.push(now() - start);
      if (hasWords) {
        start = now();
        bundle.searchIndex.candidates(lookupWords);
        lookupSamples.push(now() - start);
      }
    }
    const summary = (xs: number[]) => ({ p50Ms: percentile(xs, 50), p99Ms: percentile(xs, 99), maxMs: Math.max(...xs), samplesMs: xs });
    const index = summary(indexSamples);
    const linear = summary(linearSamples);
    const lookup = hasWords ? { ...summary(lookupSamples), candidates } : null;
    results.push({ label: q.label, category: q.category, input: q.input, totalMatches, linearTotalMatches, index, lookup, linear, speedupP50: linear.p50Ms / index.p50Ms });
  }
  return results;
}

async function main(): Promise<void> {
  const started = now();
  const date = new Date().toISOString();
  const machineInfo = machine();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-bench-'));
  const outPath = args.out ?? path.join(os.tmpdir(), `pvfdoc-bench-${date.replace(/[:.]/g, '-')}.json`);
  const spec = scaledSpec(options.scale);

  log('pvfdoc benchmark');
  log(`date     ${date}`);
  log(`cpu      ${machineInfo.cpuModel} × ${machineInfo.cores} (availableParallelism ${machineInfo.availableParallelism})`);
  log(`memory   ${fmtBytes(machineInfo.memoryBytes)}; V8 heap limit ${fmtBytes(machineInfo.heapLimitBytes)}`);
  log(`node     ${machineInfo.node}; ${machineInfo.os}`);
  log(`load avg ${machineInfo.loadAverageAtStart.map((x) => x.toFixed(2)).join(' ')} (other processes compete for the same cores when this is above 0)`);
  log(`options  ${JSON.stringify(options)}`);
  log();

  try {
    // 1. The synthetic layer.
    progress('generating the layer');
    const generated = timeSync(() => generateLayer(spec));
    const layerDir = path.join(workDir, 'layer');
    const sourceBytes = await writeLayer(layerDir, generated.value);
    const { stats, samples } = generated.value;
    log(`layer    ${stats.rules} rules + ${stats.fields} fields = ${stats.rules + stats.fields} definitions; ${stats.enumValues} enum values in ${stats.enumDefinitions} enums (largest ${stats.largestEnum}); ` +
      `${stats.pathRules} path rules, ${stats.referenceDefinitions} reference definitions, ${stats.versionRestricted} pvfVersions-restricted, ${stats.fieldReferences} rules using a field; ` +
      `${stats.relations} relations, ${stats.renderingRules} rendering rules; source ${fmtBytes(Object.values(sourceBytes).reduce((a, b) => a + b, 0))} (seed ${spec.seed}, generated in ${fmtMs(generated.ms)})`);
    const queries = buildQueries(samples);
    generated.value.annotations.rules.length = 0;
    generated.value.annotations.fields.length = 0;

    // 2. Builds: builtin (small) and the synthetic layer.
    const builtinDefinitions = await countDefinitions(BUILTIN_DIR);
    const builtin = await measureBuild('builtin', BUILTIN_DIR, options.builtinRuns, 5, workDir, builtinDefinitions);
    const bench = await measureBuild('bench', layerDir, options.buildRuns, 1, workDir, stats.rules + stats.fields);
    const maxRssAfterBuildBytes = process.resourceUsage().maxRSS * 1024;
    const phases = options.buildBreakdown ? await buildBreakdown(layerDir) : null;

    // 3. Load vs rebuilding the index. The bundle sits in a holder so it can be dropped to measure the
    // heap it retains (an async function's locals can outlive their block).
    const loadRunsMs = [...bench.row.loadRunsMs];
    const held: { bundle?: Bundle } = {};
    for (let i = loadRunsMs.length; i < options.loadRuns; i++) {
      delete held.bundle;
      gc();
      progress(`bench: load ${i + 1}/${options.loadRuns}`);
      loadRunsMs.push(await loadInto(held, bench.bundleDir));
    }
    if (!held.bundle) await loadInto(held, bench.bundleDir);
    bench.row.loadRunsMs = loadRunsMs;
    bench.row.loadMedianMs = median(loadRunsMs);
    // What loadBundle leaves for first use, each timed alone (docs/benchmarks.md): the documents, then
    // the raw definitions, then values.json.
    const documentsFirstAccessMs = timeSync(() => bundleOf(held).documents.length).ms;
    const rawFirstAccessMs = timeSync(() => bundleOf(held).documents[0]?.raw).ms;
    const valuesFirstAccessMs = timeSync(() => firstValues(held)).ms;

    progress('rebuild: searchable records');
    const records = timeSync(() => searchableRecords(held));
    const rebuildRunsMs: number[] = [];
    let retainedIndexBytes = 0;
    for (let i = 0; i < options.rebuildRuns; i++) {
      progress(`rebuild: createSearchIndex ${i + 1}/${options.rebuildRuns}`);
      const rebuilt = rebuildOnce(records.value);
      rebuildRunsMs.push(rebuilt.ms);
      retainedIndexBytes = rebuilt.retainedBytes;
    }
    records.value.length = 0;
    const rebuildMedianMs = median(rebuildRunsMs);
    const breakdown = options.breakdown ? await loadBreakdown(bench.bundleDir) : null;
    const indexFile = breakdown?.find((r) => r.file === 'search-index.json');
    const indexLoadMs = indexFile ? indexFile.readMs + indexFile.hashMs + indexFile.utf8DecodeMs + indexFile.jsonParseMs + indexFile.schemaMs + (indexFile.indexDecodeMs ?? 0) : null;
    // A bundle without search-index.json would load everything else and then rebuild the index.
    const startWithoutIndexMs = indexLoadMs === null ? null : bench.row.loadMedianMs - indexLoadMs + rebuildMedianMs;

    // 4. Search vs the linear scan.
    gc();
    const { termCount: indexTerms, postingCount: indexPostings } = bundleOf(held).searchIndex;
    const results = runSearches(bundleOf(held), queries, options.searchReps);
    const withBundle = heapUsed();
    delete held.bundle;
    const retainedBundleBytes = withBundle - heapUsed();
    const allIndex = results.flatMap((r) => r.index.samplesMs);
    const allLinear = results.flatMap((r) => r.linear.samplesMs);
    const overall = {
      queries: results.length,
      repsPerQuery: options.searchReps,
      index: { p50Ms: percentile(allIndex, 50), p99Ms: percentile(allIndex, 99), maxMs: Math.max(...allIndex) },
      linear: { p50Ms: percentile(allLinear, 50), p99Ms: percentile(allLinear, 99), maxMs: Math.max(...allLinear) },
      lookupP50Ms: percentile(results.flatMap((r) => r.lookup?.samplesMs ?? []), 50),
      speedupP50: percentile(allLinear, 50) / percentile(allIndex, 50),
      speedupP99: percentile(allLinear, 99) / percentile(allIndex, 99),
      geometricMeanSpeedup: geometricMean(results.map((r) => r.speedupP50)),
      slowerThanLinear: results.filter((r) => r.speedupP50 < 1).map((r) => ({ label: r.label, indexP50Ms: r.index.p50Ms, linearP50Ms: r.linear.p50Ms })),
      countMismatches: results.filter((r) => r.totalMatches !== r.linearTotalMatches).map((r) => ({ label: r.label, index: r.totalMatches, linear: r.linearTotalMatches })),
    };
    const byCategory = [...new Set(results.map((r) => r.category))].map((category) => {
      const rs = results.filter((r) => r.category === category);
      const idx = rs.flatMap((r) => r.index.samplesMs);
      const lin = rs.flatMap((r) => r.linear.samplesMs);
      const look = rs.flatMap((r) => r.lookup?.samplesMs ?? []);
      return { category, queries: rs.length, indexP50Ms: percentile(idx, 50), indexP99Ms: percentile(idx, 99), lookupP50Ms: percentile(look, 50), linearP50Ms: percentile(lin, 50), linearP99Ms: percentile(lin, 99) };
    });
    const maxRssBytes = process.resourceUsage().maxRSS * 1024;

    // 5. Report.
    log();
    log('BUILD AND SIZE');
    log(table(
      ['layer', '>definitions', '>documents', '>enum values in bundle', '>compile (median)', '>runs', '>write', '>bundle size', '>gzip', '>load (median)'],
      [builtin.row, bench.row].map((r) => [
        r.layer, String(r.definitions), String(r.documents), String(r.enumValuesInBundle), fmtMs(r.compileMedianMs), String(r.compileRunsMs.length),
        fmtMs(r.writeMs), fmtBytes(r.totalBytes), fmtBytes(r.totalGzipBytes), fmtMs(r.loadMedianMs),
      ]),
    ));
    if (phases) {
      log();
      log('COMPILE PHASES (bench layer, one extra run; serialize = bundleLayers − resolve − index)');
      log(table(
        ['>loadLayers', '>validateLayers', '>resolveLayers', '>indexSearch', '>serialize (est.)', '>bundleLayers'],
        [[fmtMs(phases.loadLayersMs), fmtMs(phases.validateLayersMs), fmtMs(phases.resolveLayersMs), fmtMs(phases.indexSearchMs), fmtMs(phases.serializeEstimateMs), fmtMs(phases.bundleLayersMs)]],
      ));
    }
    log();
    log('BUNDLE FILES');
    log(table(
      ['file', '>builtin', '>bench', '>bench gzip', '>share of bench', '>bytes per document'],
      bench.row.files.map((f) => {
        const b = builtin.row.files.find((x) => x.name === f.name);
        return [f.name, fmtBytes(b?.bytes ?? 0), fmtBytes(f.bytes), fmtBytes(f.gzipBytes), `${((100 * f.bytes) / bench.row.totalBytes).toFixed(1)}%`, (f.bytes / bench.row.documents).toFixed(0)];
      }),
    ));
    log();
    log('LOAD VS REBUILDING THE SEARCH INDEX (bench layer)');
    log(table(
      ['what', '>median', '>runs (ms)'],
      [
        ['loadBundle (read, hash every file, check the small ones, decode the index)', fmtMs(bench.row.loadMedianMs), loadRunsMs.map((x) => x.toFixed(0)).join(', ')],
        ['  first use of the documents (parse and check documents.json)', fmtMs(documentsFirstAccessMs), documentsFirstAccessMs.toFixed(0)],
        ['  first raw (all raw definitions)', fmtMs(rawFirstAccessMs), rawFirstAccessMs.toFixed(0)],
        ['  first valuesOf (lazy values.json)', fmtMs(valuesFirstAccessMs), valuesFirstAccessMs.toFixed(0)],
        ['searchable records from documents + values', fmtMs(records.ms), records.ms.toFixed(0)],
        ['createSearchIndex (rebuild; baseline)', fmtMs(rebuildMedianMs), rebuildRunsMs.map((x) => x.toFixed(0)).join(', ')],
      ],
    ));
    log(`ratio    loadBundle / rebuild = ${fmtRatio(bench.row.loadMedianMs / rebuildMedianMs)} (below 1× the bundle saves time; above 1× loading costs more than rebuilding the index alone); rebuild is ${fmtRatio(rebuildMedianMs / bench.row.loadMedianMs)} the load`);
    const readyMs = bench.row.loadMedianMs + documentsFirstAccessMs;
    log(`ratio    (loadBundle + first use of the documents) / rebuild = ${fmtRatio(readyMs / rebuildMedianMs)} (everything a first search needs but values.json)`);
    if (indexLoadMs !== null) log(`ratio    loading search-index.json alone / rebuild = ${fmtRatio(indexLoadMs / rebuildMedianMs)}`);
    if (startWithoutIndexMs !== null) {
      log(`ratio    loadBundle / a start without search-index.json (load − index file + rebuild ≈ ${fmtMs(startWithoutIndexMs)}) = ${fmtRatio(bench.row.loadMedianMs / startWithoutIndexMs)} (below 1× the index file pays off)`);
    }
    log(`index    ${indexTerms} terms, ${indexPostings} postings (term, document pairs)`);
    log(`heap     a loaded bundle (after the searches, values loaded) retains ${fmtBytes(retainedBundleBytes)}; a rebuilt index retains ${fmtBytes(retainedIndexBytes)}; peak RSS ${fmtBytes(maxRssBytes)} (after the builds ${fmtBytes(maxRssAfterBuildBytes)})`);
    if (breakdown) {
      log();
      log('ONE LOAD, FILE BY FILE (values.json is read lazily by loadBundle)');
      log(table(
        ['file', '>read', '>sha256', '>UTF-8 decode', '>JSON.parse', '>zod schema', '>index decode'],
        breakdown.map((r) => [r.file, fmtMs(r.readMs), fmtMs(r.hashMs), fmtMs(r.utf8DecodeMs), fmtMs(r.jsonParseMs), fmtMs(r.schemaMs), r.indexDecodeMs === null ? '' : fmtMs(r.indexDecodeMs)]),
      ));
    }
    log();
    log(`SEARCH (bench layer; ${options.searchReps} timed runs per query and method, alternating; speedup = linear / index, above 1× the index is faster;\n         index = searchDocuments; lookup = its index step alone; candidates = documents the lookup returns)`);
    log(table(
      ['query', '>matches', '>candidates', '>index p50', '>index max', '>lookup p50', '>linear p50', '>linear max', '>speedup'],
      results.map((r) => [
        r.label, r.totalMatches === r.linearTotalMatches ? String(r.totalMatches) : `${r.totalMatches}≠${r.linearTotalMatches}`,
        r.lookup ? String(r.lookup.candidates) : 'all',
        fmtMs(r.index.p50Ms), fmtMs(r.index.maxMs), r.lookup ? fmtMs(r.lookup.p50Ms) : '', fmtMs(r.linear.p50Ms), fmtMs(r.linear.maxMs), fmtRatio(r.speedupP50),
      ]),
    ));
    log();
    log(table(
      ['category', '>queries', '>index p50', '>index p99', '>lookup p50', '>linear p50', '>linear p99'],
      [
        ...byCategory.map((c) => [c.category, String(c.queries), fmtMs(c.indexP50Ms), fmtMs(c.indexP99Ms), fmtMs(c.lookupP50Ms), fmtMs(c.linearP50Ms), fmtMs(c.linearP99Ms)]),
        ['all', String(results.length), fmtMs(overall.index.p50Ms), fmtMs(overall.index.p99Ms), fmtMs(overall.lookupP50Ms), fmtMs(overall.linear.p50Ms), fmtMs(overall.linear.p99Ms)],
      ],
    ));
    log(`ratio    search speedup over the linear scan: p50 ${fmtRatio(overall.speedupP50)}, p99 ${fmtRatio(overall.speedupP99)}, geometric mean of per-query p50 ${fmtRatio(overall.geometricMeanSpeedup)}`);
    if (overall.slowerThanLinear.length > 0) {
      log(`NOTE     the index is SLOWER than the linear scan for ${overall.slowerThanLinear.length} of ${results.length} queries: ${overall.slowerThanLinear.map((s) => `${s.label} (${fmtMs(s.indexP50Ms)} vs ${fmtMs(s.linearP50Ms)})`).join('; ')}`);
    }
    if (bench.row.loadMedianMs > rebuildMedianMs) {
      log(`NOTE     loading the bundle (${fmtMs(bench.row.loadMedianMs)}) is SLOWER than rebuilding the search index from the documents (${fmtMs(rebuildMedianMs)})`);
    }
    if (overall.countMismatches.length > 0) {
      log(`NOTE     match counts differ between searchDocuments and the linear scan for: ${overall.countMismatches.map((m) => `${m.label} (${m.index} vs ${m.linear})`).join('; ')}`);
    }

    const totalMs = now() - started;
    const results_json = {
      schema: 'pvfdoc-bench/1',
      date,
      totalRuntimeMs: totalMs,
      loadAverageAtEnd: os.loadavg(),
      machine: machineInfo,
      options,
      layer: { spec, stats, sourceBytes, generateMs: generated.ms },
      builds: [builtin.row, bench.row],
      compilePhases: phases,
      load: {
        layer: 'bench',
        runsMs: loadRunsMs,
        medianMs: bench.row.loadMedianMs,
        documentsFirstAccessMs,
        rawFirstAccessMs,
        valuesFirstAccessMs,
        retainedHeapBytes: retainedBundleBytes,
        breakdown,
      },
      index: { terms: indexTerms, postings: indexPostings },
      rebuild: { recordsMs: records.ms, runsMs: rebuildRunsMs, medianMs: rebuildMedianMs, retainedHeapBytes: retainedIndexBytes },
      ratios: {
        loadVsRebuild: bench.row.loadMedianMs / rebuildMedianMs,
        loadAndDocumentsVsRebuild: readyMs / rebuildMedianMs,
        indexFileLoadVsRebuild: indexLoadMs === null ? null : indexLoadMs / rebuildMedianMs,
        loadVsStartWithoutIndexFile: startWithoutIndexMs === null ? null : bench.row.loadMedianMs / startWithoutIndexMs,
        searchSpeedupP50: overall.speedupP50,
        searchSpeedupP99: overall.speedupP99,
        searchGeometricMeanSpeedup: overall.geometricMeanSpeedup,
      },
      search: { overall, byCategory, queries: results },
      memory: { maxRssBytes, maxRssAfterBuildBytes },
    };
    await writeFile(outPath, `${JSON.stringify(results_json, null, 2)}\n`);
    log();
    log(`total runtime ${fmtMs(totalMs)}; load average at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; results written to ${outPath}`);
  } finally {
    if (args.keep) log(`temp files kept in ${workDir}`);
    else await rm(workDir, { recursive: true, force: true });
  }
}

async function loadInto(held: { bundle?: Bundle }, dir: string): Promise<number> {
  const start = now();
  held.bundle = await loadBundle(dir);
  return now() - start;
}

function bundleOf(held: { bundle?: Bundle }): Bundle {
  if (!held.bundle) throw new Error('no bundle loaded');
  return held.bundle;
}

function firstValues(held: { bundle?: Bundle }): number {
  const bundle = bundleOf(held);
  return bundle.valuesOf(bundle.documents[0]?.documentId ?? '').length;
}

function searchableRecords(held: { bundle?: Bundle }): SearchableRecord[] {
  const bundle = bundleOf(held);
  return bundle.documents.map((d, n) => toSearchableRecord(d, n, bundle.valuesOf(d.documentId)));
}

/** One rebuild, and the heap the new index holds (measured in a plain function, then released). */
function rebuildOnce(records: readonly SearchableRecord[]): { ms: number; retainedBytes: number } {
  const before = heapUsed();
  const start = now();
  const index = createSearchIndex(records);
  const ms = now() - start;
  const retainedBytes = heapUsed() - before;
  if (index.documentCount !== records.length) throw new Error('rebuilt index is incomplete');
  return { ms, retainedBytes };
}

async function countDefinitions(dir: string): Promise<number> {
  const text = await readFile(path.join(dir, 'annotations.json'), 'utf8');
  const doc = JSON.parse(text) as { rules?: unknown[]; fields?: unknown[] };
  return (doc.rules?.length ?? 0) + (doc.fields?.length ?? 0);
}

await main();
