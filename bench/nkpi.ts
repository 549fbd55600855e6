/**
 * `npm run bench:nkpi`: open time, random read latency and memory of the nkpi reader on a generated
 * archive of 1 000 000 files (runtime/nkpi; figures in docs/nkpi.md).
 *
 * The archive is made by the test-only writer (test/support/write-nkpi-archive.ts): 1 000 folders of
 * 1 000 `.equ` scripts each (12 tokens, a unique name string per file), standard keys with the guard,
 * 64 KiB chunks (about the KR retail sample's 73 KB average), pseudo-random from a fixed seed. The
 * measurements run in a child process with a fresh heap: the open against reading the file table
 * alone (alternating, so both see the same load; the ratio of each pair is the figure that matters
 * on a shared machine), the first path lookup (which builds what the open defers), path lookups, a folder
 * listing, random reads with the chunk cache off (every read inflates its chunk: the cold case) and on
 * (the default 64 MiB cache), and the memory held after open and after the reads.
 *
 * A benchmark, not a test: it asserts nothing about time.
 *
 * Options: --files <n> (default 1000000), --reads <n> (default 5000), --archive <file> (measure an
 * existing archive made by this script instead of generating one), --out <file> (results JSON),
 * --keep (keep the generated archive).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NKPI_HEADER_BYTES, probeNkpiHeader } from '../runtime/nkpi/header.js';
import { openNkpiArchive } from '../runtime/nkpi/nkpi-archive.js';
import { openFileSource } from '../runtime/script/archive-source.js';
import { seededRandom } from '../test/support/random.js';
import { NkpiArchiveBuilder } from '../test/support/write-nkpi-archive.js';
import { exposeGc, fmtBytes, fmtMs, fmtRatio, median, percentile, table } from './stats.js';

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '1000000' },
    reads: { type: 'string', default: '5000' },
    archive: { type: 'string' },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
    measure: { type: 'string' },
  },
});

const FILES_PER_FOLDER = 1000;

/** Path of generated file i. */
function pathOf(i: number): string {
  const folder = Math.floor(i / FILES_PER_FOLDER);
  return `equipment/character/job${folder % 10}/set${Math.floor(folder / 10)}/${100_000_000 + i}.equ`;
}

function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memory: fmtBytes(os.totalmem()),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

async function generate(files: number, file: string): Promise<Record<string, unknown>> {
  const started = performance.now();
  const random = seededRandom(20240611);
  const builder = new NkpiArchiveBuilder({ keys: 'standard', guard: true, chunkBytes: 64 * 1024 });
  const pool = builder.pool;
  const tags = ['[name]', '[grade]', '[rarity]', '[price]', '[icon]', '[attach type]', '[trade]'].map((s) => pool.offsetOf(s));
  const [name, grade, rarity, price, icon, attach, trade] = tags as [number, number, number, number, number, number, number];
  let peakRss = 0;
  for (let i = 0; i < files; i++) {
    const folder = Math.floor(i / FILES_PER_FOLDER);
    builder.addTokens(pathOf(i), [
      [3, name],
      [6, pool.offsetOf(`Item ${i}`)],
      [3, grade],
      [0, Math.floor(random() * 100)],
      [3, rarity],
      [0, Math.floor(random() * 7)],
      [3, price],
      [0, Math.floor(random() * 1_000_000)],
      [3, icon],
      [6, pool.offsetOf(`item/equipment/${folder}.img`)],
      [0, i % 1000],
      [3, attach],
      [6, trade],
    ]);
    if (i % 100_000 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  const added = performance.now();
  const bytes = builder.build();
  const built = performance.now();
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  await writeFile(file, bytes);
  return {
    files,
    archiveBytes: bytes.length,
    encodeMs: added - started,
    buildMs: built - added,
    totalMs: performance.now() - started,
    peakRss,
  };
}

interface Measured {
  /** Opening the file, reading its 48-byte header and its file table, closing it: the floor of any open. */
  tableReadMs: number[];
  openMs: number[];
  /** Each open divided by the file-table read just before it. */
  openRatios: number[];
  /** The first path lookup after an open (inflates the pools and builds the path index when the open defers them). */
  firstLookupMs: number[];
  firstLookupCpuMs: number[];
  rssAfterFirstLookup: number;
  heapAfterFirstLookup: number;
  externalAfterFirstLookup: number;
  /** CPU time (user + system) of each open: less sensitive to other load on the machine than wall time. */
  openCpuMs: number[];
  heapAfterOpen: number;
  externalAfterOpen: number;
  rssAfterOpen: number;
  baseline: { heapUsed: number; external: number; rss: number };
  fileCount: number;
  chunks: number;
  variant: string;
  resolveUs: number;
  listFirstMs: number;
  listCachedMs: number;
  cold: number[];
  warm: number[];
  firstPass: number[];
  cachedChunkBytes: number;
  heapAfterReads: number;
  externalAfterReads: number;
  rssAfterReads: number;
}

async function measure(file: string, files: number, reads: number): Promise<Measured> {
  const gc = exposeGc();
  // Freed buffers are released after a collection and a turn of the event loop.
  const settle = async () => {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc();
  };
  await settle();
  const base = process.memoryUsage();
  const openMs: number[] = [];
  const openCpuMs: number[] = [];
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const random = seededRandom(7);
  const pick = () => Math.floor(random() * files);
  const tableReadMs: number[] = [];
  const openRatios: number[] = [];
  const firstLookupMs: number[] = [];
  const firstLookupCpuMs: number[] = [];
  const header = await openFileSource(file);
  const probe = probeNkpiHeader(header.read(0, NKPI_HEADER_BYTES), header.size);
  await header.close();
  if (!probe.ok) throw new Error(`${file}: ${probe.problem}`);
  const tableBytes = 24 * probe.ok.header.fileCount;
  const readTable = async () => {
    const t = performance.now();
    const source = await openFileSource(file);
    source.read(0, NKPI_HEADER_BYTES);
    if (source.read(NKPI_HEADER_BYTES, tableBytes).length !== tableBytes) throw new Error('short file table');
    await source.close();
    return performance.now() - t;
  };
  const lookup = (archive: { resolve(path: string): number }) => {
    const c = cpu();
    const t = performance.now();
    if (archive.resolve(pathOf(pick()).toUpperCase()) < 0) throw new Error('lookup failed');
    firstLookupCpuMs.push(cpu() - c);
    return performance.now() - t;
  };

  let c0 = cpu();
  const t0 = performance.now();
  const archive = await openNkpiArchive(file);
  openMs.push(performance.now() - t0);
  openCpuMs.push(cpu() - c0);
  await settle();
  const afterOpen = process.memoryUsage();
  firstLookupMs.push(lookup(archive));
  await settle();
  const afterFirstLookup = process.memoryUsage();
  // Pairs, the table read first: both halves of a pair see about the same load.
  for (let run = 0; run < 7; run++) {
    const table = await readTable();
    tableReadMs.push(table);
    c0 = cpu();
    const t = performance.now();
    const again = await openNkpiArchive(file);
    const ms = performance.now() - t;
    openMs.push(ms);
    openCpuMs.push(cpu() - c0);
    openRatios.push(ms / table);
    firstLookupMs.push(lookup(again));
    await again.close();
  }

  // Path lookups (case-folded).
  const lookups = Array.from({ length: 20_000 }, () => pathOf(pick()).toUpperCase());
  const r0 = performance.now();
  for (const p of lookups) if (archive.resolve(p) < 0) throw new Error(`${p} not found`);
  const resolveUs = ((performance.now() - r0) * 1000) / lookups.length;

  const folder = path.posix.dirname(pathOf(pick()));
  const l0 = performance.now();
  const listing = archive.list(folder);
  const listFirstMs = performance.now() - l0;
  const l1 = performance.now();
  archive.list(folder);
  const listCachedMs = performance.now() - l1;
  if (listing.length !== FILES_PER_FOLDER) throw new Error(`${folder} lists ${listing.length} files`);

  // Cold: no chunk cache, every read inflates its chunk.
  const cold: number[] = [];
  const uncached = await openNkpiArchive(file, { chunkCacheBytes: 0 });
  for (let k = 0; k < reads; k++) {
    const p = pathOf(pick());
    const s = performance.now();
    uncached.readText(p);
    cold.push(performance.now() - s);
  }
  await uncached.close();

  // Default cache: a first pass fills it, a second pass over other random files mostly hits it.
  const firstPass: number[] = [];
  const warm: number[] = [];
  for (const samples of [firstPass, warm]) {
    for (let k = 0; k < reads; k++) {
      const p = pathOf(pick());
      const s = performance.now();
      const text = archive.readText(p);
      samples.push(performance.now() - s);
      if (!text.text.startsWith('[name]')) throw new Error(`${p}: unexpected text`);
    }
  }
  await settle();
  const afterReads = process.memoryUsage();
  const result: Measured = {
    tableReadMs,
    openMs,
    openRatios,
    firstLookupMs,
    firstLookupCpuMs,
    rssAfterFirstLookup: afterFirstLookup.rss - base.rss,
    heapAfterFirstLookup: afterFirstLookup.heapUsed - base.heapUsed,
    externalAfterFirstLookup: afterFirstLookup.external - base.external,
    openCpuMs,
    heapAfterOpen: afterOpen.heapUsed - base.heapUsed,
    externalAfterOpen: afterOpen.external - base.external,
    rssAfterOpen: afterOpen.rss - base.rss,
    baseline: { heapUsed: base.heapUsed, external: base.external, rss: base.rss },
    fileCount: archive.fileCount,
    chunks: archive.groups.count,
    variant: archive.variant,
    resolveUs,
    listFirstMs,
    listCachedMs,
    cold,
    warm,
    firstPass,
    cachedChunkBytes: archive.cachedChunkBytes,
    heapAfterReads: afterReads.heapUsed - base.heapUsed,
    externalAfterReads: afterReads.external - base.external,
    rssAfterReads: afterReads.rss - base.rss,
  };
  await archive.close();
  return result;
}

/** min–max of samples. */
function spread(samples: number[]): string {
  return `${fmtMs(Math.min(...samples))}–${fmtMs(Math.max(...samples))}`;
}

function latencyRow(name: string, samples: number[]): string[] {
  return [name, String(samples.length), fmtMs(median(samples)), fmtMs(percentile(samples, 95)), fmtMs(percentile(samples, 99)), fmtMs(Math.max(...samples))];
}

async function main(): Promise<void> {
  const files = Number(args.files);
  const reads = Number(args.reads);
  if (!Number.isInteger(files) || files < 1000) throw new Error('--files must be an integer ≥ 1000');
  if (args.measure !== undefined) {
    process.stdout.write(JSON.stringify(await measure(args.measure, files, reads)));
    return;
  }
  const info = machine();
  console.log(`nkpi benchmark — ${info['date']}`);
  console.log(`machine: ${info['cpu']} × ${info['cores']}, ${info['memory']} RAM, node ${info['node']}, ${info['platform']}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-nkpi-bench-'));
  const file = args.archive ?? path.join(dir, 'Script.pvf');
  let generated: Record<string, unknown> | null = null;
  try {
    if (args.archive === undefined) {
      console.error(`generating ${files} files…`);
      generated = await generate(files, file);
      console.log(
        `generated: ${files} files, ${fmtBytes(generated['archiveBytes'] as number)} in ${fmtMs(generated['totalMs'] as number)} (encode ${fmtMs(generated['encodeMs'] as number)}, build ${fmtMs(generated['buildMs'] as number)}; writer peak RSS ${fmtBytes(generated['peakRss'] as number)})`,
      );
    }
    console.error('measuring in a fresh process…');
    const script = fileURLToPath(import.meta.url);
    const child = spawnSync(process.execPath, [...process.execArgv, script, '--measure', file, '--files', String(files), '--reads', String(reads)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (child.status !== 0) throw new Error(`measuring failed:\n${child.stderr}`);
    const m = JSON.parse(child.stdout) as Measured;
    console.log(`archive: ${m.variant}, ${m.fileCount} files listed, ${m.chunks} chunks; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
    console.log(
      table(
        ['what', '>value'],
        [
          ['read the file table alone (open, header, table, close; median of 7)', `${fmtMs(median(m.tableReadMs))} (${spread(m.tableReadMs)})`],
          ['open (first in the process)', fmtMs(m.openMs[0] as number)],
          ['open (median of 7, each after a table read)', `${fmtMs(median(m.openMs.slice(1)))} (${spread(m.openMs.slice(1))})`],
          ['open ÷ file-table read, per pair (median of 7)', `${fmtRatio(median(m.openRatios))} (${Math.min(...m.openRatios).toFixed(1)}–${Math.max(...m.openRatios).toFixed(1)})`],
          ['open CPU time, user + system (median of 8)', fmtMs(median(m.openCpuMs))],
          ['first path lookup after an open (median of 8)', `${fmtMs(median(m.firstLookupMs))} (${spread(m.firstLookupMs)})`],
          ['first path lookup, CPU time (median of 8)', fmtMs(median(m.firstLookupCpuMs))],
          ['open + first path lookup (median of 7)', fmtMs(median(m.openMs.slice(1).map((ms, i) => ms + (m.firstLookupMs[i + 1] as number))))],
          ['heap held after open', fmtBytes(m.heapAfterOpen)],
          ['buffers held after open (external, incl. ArrayBuffers)', fmtBytes(m.externalAfterOpen)],
          ['RSS growth after open', fmtBytes(m.rssAfterOpen)],
          ['RSS growth after the first lookup (buffers, heap)', `${fmtBytes(m.rssAfterFirstLookup)} (${fmtBytes(m.externalAfterFirstLookup)}, ${fmtBytes(m.heapAfterFirstLookup)})`],
          ['path lookup (case-folded)', `${m.resolveUs.toFixed(2)} µs`],
          ['list a 1 000-file folder (first / cached)', `${fmtMs(m.listFirstMs)} / ${fmtMs(m.listCachedMs)}`],
          ['chunk cache after the reads', fmtBytes(m.cachedChunkBytes)],
          ['heap held after the reads', fmtBytes(m.heapAfterReads)],
          ['buffers held after the reads', fmtBytes(m.externalAfterReads)],
          ['RSS growth after the reads', fmtBytes(m.rssAfterReads)],
        ],
      ),
    );
    console.log('');
    console.log(
      table(
        ['random readText', '>reads', '>p50', '>p95', '>p99', '>max'],
        [latencyRow('cold (no chunk cache: inflate every time)', m.cold), latencyRow('default cache, first pass', m.firstPass), latencyRow('default cache, second pass', m.warm)],
      ),
    );
    if (args.out) await writeFile(args.out, JSON.stringify({ machine: info, files, reads, generated, measured: m }, null, 2));
  } finally {
    if (!args.keep && args.archive === undefined) await rm(dir, { recursive: true, force: true });
    else if (args.archive === undefined) console.error(`kept ${file}`);
  }
}

await main();
