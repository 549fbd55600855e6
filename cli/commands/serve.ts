import { createExplainCache } from '../../runtime/explain/explain-file.js';
import os from 'node:os';
import path from 'node:path';
import { createRulesHolder, type RulesHolder } from '../../runtime/bundle/rules-holder.js';
import { watchCurrentBundle, type CurrentBundleWatcher } from '../../runtime/bundle/watch-current.js';
import { normalizeEncodingName } from '../../runtime/classic/text-encoding.js';
import { isPvfdocError } from '../../runtime/errors.js';
import { DEFAULT_HTTP_PORT } from '../../runtime/mcp/constants.js';
import { createServer, type ServerContext } from '../../runtime/mcp/create-server.js';
import { createSharedServerParts } from '../../runtime/mcp/server-context.js';
import { createCursorKey } from '../../runtime/mcp/cursor-key.js';
import { createStderrLogger, type Logger } from '../../runtime/mcp/log.js';
import { openWorkspace } from '../../runtime/workspace/open-workspace.js';
import { isLoopbackHost, parseHostPort, serveHttp } from '../../runtime/mcp/serve-http.js';
import { normalizeSiteUrl } from '../../runtime/mcp/site-links.js';
import { serveStdio } from '../../runtime/mcp/serve-stdio.js';
import { listToolManifest } from '../../runtime/mcp/tool-manifest.js';
import type { Workspace } from '../../runtime/workspace/workspace.js';
import { parseCommandArgs, UsageError } from '../args.js';
import { helperPoolAdvice } from '../helper-pool-advice.js';
import { openRules } from '../open-snapshot.js';

const HELP = `Usage: pvfdoc serve [options]

Serves the MCP tools (workspace_info, list_files, read_file, pvf_annotation_search,
pvf_annotation_get, pvf_annotation_explain), the prompts pvf_explain_file and pvf_tag_meaning, the
skill resource and the MCP Apps views of explain and search, over stdio, or Streamable HTTP with --http.
Logs go to stderr. Stop with Ctrl+C (SIGINT) or SIGTERM.
  --snapshots <dir>          a snapshots folder: serves its current and reloads when current changes
                             (default ./snapshots; when it has no current, the builtin rules shipped
                             with pvfdoc are served); or one bundle folder (holds manifest.json)
  --workspace <name>=<path>  a folder of decompiled script text, or a classic Script.pvf file,
                             opened read-only; repeatable. name is the workspaceId the tools take
  --pvf-version <V>          client version of the workspaces (e.g. 110US); default: unknown
                             (a Script.pvf does not record it)
  --encoding <name>          text encoding of Script.pvf workspaces (cp950, cp936, cp949, utf-8);
                             default: detected from stringtable.bin; folders are always UTF-8
  --http <host:port>         serve POST http://<host:port>/mcp (stateless JSON) instead of stdio,
                             e.g. 127.0.0.1:${DEFAULT_HTTP_PORT}; port 0 picks a free one
  --token <secret>           with --http: every request needs Authorization: Bearer <secret>;
                             required when host is not a loopback address
  --site-url <url>           base URL of the reference site built from the same rules (pvfdoc site):
                             search, get and explain results link each document to its page there;
                             with --http and a site served alongside (npm start), that site is used
  --print-manifest           print the tool manifest (names, schemas, annotations) as JSON and exit`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    'serve',
    argv,
    {
      snapshots: { type: 'string' },
      workspace: { type: 'string', multiple: true },
      'pvf-version': { type: 'string' },
      encoding: { type: 'string' },
      http: { type: 'string' },
      token: { type: 'string' },
      'site-url': { type: 'string' },
      'print-manifest': { type: 'boolean' },
    },
    false,
  );
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (values['print-manifest']) {
    process.stdout.write(`${JSON.stringify(await listToolManifest(), null, 2)}\n`);
    return 0;
  }
  const specs = parseWorkspaceSpecs(values.workspace ?? []);
  const encoding = parseEncoding('serve', values.encoding);
  const http = values.http === undefined ? null : parseHttp(values.http);
  if (values.token !== undefined && http === null) throw new UsageError('serve: --token only applies with --http');
  if (values.token === '') throw new UsageError('serve: --token must not be empty');
  if (http && !isLoopbackHost(http.host) && values.token === undefined) {
    throw new UsageError(`serve: --http ${values.http} is reachable from other machines; add --token <secret>, or bind 127.0.0.1`);
  }

  const siteUrl = values['site-url'] === undefined ? undefined : normalizeSiteUrl(values['site-url']);
  if (siteUrl === null) throw new UsageError(`serve: --site-url ${values['site-url'] ?? ''} is not an http(s) URL; give the address the site is published at, e.g. https://example.org/pvfdoc/`);

  const log = createStderrLogger();
  const poolAdvice = helperPoolAdvice({ cores: os.availableParallelism(), execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS });
  if (poolAdvice !== null) log('info', 'node', poolAdvice);
  const rules = await openServedRules(values.snapshots, log);
  const versions = rules.holder.current().bundle.manifest.pvfVersions;
  const pvfVersion = values['pvf-version'];
  if (pvfVersion !== undefined && !versions.includes(pvfVersion)) {
    rules.watcher?.close();
    throw new UsageError(`serve: --pvf-version ${pvfVersion} is not a version of the rules; use one of ${versions.join(', ')}`);
  }
  const workspaces = new Map<string, Workspace>();
  for (const spec of specs) {
    const workspace = await openWorkspace({
      workspaceId: spec.name,
      name: spec.name,
      path: spec.root,
      ...(pvfVersion !== undefined ? { pvfVersion } : {}),
      ...(encoding !== undefined ? { encoding } : {}),
    });
    workspaces.set(spec.name, workspace);
    const info = workspace.info();
    const archive = info.kind === 'directory' ? '' : `, encoding ${info.encoding}`;
    if (info.archiveOpen) log('info', 'workspace', `${spec.name}: ${spec.root} (${info.fileCount} files, pvfVersion ${info.pvfVersion || 'unknown'}${archive})`);
    else log('warn', 'workspace', `${spec.name}: ${spec.root} cannot be read: ${info.error ?? 'unknown reason'}`);
    for (const warning of info.warnings ?? []) log('warn', 'workspace', `${spec.name}: ${warning}`);
  }
  const snapshotsDir = rules.snapshotsDir !== null ? { snapshotsDir: rules.snapshotsDir } : {};
  const ctx: ServerContext = { rules: rules.holder, workspaces, log, explainCache: createExplainCache(), shared: createSharedServerParts(), cursorKey: createCursorKey(), ...snapshotsDir, ...(siteUrl !== undefined ? { siteUrl } : {}) };
  log('info', 'rules', `serving rulesRevision ${rules.holder.current().bundle.rulesRevision}${rules.watcher ? ' (reloads when current changes)' : ''}`);

  const stop = waitForSignal();
  let closeTransport: () => Promise<void>;
  let finished: Promise<unknown>;
  try {
    if (http) {
      // An explicit --site-url wins over the site this server serves itself.
      const serving = await serveHttp({ ...http, token: values.token, createServer: (served) => createServer(ctx.siteUrl === undefined && served.siteUrl !== null ? { ...ctx, siteUrl: served.siteUrl } : ctx), log });
      log('info', 'http', `listening on ${serving.url}`);
      closeTransport = serving.close;
      finished = stop.signal;
    } else {
      const serving = await serveStdio(createServer(ctx), { log });
      log('info', 'stdio', 'serving MCP on stdio');
      closeTransport = serving.close;
      finished = Promise.race([serving.closed, stop.signal]);
    }
  } catch (error) {
    stop.dispose();
    rules.watcher?.close();
    await closeAll(workspaces);
    throw error;
  }
  const reason = await finished;
  log('info', 'serve', `shutting down${typeof reason === 'string' ? ` (${reason})` : ''}`);
  stop.dispose();
  rules.watcher?.close();
  await closeTransport();
  await closeAll(workspaces);
  return 0;
}

export interface WorkspaceSpec {
  name: string;
  root: string;
}

/** `<name>=<path>` options; the path is resolved by the platform's rules (`D:\\DNF\\Script.pvf` on Windows). */
export function parseWorkspaceSpecs(values: readonly string[], paths: path.PlatformPath = path): WorkspaceSpec[] {
  const specs: WorkspaceSpec[] = [];
  for (const value of values) {
    const eq = value.indexOf('=');
    const name = value.slice(0, eq);
    const root = value.slice(eq + 1);
    if (eq <= 0 || root === '') throw new UsageError(`serve: --workspace takes <name>=<path>, got "${value}"`);
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new UsageError(`serve: workspace name "${name}" may only use letters, digits, "_", "." and "-"`);
    if (specs.some((s) => s.name === name)) throw new UsageError(`serve: workspace "${name}" is given twice`);
    specs.push({ name, root: paths.resolve(root) });
  }
  return specs;
}

/** A known text encoding name for --encoding (normalised, e.g. "CP949" → "cp949"), or undefined when not given. */
export function parseEncoding(command: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return normalizeEncodingName(value);
  } catch (error) {
    if (isPvfdocError(error)) throw new UsageError(`${command}: --encoding ${JSON.stringify(value)} is not a text encoding iconv-lite knows; use cp950, cp936, cp949 or utf-8`);
    throw error;
  }
}

function parseHttp(value: string): { host: string; port: number } {
  try {
    return parseHostPort(value);
  } catch (error) {
    if (isPvfdocError(error)) throw new UsageError(`serve: --http ${error.message}; ${error.hint ?? ''}`);
    throw error;
  }
}

/** A snapshots folder (its current, watched), one bundle folder (fixed), or the builtin rules (fixed). */
async function openServedRules(given: string | undefined, log: Logger): Promise<{ holder: RulesHolder; watcher: CurrentBundleWatcher | null; snapshotsDir: string | null }> {
  const opened = await openRules(given);
  // Every tool reads the documents: parse and check them now, not in the first request (which would
  // wait for it), and refuse a damaged bundle before serving.
  void opened.bundle.documents.length;
  if (opened.note) log(opened.origin === 'snapshot' ? 'warn' : 'info', 'rules', opened.note);
  const holder = createRulesHolder(opened.bundle);
  const watcher = opened.snapshotsDir === null ? null : watchCurrentBundle({ snapshotsDir: opened.snapshotsDir, holder, log });
  return { holder, watcher, snapshotsDir: opened.snapshotsDir };
}

/** The first SIGINT/SIGTERM; later ones are ignored until dispose, so a repeated signal cannot cut the shutdown short. */
function waitForSignal(): { signal: Promise<string>; dispose(): void } {
  let onSignal: (name: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<string>((resolve) => {
    onSignal = resolve;
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

async function closeAll(workspaces: ReadonlyMap<string, Workspace>): Promise<void> {
  await Promise.all([...workspaces.values()].map((w) => w.close()));
}
