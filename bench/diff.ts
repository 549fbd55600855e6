/**
 * `npm run bench:diff`: time and memory of a snapshot diff between two 10 000-definition snapshots.
 * The old side is the benchmark layer of bench/generate-layer.ts (8 500 rules, 1 500 fields, 100 000
 * enum values); the new side is a modified copy (a few hundred changed definitions, see `modify`) plus
 * a user layer that overrides and disables some rules. Both are compiled, written and loaded from disk
 * as `pvfdoc diff <old> <new>` would, then diffed.
 *
 * A benchmark, not a test: it asserts nothing about time. See docs/benchmarks.md, "Snapshot diffs".
 *
 * Options: --runs <n> (warm diffs after the first, default 5), --scale <x> (layer size factor, default
 * 1), --out <file> (results JSON), --keep (keep the temp folder).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { compileLayers } from '../build/compile-layers.js';
import { diffBundles } from '../build/diff/diff-bundles.js';
import type { SnapshotDiff } from '../runtime/diff/diff-schema.js';
import { renderDiffMarkdown } from '../build/diff/render-markdown.js';
import { renderDiffText } from '../build/diff/render-text.js';
import { writeBundle } from '../build/write-bundle.js';
import { loadBundle, type Bundle } from '../runtime/bundle/load-bundle.js';
import { countChangedDocuments } from '../runtime/diff/count-changed.js';
import { seededRandom } from '../test/support/random.js';
import { DEFAULT_SPEC, generateLayer, writeLayer, type GeneratedLayer, type LayerSpec } from './generate-layer.js';
import { exposeGc, fmtBytes, fmtMs, median, table, timeAsync, timeSync } from './stats.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    scale: { type: 'string', default: '1' },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const scale = Number(args.scale);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${args.runs}`);
if (!(scale > 0 && scale <= 10)) throw new Error(`--scale must be in (0, 10], got ${args.scale}`);

const gc = exposeGc();
const log = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`  … ${line}\n`);

type Json = Record<string, unknown>;

/** What `modify` changed, by kind (definitions of the new side). */
interface Modifications {
  titles: number;
  targets: number;
  removed: number;
  added: number;
  enumsRelabelled: number;
  bigEnum: { relabelled: number; added: number; size: number };
  pvfVersions: number;
  fieldContents: number;
  relations: number;
  userOverrides: number;
  userDisabled: number;
}

/** A modified copy of the layer (new object; the original is untouched) and a user layer on top. */
function modify(layer: GeneratedLayer, seed: number): { modified: GeneratedLayer; user: Json; userAnnotations: Json; counts: Modifications } {
  const rand = seededRandom(seed);
  const copy = structuredClone(layer);
  const rules = copy.annotations.rules;
  const fields = copy.annotations.fields;
  const counts: Modifications = {
    titles: 0, targets: 0, removed: 0, added: 0, enumsRelabelled: 0, bigEnum: { relabelled: 0, added: 0, size: 0 },
    pvfVersions: 0, fieldContents: 0, relations: 0, userOverrides: 0, userDisabled: 0,
  };
  const touched = new Set<number>();
  const pickRule = (accept: (r: Json) => boolean): Json | undefined => {
    for (let tries = 0; tries < 10_000; tries++) {
      const i = Math.floor(rand() * rules.length);
      const r = rules[i] as Json;
      if (!touched.has(i) && accept(r)) {
        touched.add(i);
        return r;
      }
    }
    return undefined;
  };
  const annotationOf = (r: Json) => r.annotation as Json | undefined;

  for (let n = 0; n < 100; n++) {
    const r = pickRule((x) => annotationOf(x) !== undefined);
    const a = r && annotationOf(r);
    if (a) {
      a.title = `${String(a.title)}（新）`;
      counts.titles++;
    }
  }
  for (let n = 0; n < 50; n++) {
    const r = pickRule((x) => {
      const t = x.target as Json | undefined;
      return typeof t?.index === 'number' && t.recordTokens === undefined;
    });
    if (r) {
      const t = r.target as Json;
      t.index = (t.index as number) + 1;
      counts.targets++;
    }
  }
  for (let n = 0; n < 20; n++) {
    const r = pickRule((x) => x.pvfVersions === undefined);
    if (r) {
      r.pvfVersions = ['110US'];
      counts.pvfVersions++;
    }
  }
  // Enums: 30 small ones get 3 labels changed; the largest rule enum gets 500 relabelled and 200 added.
  const enumRules = rules.filter((r) => annotationOf(r)?.values !== undefined);
  enumRules.sort((x, y) => Object.keys(annotationOf(y)?.values as Json).length - Object.keys(annotationOf(x)?.values as Json).length);
  const big = annotationOf(enumRules[0] as Json)?.values as Record<string, string>;
  const bigKeys = Object.keys(big);
  counts.bigEnum.size = bigKeys.length;
  for (const k of bigKeys.slice(0, 500)) {
    big[k] = `${big[k] ?? ''} 改`;
    counts.bigEnum.relabelled++;
  }
  for (let i = 0; i < 200; i++) {
    big[`9${String(i).padStart(6, '0')}`] = `新增 ${i}`;
    counts.bigEnum.added++;
  }
  for (const r of enumRules.slice(10, 40)) {
    const values = annotationOf(r)?.values as Record<string, string>;
    for (const k of Object.keys(values).slice(0, 3)) values[k] = `${values[k] ?? ''}（改）`;
    counts.enumsRelabelled++;
  }
  for (let n = 0; n < 20; n++) {
    const f = fields[Math.floor(rand() * fields.length)] as Json;
    const a = f.annotation as Json;
    a.content = `${String(a.content ?? '')} 已修订。`;
    counts.fieldContents++;
  }
  const relationNames = Object.keys(copy.lists.relations).filter((name) => (copy.lists.relations[name] as Json).kind === 'list');
  for (const name of relationNames.slice(0, 5)) {
    const rel = copy.lists.relations[name] as Json;
    rel.listPath = `moved/${String(rel.listPath)}`;
    counts.relations++;
  }
  // Remove 50 rules that nothing refers to by id, add 50 new ones (copies under new ids).
  const removed = new Set<Json>();
  for (let n = 0; n < 50; n++) {
    const r = pickRule(() => true);
    if (r) removed.add(r);
  }
  copy.annotations.rules = rules.filter((r) => !removed.has(r));
  counts.removed = removed.size;
  for (let n = 0; n < 50; n++) {
    const source = structuredClone(copy.annotations.rules[Math.floor(rand() * copy.annotations.rules.length)] as Json);
    source.id = `bench.added.${n}`;
    copy.annotations.rules.push(source);
    counts.added++;
  }
  // A user layer: 30 overrides (same id, new title) and 10 disabled rules.
  const kept = copy.annotations.rules.filter((r) => annotationOf(r) !== undefined && !String(r.id).startsWith('bench.added.'));
  const overrides: Json[] = [];
  for (let n = 0; n < 30; n++) {
    const r = structuredClone(kept[Math.floor(rand() * kept.length)] as Json);
    if (overrides.some((o) => o.id === r.id)) continue;
    const a = annotationOf(r) as Json;
    a.title = `用户 ${String(a.title)}`;
    overrides.push(r);
  }
  counts.userOverrides = overrides.length;
  const overridden = new Set(overrides.map((o) => o.id));
  const disable = kept.filter((r) => !overridden.has(r.id)).slice(0, 10).map((r) => `rule:${String(r.id)}`);
  counts.userDisabled = disable.length;
  return {
    modified: copy,
    user: { name: 'bench-user', kind: 'user', description: 'benchmark user layer', disable },
    userAnnotations: { version: 1, rules: overrides },
    counts,
  };
}

function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    heapLimitBytes: v8.getHeapStatistics().heap_size_limit,
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.platform()}/${os.arch()})`,
    loadAverage: os.loadavg(),
  };
}

const CLI = fileURLToPath(new URL('../dist/pvfdoc.mjs', import.meta.url));

interface CliRun {
  ms: number;
  code: number;
  stdoutBytes: number;
  peakRss: number;
}

/**
 * `node dist/pvfdoc.mjs diff <old> <new> --format <f>` in a fresh process: wall time and that
 * process's own peak RSS (a preloaded script reports it on exit).
 */
function runCli(preload: string, oldDir: string, newDir: string, format: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['--require', preload, CLI, 'diff', oldDir, newDir, '--format', format, '--exit-code'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdoutBytes += chunk.length));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      const rss = /PVFDOC_BENCH_MAXRSS=(\d+)/.exec(stderr)?.[1];
      if (rss === undefined || (code !== 0 && code !== 1)) reject(new Error(`pvfdoc diff exited ${code}: ${stderr.trim()}`));
      else resolve({ ms, code: code ?? -1, stdoutBytes, peakRss: Number(rss) * 1024 });
    });
  });
}

const heapUsed = () => process.memoryUsage().heapUsed;
const peakRss = () => process.resourceUsage().maxRSS * 1024;

async function main(): Promise<void> {
  const started = performance.now();
  const info = machine();
  const date = new Date().toISOString();
  log(`pvfdoc snapshot diff benchmark — ${date}`);
  log(`cpu      ${info.cpuModel} × ${info.cores}`);
  log(`memory   ${fmtBytes(info.memoryBytes)}; V8 heap limit ${fmtBytes(info.heapLimitBytes)}`);
  log(`node     ${info.node}; ${info.os}`);
  log(`load avg ${info.loadAverage.map((x) => x.toFixed(2)).join(' ')}`);
  log();

  const spec: LayerSpec = {
    ...DEFAULT_SPEC,
    rules: Math.round(DEFAULT_SPEC.rules * scale),
    fields: Math.round(DEFAULT_SPEC.fields * scale),
    enumValues: Math.round(DEFAULT_SPEC.enumValues * scale),
    enumDefinitions: Math.round(DEFAULT_SPEC.enumDefinitions * scale),
    largeEnums: DEFAULT_SPEC.largeEnums.map((n) => Math.max(2, Math.round(n * scale))),
  };
  const work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-bench-diff-'));
  try {
    progress('generating the layers');
    const layer = generateLayer(spec);
    const { modified, user, userAnnotations, counts } = modify(layer, spec.seed + 1);
    const oldDir = path.join(work, 'old', 'bench');
    const newDir = path.join(work, 'new', 'bench');
    const userDir = path.join(work, 'new', 'user');
    await writeLayer(oldDir, layer);
    await writeLayer(newDir, modified);
    await mkdir(userDir, { recursive: true });
    await writeFile(path.join(userDir, 'layer.json'), `${JSON.stringify(user, null, 2)}\n`);
    await writeFile(path.join(userDir, 'annotations.json'), `${JSON.stringify(userAnnotations, null, 2)}\n`);

    progress('compiling both sides');
    const snapshots = path.join(work, 'snapshots');
    const compiled: Record<string, number> = {};
    const dirs: Record<'old' | 'new', string> = { old: '', new: '' };
    for (const [side, layers] of [['old', [oldDir]], ['new', [newDir, userDir]]] as const) {
      const { ms, value } = await timeAsync(() => compileLayers(layers));
      if (!value.ok) throw new Error(`the ${side} side does not compile: ${value.problems.map((p) => p.message).join('; ')}`);
      compiled[side] = ms;
      dirs[side] = await writeBundle(snapshots, value.bundle, { setCurrent: false });
    }

    progress('loading both bundles');
    gc();
    const heapBaseline = heapUsed();
    const loadOld = await timeAsync(() => loadBundle(dirs.old));
    const loadNew = await timeAsync(() => loadBundle(dirs.new));
    const oldBundle: Bundle = loadOld.value;
    const newBundle: Bundle = loadNew.value;
    gc();
    const heapLoaded = heapUsed();

    progress('diffing (first run parses values.json of both sides)');
    const first = timeSync(() => diffBundles(oldBundle, newBundle));
    const diff: SnapshotDiff = first.value;
    gc();
    const heapAfterFirst = heapUsed();
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      gc();
      warm.push(timeSync(() => diffBundles(oldBundle, newBundle)).ms);
    }
    gc();
    const heapAfter = heapUsed();

    progress('rendering');
    const text = timeSync(() => renderDiffText(diff, { color: false }));
    const md = timeSync(() => renderDiffMarkdown(diff));
    const json = timeSync(() => `${JSON.stringify(diff, null, 2)}\n`);
    const heldIds = oldBundle.documents.map((d) => d.documentId);
    const count = timeSync(() => countChangedDocuments(oldBundle, newBundle, heldIds));
    const countRuns = [count.ms];
    for (let i = 0; i < runs; i++) countRuns.push(timeSync(() => countChangedDocuments(oldBundle, newBundle, heldIds)).ms);

    progress('end to end: load both bundles, diff, render text');
    gc();
    const endToEnd = await timeAsync(async () => {
      const [a, b] = await Promise.all([loadBundle(dirs.old), loadBundle(dirs.new)]);
      return renderDiffText(diffBundles(a, b), { color: false }).length;
    });

    const cli: Record<string, CliRun[]> = {};
    if (existsSync(CLI)) {
      progress('the CLI in fresh processes (dist/pvfdoc.mjs)');
      const preload = path.join(work, 'report-rss.cjs');
      await writeFile(preload, "process.on('exit', () => process.stderr.write('PVFDOC_BENCH_MAXRSS=' + process.resourceUsage().maxRSS + '\\n'));\n");
      for (const format of ['text', 'json']) {
        const samples: CliRun[] = [];
        for (let i = 0; i < 3; i++) samples.push(await runCli(preload, dirs.old, dirs.new, format));
        cli[format] = samples;
      }
    } else {
      progress('dist/pvfdoc.mjs is missing (npm run build makes it): CLI rows skipped');
    }

    const s = diff.summary;
    log(`old side  ${oldBundle.rulesRevision}: ${oldBundle.documents.length} documents, ${oldBundle.manifest.counts.enumValues} enum values; compile ${fmtMs(compiled.old ?? NaN)}`);
    log(`new side  ${newBundle.rulesRevision}: ${newBundle.documents.length} documents, ${newBundle.manifest.counts.enumValues} enum values; compile ${fmtMs(compiled.new ?? NaN)}`);
    log(`changes made: ${counts.titles} titles, ${counts.targets} targets, ${counts.pvfVersions} pvfVersions, ${counts.removed} removed, ${counts.added} added, ` +
      `${counts.enumsRelabelled} enums with 3 relabels, 1 enum of ${counts.bigEnum.size} values with ${counts.bigEnum.relabelled} relabelled + ${counts.bigEnum.added} added, ` +
      `${counts.fieldContents} field contents, ${counts.relations} relation paths, user layer: ${counts.userOverrides} overrides, ${counts.userDisabled} disabled`);
    log(`diff found: documents ${s.documents.added} added, ${s.documents.removed} removed, ${s.documents.moved} moved, ${s.documents.changed} changed; ` +
      `${s.enumValues.enums} enums (+${s.enumValues.added} −${s.enumValues.removed} ~${s.enumValues.relabelled}); ` +
      `effective state of ${s.effective.documents} documents; relations ${s.relations.changed} changed; ${diff.fileTypes.length} file types`);
    log();
    log(table(
      ['step', '>time', '>notes'],
      [
        ['loadBundle old', fmtMs(loadOld.ms), 'values.json hash-checked, parsed lazily'],
        ['loadBundle new', fmtMs(loadNew.ms), ''],
        ['diffBundles, first', fmtMs(first.ms), 'includes parsing values.json of both sides'],
        [`diffBundles, warm (median of ${runs})`, fmtMs(median(warm)), `min ${fmtMs(Math.min(...warm))}, max ${fmtMs(Math.max(...warm))}`],
        ['renderDiffText', fmtMs(text.ms), fmtBytes(Buffer.byteLength(text.value))],
        ['renderDiffMarkdown', fmtMs(md.ms), fmtBytes(Buffer.byteLength(md.value))],
        ['JSON.stringify (--format json)', fmtMs(json.ms), fmtBytes(Buffer.byteLength(json.value))],
        [`countChangedDocuments, all ${heldIds.length} ids (median of ${countRuns.length})`, fmtMs(median(countRuns)), `${count.value.changed} changed, ${count.value.removed} removed`],
        ['load both + diff + render text', fmtMs(endToEnd.ms), 'what pvfdoc diff <old> <new> does after start'],
        ...Object.entries(cli).map(([format, samples]) => [
          `pvfdoc diff --format ${format} (fresh process, median of ${samples.length})`,
          fmtMs(median(samples.map((x) => x.ms))),
          `peak RSS ${fmtBytes(Math.max(...samples.map((x) => x.peakRss)))}; exit ${samples[0]?.code ?? ''}; ${fmtBytes(samples[0]?.stdoutBytes ?? 0)} out`,
        ]),
      ],
    ));
    log();
    log(table(
      ['memory', '>heap used', '>delta'],
      [
        ['before loading', fmtBytes(heapBaseline), ''],
        ['both bundles loaded', fmtBytes(heapLoaded), `+${fmtBytes(heapLoaded - heapBaseline)}`],
        ['after the first diff (values parsed, diff kept)', fmtBytes(heapAfterFirst), `+${fmtBytes(heapAfterFirst - heapLoaded)}`],
        [`after ${runs} more diffs`, fmtBytes(heapAfter), `${heapAfter >= heapAfterFirst ? '+' : '−'}${fmtBytes(Math.abs(heapAfter - heapAfterFirst))}`],
      ],
    ));
    log(`peak RSS of the process ${fmtBytes(peakRss())} (includes compiling both sides)`);
    const totalMs = performance.now() - started;
    log(`total runtime ${fmtMs(totalMs)}; load average at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);

    if (args.out) {
      await writeFile(
        args.out,
        `${JSON.stringify(
          {
            date,
            machine: info,
            options: { runs, scale },
            modifications: counts,
            summary: diff.summary,
            ms: {
              compile: compiled,
              loadOld: loadOld.ms,
              loadNew: loadNew.ms,
              firstDiff: first.ms,
              warmDiffs: warm,
              renderText: text.ms,
              renderMarkdown: md.ms,
              json: json.ms,
              countChangedDocuments: countRuns,
              endToEnd: endToEnd.ms,
            },
            bytes: { text: Buffer.byteLength(text.value), markdown: Buffer.byteLength(md.value), json: Buffer.byteLength(json.value) },
            heap: { baseline: heapBaseline, loaded: heapLoaded, afterFirst: heapAfterFirst, after: heapAfter },
            cli,
            peakRss: peakRss(),
          },
          null,
          2,
        )}\n`,
      );
      log(`results written to ${args.out}`);
    }
  } finally {
    if (args.keep) log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

await main();
