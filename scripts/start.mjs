// npm start: build dist/pvfdoc.mjs when it is missing or older than the sources, build the builtin
// snapshot when snapshots/current is missing or unreadable, build the reference site (site/dist) when it is missing
// or older than the snapshot or its sources, then serve the example workspace over Streamable HTTP with
// the site next to it on the same loopback port: the site under /, the MCP endpoint at /mcp.
// Usage: npm start [-- --port <n>]   (or PORT=<n> npm start); default port 8765.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/pvfdoc.mjs');
const SITE_DIR = path.join(ROOT, 'site/dist');
const SITE_STAMP = path.join(SITE_DIR, '_pvfdoc/site.json');
const HOST = '127.0.0.1';

const portArg = process.argv.indexOf('--port');
const port = Number(portArg >= 0 ? process.argv[portArg + 1] : (process.env.PORT ?? 8765));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`start: port must be 0–65535, got ${String(port)}`);
  process.exit(2);
}

function newestSource(dir, suffixes = ['.ts']) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', '.astro'].includes(entry.name)) newest = Math.max(newest, newestSource(full, suffixes));
    } else if (suffixes.some((s) => entry.name.endsWith(s))) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Whether site/dist was built from the current snapshot and is newer than the site and search sources. */
function siteIsFresh() {
  try {
    const stamp = JSON.parse(readFileSync(SITE_STAMP, 'utf8'));
    const current = readFileSync(path.join(ROOT, 'snapshots/current'), 'utf8').trim();
    const sources = Math.max(newestSource(path.join(ROOT, 'site'), ['.ts', '.astro', '.css', '.mjs']), newestSource(path.join(ROOT, 'runtime')));
    return stamp.rulesRevision === current && stamp.base === '/' && statSync(SITE_STAMP).mtimeMs > sources;
  } catch {
    return false;
  }
}

function step(what, args) {
  console.error(`[start] ${what}`);
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`[start] failed: ${what}`);
    process.exit(result.status ?? 1);
  }
}

// The MCP Apps views' stylesheet is inlined into the CLI bundle too, so a changed .css rebuilds it.
const sourcesChanged = existsSync(CLI) && Math.max(...['cli', 'runtime', 'build'].map((d) => newestSource(path.join(ROOT, d), ['.ts', '.css']))) > statSync(CLI).mtimeMs;
if (!existsSync(CLI) || sourcesChanged) step(`building ${path.relative(ROOT, CLI)}`, ['scripts/bundle-cli.mjs']);
// A missing snapshot, or one this pvfdoc cannot read (e.g. written by an older version), is rebuilt.
const currentReadable =
  existsSync(path.join(ROOT, 'snapshots/current')) &&
  spawnSync(process.execPath, [CLI, 'search', '--snapshot', 'snapshots', '--limit', '1', '--json'], { cwd: ROOT, stdio: 'ignore' }).status === 0;
if (!currentReadable) step('building the builtin rules snapshot', [CLI, 'build', '--out', 'snapshots']);
if (!siteIsFresh()) step(`building the reference site into ${path.relative(ROOT, SITE_DIR)}`, [CLI, 'site', '--snapshot', 'snapshots', '--out', SITE_DIR]);

const child = spawn(
  process.execPath,
  // V8's helpers sized from the cores (docs/mcp.md, "Client configuration").
  ['--v8-pool-size=0', CLI, 'serve', '--http', `${HOST}:${port}`, '--workspace', 'example=examples/workspace', '--pvf-version', '90US', '--snapshots', 'snapshots'],
  { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'], env: { ...process.env, PVFDOC_SITE_DIR: SITE_DIR } },
);

let announced = false;
let pending = '';
child.stderr.on('data', (chunk) => {
  process.stderr.write(chunk);
  if (announced) return;
  pending += chunk.toString('utf8');
  const url = /listening on (http:\/\/\S+)/.exec(pending)?.[1];
  if (!url) return;
  announced = true;
  const config = { mcpServers: { pvfdoc: { type: 'http', url } } };
  const site = new URL('/', url).href;
  process.stdout.write(
    `\npvfdoc reference site: ${site}\n` +
      `pvfdoc MCP endpoint (Streamable HTTP, POST only): ${url}\n` +
      `Client config:\n${JSON.stringify(config, null, 2)}\n` +
      `Quick check:\n  curl -s -X POST ${url} -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'\n` +
      'Stop with Ctrl+C.\n\n',
  );
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
