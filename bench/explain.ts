/**
 * `npm run bench:explain`: explain throughput, server cold start and memory.
 *
 * 1. Explain throughput on one large generated script file (several MB of `.equ`-like text: repeated
 *    equipment blocks with record sections, references into generated `.lst` files, string-table
 *    placeholders), in MB/s (10^6 bytes of the UTF-8 file per second), next to lexing alone
 *    (`lexScript`) and the script view (`parseScriptView`) measured in the same run, so the cost of
 *    explain reads as a ratio to lexing. Measured in a fresh process that runs this file bundled with
 *    esbuild under plain `node` (bench/fresh-process.ts), as the server runs from dist/pvfdoc.mjs: the
 *    generator's texts and the compiled bundle of this process stay out of the measured heap.
 * 2. Server cold start to first answer: `node dist/pvfdoc.mjs serve --snapshots <dir> --workspace ...`
 *    spawned over stdio by an SDK client; time from spawn to the first `workspace_info` result. Median
 *    of several runs, with `node -e` start-up as the floor.
 * 3. Memory: RSS of the server process after its first answer and after explaining the big file; heap
 *    kept by the in-process explanation (explain cache, workspace text) and peak RSS of this process.
 *
 * The snapshot is built from rules/builtin into a temp folder first; dist/pvfdoc.mjs is built with
 * scripts/bundle-cli.mjs when it is missing. A benchmark, not a test: it asserts nothing about time.
 *
 * 4. Over MCP (a fresh server that has read and explained the big file once): the first `read_file`
 *    of the big file after it changed, then the first explain after it changed again, and their ratio,
 *    `--change-runs` times (one pair is at the mercy of a noisy machine: the median of the pairs' ratios
 *    is the figure); then one explain of a `--large-mb` script (default
 *    31 MB, the size of issue 15) while a `workspace_info` is sent every 100 ms: the longest any of them
 *    waited, the explain's time and answer, and the server's peak RSS (VmHWM).
 *
 * Options: --mb <n> (target size of the big file, default 4), --runs <n> (in-process runs, default 5),
 * --start-runs <n> (server starts, default 7), --change-runs <n> (changed-file pairs over MCP, default
 * 5), --large-mb <n> (0 skips part 4's large file), --keep
 * (keep the temp folder). dist/pvfdoc.mjs is rebuilt first, so the server runs the code under test.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { compileLayers } from '../build/compile-layers.js';
import { writeBundle } from '../build/write-bundle.js';
import { loadBundle } from '../runtime/bundle/load-bundle.js';
import { createExplainCache, explainFile, MAX_EXPLAIN_TEXT_UNITS } from '../runtime/explain/explain-file.js';
import type { ExplainOutput } from '../runtime/explain/explain-schema.js';
import { lexScript } from '../runtime/script/lex-script.js';
import { parseScriptView } from '../runtime/script/parse-script-view.js';
import { openDirectoryWorkspace } from '../runtime/workspace/open-directory-workspace.js';
import { seededRandom } from '../test/support/random.js';
import { bundleForNode, runJsonChild } from './fresh-process.js';
import { cpuBetween, exposeGc, fmtBytes, fmtMs, fmtRatio, median, table, threadCpu } from './stats.js';

const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILTIN_DIR = path.join(ROOT, 'rules/builtin');
const CLI = path.join(ROOT, 'dist/pvfdoc.mjs');
const BIG_FILE = 'equipment/character/fighter/bench_big.equ';
const LARGE_FILE = 'equipment/character/fighter/bench_large.equ';
const VERSION = '90US';

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '4' },
    'large-mb': { type: 'string', default: '31' },
    runs: { type: 'string', default: '5' },
    'start-runs': { type: 'string', default: '7' },
    'change-runs': { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
    measure: { type: 'string' },
  },
});
const positive = (name: string, text: string | undefined): number => {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${JSON.stringify(text)}`);
  return n;
};
const targetBytes = Math.round(positive('mb', args.mb) * 1e6);
const largeBytes = args['large-mb'] === '0' ? 0 : Math.round(positive('large-mb', args['large-mb']) * 1e6);
const runs = Math.round(positive('runs', args.runs));
const startRuns = Math.round(positive('start-runs', args['start-runs']));
const changeRuns = Math.round(positive('change-runs', args['change-runs']));
// The generated text is ASCII but for a few names, so its UTF-16 length is about its byte count.
if (targetBytes > MAX_EXPLAIN_TEXT_UNITS) throw new Error(`--mb must stay at or under ${(MAX_EXPLAIN_TEXT_UNITS / 1e6).toFixed(2)} (explain refuses longer texts: MAX_EXPLAIN_TEXT_UNITS)`);

const gc = exposeGc();
const log = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`  … ${line}\n`);
const mbps = (bytes: number, ms: number) => `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;

// --- The generated workspace ---

const NAMES = ['苍穹', '幕落', '臂铠', '龙鳞', '星辰', '破晓', '暗影', '烈焰', '寒冰', '雷霆', '圣光', '深渊', '守护', '誓约', '荣耀'];
const JOBS = ['[fighter]', '[swordman]', '[at fighter]', '[gunner]', '[mage]'];
const EQUIPMENT_IDS = 400;
const ITEM_IDS = 200;
const SKILL_IDS = 60;

interface Workspace {
  files: Map<string, string | Buffer>;
  bigBytes: number;
  blocks: number;
}

function utf16le(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

/** One equipment block: the sections of a real .equ, several with repeated records. */
function equipmentBlock(rand: () => number, n: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const name = `${pick(NAMES)}${pick(NAMES)}之${pick(NAMES)} ${n}`;
  const lines: string[] = [
    '[name]',
    `\t\`${name}\``,
    '[name2]',
    `\t<3::equipment_name_${n % 500}>`,
    '[basic explain]',
    `\t\`技能攻击力 +${int(5, 60)}%%\n发动${pick(NAMES)}之力-最终伤害 +${int(5, 40)}%%\n属性强化超过${int(50, 200)}时，赋予自身对应的属性攻击。\``,
    '[grade]',
    `\t${int(1, 100)}`,
    '[rarity]',
    `\t${int(0, 6)}`,
    '[usable job]',
    `\t\`${pick(JOBS)}\``,
    `\t\`${pick(JOBS)}\``,
    '[/usable job]',
    '[attach type]',
    '\t`[sealing]`',
    '[minimum level]',
    `\t${int(1, 100)}`,
    '[physical attack]',
    `\t${int(1, 999)}`,
    '[attack speed]',
    `\t${int(-100, 100)}`,
    '[price]',
    `\t${int(100, 9_999_999)}`,
    '[repair price]',
    `\t${int(100, 999_999)}`,
    '[value]',
    `\t${int(100, 999_999)}`,
    '[equipment physical attack]',
    `\t${int(100, 2000)}\t${int(100, 2000)}`,
    '[equipment magical attack]',
    `\t${int(100, 2000)}\t${int(100, 2000)}`,
    '[icon]',
    `\t\`item/new_equipment/01_weapon/fighter/gauntlet/gauntlet.img\`\t${int(0, 300)}`,
    '[equipment type]',
    `\t\`[weapon]\`\t${int(1, 40)}`,
    '[skill levelup]',
  ];
  for (let r = 0, records = int(4, 12); r < records; r++) lines.push(`\t\`${pick(JOBS)}\`\t${int(0, SKILL_IDS + 10)}\t${int(1, 5)}`);
  lines.push('[skill data up]');
  for (let r = 0, records = int(2, 6); r < records; r++) lines.push(`\t\`${pick(JOBS)}\`\t${int(0, SKILL_IDS + 10)}\t\`[dungeon type]\`\t\`[level]\`\t0\t\`+\`\t${int(1, 9)}`);
  lines.push('[need material]');
  for (let r = 0, records = int(1, 5); r < records; r++) lines.push(`\t${int(0, ITEM_IDS + 20)}\t${int(1, 99)}`);
  lines.push('[set item]', `\t${int(0, EQUIPMENT_IDS + 50)}`, '[weight]', `\t${int(100, 9000)}`, '[durability]', `\t${int(10, 60)}`, '');
  return lines.join('\n');
}

function generateWorkspace(bigBytes: number, largeBytes: number): Workspace {
  const rand = seededRandom(20241129);
  const files = new Map<string, string | Buffer>();
  // Reference targets: equipment, stackable items and skills with their lists.
  const equipmentRows: string[] = [];
  for (let i = 0; i < EQUIPMENT_IDS; i++) {
    const rel = `character/fighter/weapon/${100_000 + i}.equ`;
    equipmentRows.push(`${i}\t\`${rel}\``);
    files.set(`equipment/${rel}`, `#PVF_File\n\n[name]\n\t\`${NAMES[i % NAMES.length]}之刃 ${i}\`\n\n[rarity]\n\t${i % 7}\n`);
  }
  files.set('equipment/equipment.lst', `#PVF_File\n${equipmentRows.join('\n')}\n`);
  const itemRows: string[] = [];
  for (let i = 0; i < ITEM_IDS; i++) {
    itemRows.push(`${EQUIPMENT_IDS + i}\t\`material/m${i}.stk\``);
    files.set(`stackable/material/m${i}.stk`, `#PVF_File\n\n[name]\n\t\`材料 ${i}\`\n`);
  }
  files.set('stackable/stackable.lst', `#PVF_File\n${itemRows.join('\n')}\n`);
  for (const job of ['fighter', 'swordman', 'gunner']) {
    const rows: string[] = [];
    for (let i = 0; i < SKILL_IDS; i++) {
      rows.push(`${i}\t\`${job}/s${i}.skl\``);
      files.set(`skill/${job}/s${i}.skl`, `#PVF_File\n\n[name]\n\t\`${job} 技能 ${i}\`\n`);
    }
    files.set(`skill/${job}skill.lst`, `#PVF_File\n${rows.join('\n')}\n`);
  }
  files.set('n_string.lst', '3\t`equipment/equipment.str`\n');
  files.set('equipment/equipment.str', utf16le(Array.from({ length: 400 }, (_, i) => `equipment_name_${i}>装备名称 ${i}\r\n`).join('')));

  // The big file: blocks until the target size.
  const { text: big, blocks } = equipmentScript(rand, bigBytes);
  files.set(BIG_FILE, big);
  if (largeBytes > 0) files.set(LARGE_FILE, equipmentScript(rand, largeBytes).text);
  return { files, bigBytes: Buffer.byteLength(big), blocks };
}

/** Equipment blocks until the text has `size` bytes. */
function equipmentScript(rand: () => number, size: number): { text: string; blocks: number } {
  const parts = ['#PVF_File\n'];
  let bytes = parts[0]?.length ?? 0;
  let blocks = 0;
  while (bytes < size) {
    const block = equipmentBlock(rand, blocks++);
    parts.push(block);
    bytes += Buffer.byteLength(block) + 1;
  }
  return { text: parts.join('\n'), blocks };
}

async function writeWorkspace(root: string, files: Map<string, string | Buffer>): Promise<void> {
  for (const [rel, content] of files) {
    const target = path.join(root, ...rel.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

// --- Machine ---

function machine(): { cpu: string; cores: number; ram: string; node: string; os: string; date: string; load: string } {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    ram: fmtBytes(os.totalmem()),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
    load: os.loadavg().map((l) => l.toFixed(2)).join(', '),
  };
}

/** VmRSS and VmHWM of a process in bytes (Linux /proc); null elsewhere. */
async function rssOf(pid: number): Promise<{ rss: number; peak: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null;
  }
}

// --- In-process explain ---

/** Objects that must stay alive across a heap measurement. */
const retained: unknown[] = [];

interface InProcess {
  bytes: number;
  chars: number;
  lexMs: number[];
  viewMs: number[];
  explainFirstMs: number;
  explainMs: number[];
  allPagesMs: number;
  pages: number;
  annotations: number;
  warnings: number;
  nextPageMs: number[];
  heapBefore: number;
  heapAfter: number;
}

/** What the measuring process is given (written to a job file by the parent). */
interface InProcessJob {
  snapshotDir: string;
  workspaceRoot: string;
  bytes: number;
}

async function inProcess({ snapshotDir, workspaceRoot, bytes }: InProcessJob): Promise<InProcess> {
  const bundle = await loadBundle(snapshotDir);
  const workspace = await openDirectoryWorkspace({ workspaceId: 'bench', name: 'bench', root: workspaceRoot, pvfVersion: VERSION });
  try {
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const view = await workspace.view();
    const input = (extra: Record<string, unknown> = {}) => ({ workspaceId: 'bench', expectedRevision: view.revision, filePath: BIG_FILE, limit: 100, ...extra });

    // First call: reads and decodes the file as well.
    let started = performance.now();
    const cache = createExplainCache();
    let first: ExplainOutput = await explainFile({ bundle, workspace, input: input(), cache });
    const explainFirstMs = performance.now() - started;
    const text = view.readText(BIG_FILE).text;

    const lexMs: number[] = [];
    const viewMs: number[] = [];
    const explainMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      progress(`in-process run ${run + 1}/${runs}`);
      gc();
      started = performance.now();
      const lexed = lexScript(text);
      lexMs.push(performance.now() - started);
      if (lexed.tokens.length === 0) throw new Error('the generated file has no tokens');
      gc();
      started = performance.now();
      parseScriptView(text);
      viewMs.push(performance.now() - started);
      gc();
      // A fresh explain cache: the whole file is explained again (the workspace keeps the decoded text).
      started = performance.now();
      first = await explainFile({ bundle, workspace, input: input(), cache: createExplainCache() });
      explainMs.push(performance.now() - started);
    }

    // Every page, with the cache that holds the explanation.
    progress('paging through every annotation');
    started = performance.now();
    let pages = 1;
    let annotations = first.annotations.length;
    const nextPageMs: number[] = [];
    let cursor = (await explainFile({ bundle, workspace, input: input(), cache })).nextCursor;
    while (cursor !== null) {
      const t = performance.now();
      const page = await explainFile({ bundle, workspace, input: input({ cursor }), cache });
      nextPageMs.push(performance.now() - t);
      annotations += page.annotations.length;
      pages++;
      cursor = page.nextCursor;
    }
    const allPagesMs = performance.now() - started;
    // Keep the explanation (and the workspace with its decoded text) reachable while measuring:
    // optimised code does not count locals it no longer reads as roots.
    retained.push(cache, workspace, view, bundle);
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    retained.length = 0;
    return {
      bytes,
      chars: text.length,
      lexMs,
      viewMs,
      explainFirstMs,
      explainMs,
      allPagesMs,
      pages,
      annotations,
      warnings: first.warnings.length,
      nextPageMs,
      heapBefore,
      heapAfter,
    };
  } finally {
    await workspace.close();
  }
}

// --- Server start ---

interface StartRun {
  spawnToInitializedMs: number;
  spawnToFirstAnswerMs: number;
  rssAfterFirst: number | null;
  explainFirstPageMs: number;
  rssAfterExplain: number | null;
  peakRss: number | null;
}

async function nodeFloorMs(): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', 'process.stdout.write("ready")'], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.once('data', () => resolve());
    child.once('error', reject);
  });
  return performance.now() - started;
}

async function serverRun(snapshotsDir: string, workspaceRoot: string, explainToo: boolean): Promise<StartRun> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--snapshots', snapshotsDir, '--workspace', `bench=${workspaceRoot}`, '--pvf-version', VERSION],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'bench-explain', version: '1.0.0' });
  const started = performance.now();
  try {
    await client.connect(transport);
    const initialized = performance.now() - started;
    const info = (await client.callTool({ name: 'workspace_info', arguments: {} })) as CallToolResult;
    const firstAnswer = performance.now() - started;
    if (info.isError) throw new Error(`workspace_info failed: ${JSON.stringify(info.content)}`);
    const pid = transport.pid;
    const rssAfterFirst = pid === null ? null : ((await rssOf(pid))?.rss ?? null);
    let explainFirstPageMs = Number.NaN;
    let rssAfterExplain: number | null = null;
    let peakRss: number | null = null;
    if (explainToo) {
      const revision = (info.structuredContent as { workspaces: { revision: number }[] }).workspaces[0]?.revision ?? 0;
      const t = performance.now();
      const result = (await client.callTool({
        name: 'pvf_annotation_explain',
        arguments: { workspaceId: 'bench', expectedRevision: revision, filePath: BIG_FILE, limit: 100 },
      })) as CallToolResult;
      explainFirstPageMs = performance.now() - t;
      if (result.isError) throw new Error(`explain failed: ${JSON.stringify(result.content).slice(0, 500)}`);
      const after = pid === null ? null : await rssOf(pid);
      rssAfterExplain = after?.rss ?? null;
      peakRss = after?.peak ?? null;
    }
    return { spawnToInitializedMs: initialized, spawnToFirstAnswerMs: firstAnswer, rssAfterFirst, explainFirstPageMs, rssAfterExplain, peakRss };
  } catch (error) {
    throw new Error(`${String(error)}\nserver stderr:\n${stderr}`);
  } finally {
    await client.close();
  }
}

// --- Over MCP ---

/**
 * The same pairs by the server main thread's time on a CPU (Linux schedstat), and how long each call
 * waited for a CPU: on a machine where other work takes the cores, wall times swing with the wait, the
 * time on the CPU much less. No rows when the figures are not available.
 */
function cpuRows(mcp: OverMcp): string[][] {
  const reads = mcp.readChangedCpu;
  const explains = mcp.explainChangedCpu;
  if (reads.some((c) => c === null) || explains.some((c) => c === null)) return [];
  const run = (list: OverMcp['readChangedCpu']) => list.map((c) => (c as { runMs: number }).runMs);
  const wait = (list: OverMcp['readChangedCpu']) => list.map((c) => (c as { waitMs: number }).waitMs);
  const ratios = run(explains).map((ms, i) => ms / (run(reads)[i] as number));
  return [
    ['read_file: server main thread on a CPU', fmtMs(median(run(reads))), run(reads).map(fmtMs).join(', ')],
    ['explain: server main thread on a CPU', fmtMs(median(run(explains))), run(explains).map(fmtMs).join(', ')],
    ['ratio explain / read_file by CPU time, per pair', fmtRatio(median(ratios)), ratios.map(fmtRatio).join(', ')],
    ['waiting for a CPU (read_file; explain)', `${fmtMs(median(wait(reads)))}; ${fmtMs(median(wait(explains)))}`, `${wait(reads).map(fmtMs).join(', ')}; ${wait(explains).map(fmtMs).join(', ')}`],
  ];
}

interface OverMcp {
  /** Per change-run: the first read_file after a change, then the first explain after the next change. */
  readChangedMs: number[];
  explainChangedMs: number[];
  /** The server's main thread per call: time on a CPU and waiting for one (null off Linux). */
  readChangedCpu: ({ runMs: number; waitMs: number } | null)[];
  explainChangedCpu: ({ runMs: number; waitMs: number } | null)[];
  large: { bytes: number; explainMs: number; outcome: string; probes: number; longestWaitMs: number; medianWaitMs: number; peakRss: number | null; rssAfter: number | null; secondPageMs: number } | null;
}

async function overMcp(snapshotsDir: string, workspaceRoot: string, large: boolean): Promise<OverMcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--snapshots', snapshotsDir, '--workspace', `bench=${workspaceRoot}`, '--pvf-version', VERSION],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'bench-explain-mcp', version: '1.0.0' });
  await client.connect(transport);
  try {
    const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => (await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as CallToolResult;
    const revision = async (): Promise<number> => ((await call('workspace_info', {})).structuredContent as { workspaces: { revision: number }[] }).workspaces[0]?.revision ?? 0;
    const bigPath = path.join(workspaceRoot, ...BIG_FILE.split('/'));
    const original = await readFile(bigPath, 'utf8');
    // A server in use: both tools have run once before the file changes.
    const warm = await revision();
    await call('read_file', { workspaceId: 'bench', filePath: BIG_FILE });
    await call('pvf_annotation_explain', { workspaceId: 'bench', expectedRevision: warm, filePath: BIG_FILE, limit: 100 });
    const change = async (n: number) => {
      await writeFile(bigPath, `${original}\n[name]\n\t\`changed ${n}\`\n`);
      // The directory workspace notices a change by the file's size and time.
      await new Promise((resolve) => setTimeout(resolve, 50));
    };
    const readChangedMs: number[] = [];
    const explainChangedMs: number[] = [];
    const readChangedCpu: OverMcp['readChangedCpu'] = [];
    const explainChangedCpu: OverMcp['explainChangedCpu'] = [];
    const pid = transport.pid;
    const serverCpu = () => (pid === null ? null : threadCpu(pid));
    for (let run = 0; run < changeRuns; run++) {
      await change(2 * run + 1);
      await revision();
      let c = serverCpu();
      let t = performance.now();
      const read = await call('read_file', { workspaceId: 'bench', filePath: BIG_FILE });
      readChangedMs.push(performance.now() - t);
      readChangedCpu.push(cpuBetween(c, serverCpu()));
      if (read.isError) throw new Error(`read_file failed: ${JSON.stringify(read.content).slice(0, 300)}`);
      await change(2 * run + 2);
      const expectedRevision = await revision();
      c = serverCpu();
      t = performance.now();
      const explained = await call('pvf_annotation_explain', { workspaceId: 'bench', expectedRevision, filePath: BIG_FILE, limit: 100 });
      explainChangedMs.push(performance.now() - t);
      explainChangedCpu.push(cpuBetween(c, serverCpu()));
      if (explained.isError) throw new Error(`explain failed: ${JSON.stringify(explained.content).slice(0, 300)}`);
    }
    await writeFile(bigPath, original);
    if (!large) return { readChangedMs, explainChangedMs, readChangedCpu, explainChangedCpu, large: null };

    const largeRevision = await revision();
    const waits: number[] = [];
    let done = false;
    const probing = (async () => {
      while (!done) {
        const sent = performance.now();
        await call('workspace_info', {});
        waits.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    let t = performance.now();
    const first = await call('pvf_annotation_explain', { workspaceId: 'bench', expectedRevision: largeRevision, filePath: LARGE_FILE, limit: 100 });
    const explainMs = performance.now() - t;
    done = true;
    await probing;
    const status = pid === null ? null : await rssOf(pid);
    const structured = first.structuredContent as { annotations?: unknown[]; nextCursor?: string | null } | undefined;
    const outcome = first.isError ? `error ${JSON.stringify(first.structuredContent ?? first.content).slice(0, 200)}` : `${structured?.annotations?.length ?? 0} annotations on the first page`;
    t = performance.now();
    if (!first.isError && structured?.nextCursor) await call('pvf_annotation_explain', { workspaceId: 'bench', expectedRevision: largeRevision, filePath: LARGE_FILE, limit: 100, cursor: structured.nextCursor });
    const secondPageMs = performance.now() - t;
    const bytes = (await stat(path.join(workspaceRoot, ...LARGE_FILE.split('/')))).size;
    return {
      readChangedMs,
      explainChangedMs,
      readChangedCpu,
      explainChangedCpu,
      large: { bytes, explainMs, outcome, probes: waits.length, longestWaitMs: Math.max(...waits), medianWaitMs: median(waits), peakRss: status?.peak ?? null, rssAfter: status?.rss ?? null, secondPageMs },
    };
  } finally {
    await client.close();
  }
}

// --- Main ---

async function main(): Promise<void> {
  if (args.measure !== undefined) {
    process.stdout.write(JSON.stringify(await inProcess(JSON.parse(await readFile(args.measure, 'utf8')) as InProcessJob)));
    return;
  }
  const m = machine();
  log('# pvfdoc explain benchmark');
  log();
  log(`date: ${m.date}`);
  log(`machine: ${m.cpu} × ${m.cores} cores, ${m.ram} RAM, Node ${m.node}, ${m.os}; load average at start ${m.load}`);
  log();

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-bench-explain-'));
  try {
    progress('building dist/pvfdoc.mjs (scripts/bundle-cli.mjs)');
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/bundle-cli.mjs')], { cwd: ROOT });
    progress('compiling rules/builtin into a snapshot');
    const compiled = await compileLayers([BUILTIN_DIR]);
    if (!compiled.ok) throw new Error(`rules/builtin does not compile: ${JSON.stringify(compiled.problems.slice(0, 3))}`);
    const snapshots = path.join(tmp, 'snapshots');
    const snapshotDir = await writeBundle(snapshots, compiled.bundle, { setCurrent: true });

    progress('generating the workspace');
    const generated = generateWorkspace(targetBytes, largeBytes);
    const workspaceRoot = path.join(tmp, 'workspace');
    await writeWorkspace(workspaceRoot, generated.files);
    const onDisk = (await stat(path.join(workspaceRoot, ...BIG_FILE.split('/')))).size;

    log(`rules: rules/builtin, rulesRevision ${compiled.bundle.rulesRevision}, version context ${VERSION}`);
    log(`big file: ${BIG_FILE}, ${fmtBytes(onDisk)} (${(onDisk / 1e6).toFixed(2)} MB), ${generated.blocks} equipment blocks; workspace of ${generated.files.size} files`);
    log();

    // 1. Throughput, in a fresh process: the generated workspace and the compiled bundle held here
    // would make every garbage collection of the measured code walk a heap no server has.
    progress('measuring explain in a fresh process');
    const jobFile = path.join(tmp, 'job.json');
    await writeFile(jobFile, JSON.stringify({ snapshotDir, workspaceRoot, bytes: onDisk } satisfies InProcessJob));
    const script = await bundleForNode(SELF, path.join(tmp, 'measure.mjs'));
    const p = await runJsonChild<InProcess>(script, ['--measure', jobFile, '--runs', String(runs)]);
    const lex = median(p.lexMs);
    const view = median(p.viewMs);
    const explain = median(p.explainMs);
    log('## Explain throughput (in process)');
    log();
    log(
      table(
        ['what', '>median', '>MB/s', '>× lexing', 'runs'],
        [
          ['lexScript (lexing alone)', fmtMs(lex), mbps(p.bytes, lex), '1.00×', p.lexMs.map(fmtMs).join(', ')],
          ['parseScriptView (lex + sections)', fmtMs(view), mbps(p.bytes, view), fmtRatio(view / lex), p.viewMs.map(fmtMs).join(', ')],
          ['explainFile, whole file (first page)', fmtMs(explain), mbps(p.bytes, explain), fmtRatio(explain / lex), p.explainMs.map(fmtMs).join(', ')],
          ['explainFile, first call (+ read, decode)', fmtMs(p.explainFirstMs), mbps(p.bytes, p.explainFirstMs), fmtRatio(p.explainFirstMs / lex), 'one run'],
          [`every page (${p.pages} pages of ≤ 100)`, fmtMs(p.allPagesMs), mbps(p.bytes, p.allPagesMs), fmtRatio(p.allPagesMs / lex), 'one run, explanation cached'],
        ],
      ),
    );
    log();
    log(`annotations: ${p.annotations} (${(p.annotations / (p.bytes / 1e6)).toFixed(0)} per MB); warnings: ${p.warnings}; text: ${p.chars} UTF-16 units`);
    log(`one later page (cached explanation): median ${fmtMs(median(p.nextPageMs))}, p99 ${fmtMs(p.nextPageMs.slice().sort((a, b) => a - b)[Math.max(0, Math.ceil(p.nextPageMs.length * 0.99) - 1)] ?? Number.NaN)}`);
    log();

    // 2 and 3. Server start and memory.
    const floor: number[] = [];
    for (let i = 0; i < startRuns; i++) floor.push(await nodeFloorMs());
    const starts: StartRun[] = [];
    for (let i = 0; i < startRuns; i++) {
      progress(`server start ${i + 1}/${startRuns}`);
      starts.push(await serverRun(snapshots, workspaceRoot, i === startRuns - 1));
    }
    const last = starts[starts.length - 1] as StartRun;
    log('## Server cold start (stdio, dist/pvfdoc.mjs serve)');
    log();
    log(
      table(
        ['what', '>median', '>min', '>max', 'runs'],
        [
          ['node -e start-up (floor)', fmtMs(median(floor)), fmtMs(Math.min(...floor)), fmtMs(Math.max(...floor)), floor.map(fmtMs).join(', ')],
          ['spawn → initialized', fmtMs(median(starts.map((s) => s.spawnToInitializedMs))), fmtMs(Math.min(...starts.map((s) => s.spawnToInitializedMs))), fmtMs(Math.max(...starts.map((s) => s.spawnToInitializedMs))), starts.map((s) => fmtMs(s.spawnToInitializedMs)).join(', ')],
          ['spawn → first workspace_info', fmtMs(median(starts.map((s) => s.spawnToFirstAnswerMs))), fmtMs(Math.min(...starts.map((s) => s.spawnToFirstAnswerMs))), fmtMs(Math.max(...starts.map((s) => s.spawnToFirstAnswerMs))), starts.map((s) => fmtMs(s.spawnToFirstAnswerMs)).join(', ')],
        ],
      ),
    );
    log();
    log(`explain of the big file through the server (first page, cold, last run): ${fmtMs(last.explainFirstPageMs)}`);
    log();
    log('## Memory');
    log();
    const rssFirst = starts.map((s) => s.rssAfterFirst).filter((r): r is number => r !== null);
    log(
      table(
        ['what', '>bytes'],
        [
          ['server RSS after the first answer (median)', rssFirst.length ? fmtBytes(median(rssFirst)) : 'n/a'],
          ['server RSS after explaining the big file', last.rssAfterExplain === null ? 'n/a' : fmtBytes(last.rssAfterExplain)],
          ['server peak RSS (VmHWM) after that', last.peakRss === null ? 'n/a' : fmtBytes(last.peakRss)],
          ['in-process heap kept by explain (explanation + decoded text)', fmtBytes(p.heapAfter - p.heapBefore)],
          ['bench process peak RSS', fmtBytes(process.resourceUsage().maxRSS * 1024)],
        ],
      ),
    );
    log();

    // 4. Over MCP: a changed file, and a large one while the server is asked other things.
    progress('over MCP: read_file and explain of a changed file');
    const mcp = await overMcp(snapshots, workspaceRoot, largeBytes > 0);
    log(`## Over MCP (stdio, a server that has read and explained the big file once; ${changeRuns} changes each)`);
    log();
    const pairRatios = mcp.explainChangedMs.map((ms, i) => ms / (mcp.readChangedMs[i] as number));
    log(
      table(
        ['what', '>median', 'runs'],
        [
          ['first read_file of the big file after it changed', fmtMs(median(mcp.readChangedMs)), mcp.readChangedMs.map(fmtMs).join(', ')],
          ['first explain of the big file after it changed again (first page)', fmtMs(median(mcp.explainChangedMs)), mcp.explainChangedMs.map(fmtMs).join(', ')],
          ['ratio explain / read_file, per pair', fmtRatio(median(pairRatios)), pairRatios.map(fmtRatio).join(', ')],
          ...cpuRows(mcp),
        ],
      ),
    );
    log();
    if (mcp.large) {
      const l = mcp.large;
      log(`large file: ${LARGE_FILE}, ${fmtBytes(l.bytes)}; explain answered in ${fmtMs(l.explainMs)}: ${l.outcome}`);
      log(`workspace_info every 100 ms meanwhile: ${l.probes} answered, longest wait ${fmtMs(l.longestWaitMs)}, median ${fmtMs(l.medianWaitMs)}`);
      log(`server peak RSS (VmHWM): ${l.peakRss === null ? 'n/a' : fmtBytes(l.peakRss)}; after: ${l.rssAfter === null ? 'n/a' : fmtBytes(l.rssAfter)}; a second page: ${fmtMs(l.secondPageMs)}`);
      log();
    }
    log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  } finally {
    if (args.keep) log(`kept ${tmp}`);
    else await rm(tmp, { recursive: true, force: true });
  }
}

await main();
