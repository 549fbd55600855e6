/**
 * `npm run bench:server`: throughput of the MCP server over Streamable HTTP (stateless JSON mode), with
 * concurrent clients calling one tool, for this checkout and optionally an older one in the same run.
 *
 *   npm run bench:server -- --old /tmp/old-build [--rounds 6] [--seconds 5] [--clients 8] [--tool workspace_info]
 *
 * Each checkout's own CLI (`cli/main.ts serve --http`) runs in its own process, serving its own builtin
 * layer (built by its own `pvfdoc build`: an older server may not read a newer bundle schema) and the
 * example workspace. Rounds alternate old/new so that other load on the machine hits both alike; the report gives per-round requests/s, the
 * server's CPU time per request (from /proc, less sensitive to other processes than throughput), their
 * medians and spreads, and the new/old ratios.
 *
 * A benchmark, not a test: it asserts nothing about time. See docs/benchmarks.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fmtRatio, median, now } from './stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string', default: ROOT },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    clients: { type: 'string', default: '8' },
    tool: { type: 'string', default: 'workspace_info' },
  },
});

const positive = (name: string, text: string | undefined): number => {
  const n = Number(text);
  if (!(n > 0)) throw new Error(`--${name} must be a positive number, got ${JSON.stringify(text)}`);
  return n;
};
const options = {
  rounds: Math.round(positive('rounds', args.rounds)),
  seconds: positive('seconds', args.seconds),
  warmup: positive('warmup', args.warmup),
  clients: Math.round(positive('clients', args.clients)),
  tool: args.tool ?? 'workspace_info',
};
const log = (line = '') => process.stdout.write(`${line}\n`);

interface Served {
  label: string;
  checkout: string;
  child: ChildProcess;
  url: URL;
}

/** Starts `serve --http` of a checkout on a free loopback port and waits for its "listening on" line. */
function startServer(label: string, checkout: string, snapshots: string, workspace: string): Promise<Served> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(checkout, 'cli/main.ts'), 'serve', '--http', '127.0.0.1:0', '--snapshots', snapshots, '--workspace', `example=${workspace}`, '--pvf-version', '90US'],
    { cwd: checkout, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let stderr = '';
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) {
        child.stderr?.off('data', onData);
        // Keep draining stderr so the server never blocks on a full pipe.
        child.stderr?.resume();
        resolve({ label, checkout, child, url: new URL(match[1]) });
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${label} server (${checkout}) exited with ${code}:\n${stderr}`)));
  });
}

/** User + system CPU time of a process so far, in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

function post(agent: Agent, url: URL, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const callBody = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: options.tool, arguments: {} } });
const initBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-server', version: '1' } },
});

/** One answer must be a tool result, not an error: a broken server must not look fast. */
function checkAnswer(served: Served, answer: { status: number; text: string }): void {
  if (answer.status !== 200 || !answer.text.includes('"structuredContent"') || answer.text.includes('"isError":true')) {
    throw new Error(`${served.label}: unexpected answer ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
}

/** `clients` loops, each initialize once then calls the tool back to back for `seconds`. */
async function round(served: Served, seconds: number): Promise<{ requests: number; ms: number; cpuMs: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.clients });
  try {
    await Promise.all(Array.from({ length: options.clients }, () => post(agent, served.url, initBody)));
    const cpuStart = cpuMs(served.child.pid);
    const start = now();
    const end = start + seconds * 1000;
    let requests = 0;
    let id = 1;
    const client = async () => {
      while (now() < end) {
        const answer = await post(agent, served.url, callBody(id++));
        if (requests % 500 === 0) checkAnswer(served, answer);
        requests++;
      }
    };
    await Promise.all(Array.from({ length: options.clients }, client));
    return { requests, ms: now() - start, cpuMs: cpuMs(served.child.pid) - cpuStart };
  } finally {
    agent.destroy();
  }
}

/** `pvfdoc build --out <snapshots>` of a checkout, run with that checkout's own CLI. */
function buildSnapshots(checkout: string, snapshots: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(checkout, 'cli/main.ts'), 'build', '--out', snapshots], { cwd: checkout, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pvfdoc build in ${checkout} exited with ${code}`))));
  });
}

function spread(xs: readonly number[], digits: number): string {
  return `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-bench-server-'));
  const servers: Served[] = [];
  try {
    const workspace = path.join(ROOT, 'examples/workspace');
    const checkouts: [string, string][] = [['new', path.resolve(args.new ?? ROOT)]];
    if (args.old !== undefined) checkouts.unshift(['old', path.resolve(args.old)]);
    for (const [label, checkout] of checkouts) {
      // Each checkout serves the builtin layer as its own compiler builds it: an older server may not
      // read a newer bundle schema, and workspace_info does not depend on the rules.
      const snapshots = path.join(work, `snapshots-${label}`);
      await buildSnapshots(checkout, snapshots);
      servers.push(await startServer(label, checkout, snapshots, workspace));
    }

    log('pvfdoc server benchmark (Streamable HTTP, stateless JSON)');
    log(`cpu      ${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}; node ${process.version}; load avg ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    log(`options  ${JSON.stringify(options)}`);
    for (const s of servers) log(`${s.label.padEnd(8)} ${s.checkout} → ${s.url.href}`);
    for (const s of servers) await round(s, options.warmup);

    const results = new Map<string, { rps: number[]; cpuPerRequestMs: number[] }>(servers.map((s) => [s.label, { rps: [], cpuPerRequestMs: [] }]));
    log();
    log('round  server  requests  requests/s  server CPU per request');
    for (let r = 0; r < options.rounds; r++) {
      // Alternate which one goes first, so neither always follows the other.
      const order = r % 2 === 0 ? servers : [...servers].reverse();
      for (const s of order) {
        const result = await round(s, options.seconds);
        const rps = (result.requests * 1000) / result.ms;
        const cpu = result.cpuMs / result.requests;
        const row = results.get(s.label);
        row?.rps.push(rps);
        row?.cpuPerRequestMs.push(cpu);
        log(`${String(r + 1).padStart(5)}  ${s.label.padEnd(6)}  ${String(result.requests).padStart(8)}  ${rps.toFixed(0).padStart(10)}  ${cpu.toFixed(3)} ms`);
      }
    }
    log();
    for (const [label, row] of results) {
      log(`${label.padEnd(8)} requests/s median ${median(row.rps).toFixed(0)} (spread ${spread(row.rps, 0)}); server CPU per request median ${median(row.cpuPerRequestMs).toFixed(3)} ms (spread ${spread(row.cpuPerRequestMs, 3)})`);
    }
    const oldRow = results.get('old');
    const newRow = results.get('new');
    if (oldRow && newRow) {
      const pairs = newRow.rps.map((x, i) => x / (oldRow.rps[i] ?? Number.NaN));
      log(`ratio    throughput new / old = ${fmtRatio(median(newRow.rps) / median(oldRow.rps))} (of the medians; per round ${pairs.map((x) => fmtRatio(x)).join(', ')})`);
      log(`ratio    server CPU per request old / new = ${fmtRatio(median(oldRow.cpuPerRequestMs) / median(newRow.cpuPerRequestMs))}`);
    }
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}

await main();
