/**
 * End to end against the built single-file CLI (dist/pvfdoc.mjs): `serve` over stdio
 * (StdioClientTransport) and over Streamable HTTP (StreamableHTTPClientTransport), the HTTP security
 * checks (Host 403, bearer 401, GET 405, unknown path 404, body 413), clean shutdown, and the
 * `explain` command.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helperPoolAdvice } from '../../../cli/helper-pool-advice.js';
import { ExplainOutputSchema } from '../../../runtime/explain/explain-schema.js';
import { SKILL_URI } from '../../../runtime/mcp/constants.js';
import { PvfAnnotationExplainOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-explain.js';
import { PvfAnnotationSearchOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-search.js';
import { WorkspaceInfoOutputSchema } from '../../../runtime/mcp/tools/workspace-info.js';
import { buildSnapshot, callError, callOk, ROOT, startServeHttp, SWORD_PATH, tempDir, writeWorkspace, type ServedHttp } from './helpers.js';

const run = promisify(execFile);
const CLI = path.join(ROOT, 'dist/pvfdoc.mjs');
const TOKEN = 's3cret-token';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let snapshots: string;
let workspace: string;
let rulesRevision: string;

beforeAll(async () => {
  // The published entry point is the esbuild bundle; test that file, not the sources.
  tmp = await tempDir('mcp-e2e');
  snapshots = path.join(tmp.dir, 'snapshots');
  rulesRevision = await buildSnapshot(snapshots);
  workspace = path.join(tmp.dir, 'workspace');
  await writeWorkspace(workspace);
  // More annotations than one explain page (limit 100) holds.
  await writeFile(path.join(workspace, 'equipment/many.equ'), Array.from({ length: 150 }, (_, i) => `[rarity]\n\t${i % 5}\n`).join(''));
});

afterAll(async () => {
  // Undefined when beforeAll failed; do not hide its error.
  await (tmp as typeof tmp | undefined)?.cleanup();
});

/** The calls a client makes in the protocol's order, with one failure in between. */
async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools).toHaveLength(6);
  const info = await callOk(client, 'workspace_info', {}, WorkspaceInfoOutputSchema);
  expect(info.out.rulesRevision).toBe(rulesRevision);
  const main = info.out.workspaces.find((w) => w.workspaceId === 'main');
  expect(main?.archiveOpen).toBe(true);
  const search = await callOk(client, 'pvf_annotation_search', { workspaceId: 'main', filePath: SWORD_PATH, section: 'rarity' }, PvfAnnotationSearchOutputSchema);
  expect(search.out.context.pvfVersion).toBe('110US');
  expect((await callError(client, 'pvf_annotation_get', { documentId: 'no-such-document' })).code).toBe('DOCUMENT_NOT_FOUND');
  const explain = await callOk(
    client,
    'pvf_annotation_explain',
    { workspaceId: 'main', expectedRevision: main?.revision ?? -1, filePath: SWORD_PATH, section: 'rarity' },
    PvfAnnotationExplainOutputSchema,
  );
  expect(explain.out.annotations.some((a) => a.valueLabel === '史诗')).toBe(true);
  const skill = await client.readResource({ uri: SKILL_URI });
  expect(skill.contents[0]?.mimeType).toBe('text/markdown');
}

function serveArgs(...extra: string[]): string[] {
  return [CLI, 'serve', '--snapshots', snapshots, '--workspace', `main=${workspace}`, '--pvf-version', '110US', ...extra];
}

describe('pvfdoc serve over stdio', () => {
  it('answers a real client and exits by itself when the client closes stdin', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(), cwd: tmp.dir, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'e2e-stdio', version: '1.0.0' });
    await client.connect(transport);
    await exercise(client);
    await client.close();
    const lines = stderr.trim().split('\n');
    expect(lines.every((l) => l.startsWith('[pvfdoc] ')), stderr).toBe(true);
    expect(stderr).toContain('[pvfdoc] [stdio] serving MCP on stdio');
    // Started with plain node and the SDK's default environment (no NODE_OPTIONS): the helper-pool line
    // appears exactly when this machine has four cores or fewer.
    const advice = helperPoolAdvice({ cores: os.availableParallelism(), execArgv: [], nodeOptions: undefined });
    if (advice === null) expect(stderr).not.toContain('[pvfdoc] [node]');
    else expect(stderr).toContain(`[pvfdoc] [node] ${advice}`);
    expect(stderr).toContain('[pvfdoc] [serve] shutting down');
    // Closing stdin alone ends it: the SDK only signals a server that is still running after 2 s.
    expect(stderr).not.toMatch(/shutting down \(SIG/);
  });
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(url: URL, options: { method: string; path?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: options.method, path: options.path ?? url.pathname, headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function startHttp(...extra: string[]): Promise<ServedHttp> {
  return startServeHttp(serveArgs(...extra), tmp.dir, 20_000);
}

describe('pvfdoc serve over Streamable HTTP', () => {
  let server: Awaited<ReturnType<typeof startHttp>>;
  const auth = { authorization: `Bearer ${TOKEN}` };
  const jsonRpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  beforeAll(async () => {
    server = await startHttp('--http', '127.0.0.1:0', '--token', TOKEN);
  });

  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it('answers a real client sending the bearer token, and keeps serving after errors', async () => {
    const transport = new StreamableHTTPClientTransport(server.url, { requestInit: { headers: auth } });
    const client = new Client({ name: 'e2e-http', version: '1.0.0' });
    await client.connect(transport);
    await exercise(client);
    await exercise(client);
    await client.close();
  });

  it('answers a plain JSON POST with the JSON-RPC result (stateless JSON mode)', async () => {
    const res = await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, ...auth }, body: jsonRpc });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    const body = JSON.parse(res.body) as { result: { tools: unknown[] } };
    expect(body.result.tools).toHaveLength(6);
    const local = await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, ...auth, host: `localhost:${server.url.port}` }, body: jsonRpc });
    expect(local.status).toBe(200);
  });

  it('refuses a Host (or Origin) header that does not name the server with 403', async () => {
    const evilHost = await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, ...auth, host: `evil.example:${server.url.port}` }, body: jsonRpc });
    expect(evilHost.status).toBe(403);
    const otherPort = await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, ...auth, host: '127.0.0.1:1' }, body: jsonRpc });
    expect(otherPort.status).toBe(403);
    const evilOrigin = await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, ...auth, origin: 'http://evil.example' }, body: jsonRpc });
    expect(evilOrigin.status).toBe(403);
  });

  it('refuses a missing or wrong bearer token with 401', async () => {
    const missing = await raw(server.url, { method: 'POST', headers: mcpHeaders, body: jsonRpc });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    const wrong = await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, authorization: 'Bearer s3cret-tokeN' }, body: jsonRpc });
    expect(wrong.status).toBe(401);
    const basic = await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, authorization: `Basic ${TOKEN}` }, body: jsonRpc });
    expect(basic.status).toBe(401);
  });

  it('answers GET and DELETE with 405, other paths with 404 and oversized bodies with 413', async () => {
    const get = await raw(server.url, { method: 'GET', headers: { ...auth, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await raw(server.url, { method: 'DELETE', headers: auth })).status).toBe(405);
    expect((await raw(server.url, { method: 'POST', path: '/other', headers: { ...mcpHeaders, ...auth }, body: jsonRpc })).status).toBe(404);
    const big = await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, ...auth }, body: Buffer.alloc(1024 * 1024 + 1, 0x20) });
    expect(big.status).toBe(413);
    const bad = await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, ...auth }, body: '{not json' });
    expect(bad.status).toBe(400);
    expect((await raw(server.url, { method: 'POST', headers: { ...mcpHeaders, ...auth }, body: jsonRpc })).status).toBe(200);
  });

  it('shuts down cleanly on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('[pvfdoc] [serve] shutting down (SIGTERM)');
  });
});

describe('pvfdoc serve refusals', () => {
  it('refuses a non-loopback bind without --token', async () => {
    const result = await run(process.execPath, [CLI, 'serve', '--snapshots', snapshots, '--http', '0.0.0.0:0'], { cwd: tmp.dir }).catch((e: unknown) => e as { code: number; stderr: string });
    expect(result).toMatchObject({ code: 2 });
    expect((result as { stderr: string }).stderr).toMatch(/--token/);
  });

  it('fails with one line and exit 1 when there is no snapshot', async () => {
    const result = await run(process.execPath, [CLI, 'serve', '--snapshots', path.join(tmp.dir, 'empty')], { cwd: tmp.dir }).catch((e: unknown) => e as { code: number; stderr: string });
    expect(result).toMatchObject({ code: 1 });
    expect((result as { stderr: string }).stderr).toMatch(/INVALID_BUNDLE.*pvfdoc build/);
  });
});

describe('pvfdoc explain', () => {
  const args = () => [CLI, 'explain', '--workspace', workspace, '--file', SWORD_PATH.toLowerCase(), '--snapshots', snapshots, '--pvf-version', '110US'];

  it('prints the merged structuredContent of every page with --json', async () => {
    const { stdout } = await run(process.execPath, [...args(), '--json'], { cwd: tmp.dir });
    const out = ExplainOutputSchema.parse(JSON.parse(stdout));
    expect(out).toMatchObject({ filePath: SWORD_PATH, rulesRevision, pvfVersion: '110US', nextCursor: null, truncated: false });
    expect(out.annotations.find((a) => a.section === 'rarity')?.valueLabel).toBe('史诗');
  });

  it('follows every page', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'explain', '--workspace', workspace, '--file', 'equipment/many.equ', '--snapshots', snapshots, '--json'], {
      cwd: tmp.dir,
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = ExplainOutputSchema.parse(JSON.parse(stdout));
    const rarity = out.annotations.filter((a) => a.section === 'rarity' && a.tokenIndex === 0);
    expect(rarity.map((a) => a.occurrence)).toEqual(Array.from({ length: 150 }, (_, i) => i));
  });

  it('prints a readable listing with line:col, section, title, value and label', async () => {
    const { stdout } = await run(process.execPath, [...args(), '--section', 'rarity'], { cwd: tmp.dir });
    expect(stdout).toMatch(/line:col\s+section\s+where\s+title\s+value\s+label \/ reference/);
    expect(stdout).toMatch(/\n7:2\s+\[rarity\]\s+tok0\s+\S+\s+4\s+史诗/);
  });

  it('fails with the error code for a file that is not there', async () => {
    const result = await run(process.execPath, [CLI, 'explain', '--workspace', workspace, '--file', 'nope.equ', '--snapshots', snapshots], { cwd: tmp.dir }).catch(
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(result).toMatchObject({ code: 1 });
    expect((result as { stderr: string }).stderr).toMatch(/^pvfdoc: \[FILE_NOT_FOUND\]/);
  });
});
