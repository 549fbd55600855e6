/**
 * Issue 15: a bounded soak and fault run over loopback HTTP (fixed counts, no time limits asserted).
 * Real SDK clients send a fixed mix of every tool — a large explain among them — while raw requests
 * bring the faults of the issue (malformed JSON, oversized bodies, a foreign Host, bodies that never
 * finish). Every answer must be the one expected; afterwards the server still answers. The figures
 * (requests, faults, largest response, slowest call, peak RSS) are printed for docs/benchmarks.md.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { createExplainCache } from '../../../runtime/explain/explain-file.js';
import { createServer } from '../../../runtime/mcp/create-server.js';
import { serveHttp } from '../../../runtime/mcp/serve-http.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { BUILTIN_LAYER, ROOT } from './helpers.js';

const CLIENTS = 4;
const ROUNDS = 6;
const FAULTS = { malformed: 20, oversized: 6, foreignHost: 10, unfinishedBody: 4 };
const LIMITS = { maxConnections: 64, headersTimeoutMs: 1_000, requestTimeoutMs: 1_500, keepAliveTimeoutMs: 500 };
const EQU = 'equipment/character/fighter/weapon/102010612.equ';
const BLOCK = '[name]\n`苍穹幕落臂铠`\n[rarity]\n\t4\n[grade]\n\t75\n[price]\n\t5000\n';

let dir: string;
let example: Workspace;
let big: Workspace;
let serving: Awaited<ReturnType<typeof serveHttp>>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pvfdoc-soak-'));
  await writeFile(path.join(dir, 'big.equ'), BLOCK.repeat(20_000));
  example = await openDirectoryWorkspace({ workspaceId: 'example', name: 'example', root: path.join(ROOT, 'examples/workspace'), pvfVersion: '90US' });
  big = await openDirectoryWorkspace({ workspaceId: 'big', name: 'big', root: dir, pvfVersion: '90US' });
  const rules = createRulesHolder(await compiledBundle([BUILTIN_LAYER]));
  const workspaces = new Map([
    ['example', example],
    ['big', big],
  ]);
  const explainCache = createExplainCache();
  serving = await serveHttp({ host: '127.0.0.1', port: 0, limits: LIMITS, log: () => undefined, createServer: () => createServer({ rules, workspaces, log: () => undefined, explainCache }) });
});

afterAll(async () => {
  await serving?.close();
  await example?.close();
  await big?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Raw {
  status: number | null;
  error: string | null;
}

function raw(options: { body?: string; host?: string; declaredLength?: number; stopAfter?: number }): Promise<Raw> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: options.host ?? `127.0.0.1:${serving.port}` };
    if (options.declaredLength !== undefined) headers['content-length'] = options.declaredLength;
    const req = request({ host: '127.0.0.1', port: serving.port, method: 'POST', path: '/mcp', headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? null, error: null }));
    });
    req.on('error', (error) => resolve({ status: null, error: (error as NodeJS.ErrnoException).code ?? error.message }));
    if (options.stopAfter !== undefined) req.write((options.body ?? '').slice(0, options.stopAfter));
    else req.end(options.body ?? '');
  });
}

describe('soak and faults over loopback HTTP (issue 15)', () => {
  it('answers a fixed mix of every tool and every fault as it should, and keeps serving', async () => {
    let requests = 0;
    let largest = 0;
    let slowest = 0;
    const unexpected: string[] = [];
    const call = async (client: Client, name: string, args: Record<string, unknown>, expectError = false): Promise<CallToolResult> => {
      const started = performance.now();
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      slowest = Math.max(slowest, performance.now() - started);
      largest = Math.max(largest, JSON.stringify(result).length);
      requests++;
      if (Boolean(result.isError) !== expectError) unexpected.push(`${name} ${JSON.stringify(args).slice(0, 80)}: ${JSON.stringify(result.content).slice(0, 160)}`);
      return result;
    };

    const session = async (index: number): Promise<void> => {
      const client = new Client({ name: `soak-${index}`, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const info = await call(client, 'workspace_info', {});
          const revisions = new Map((info.structuredContent as { workspaces: { workspaceId: string; revision: number }[] }).workspaces.map((w) => [w.workspaceId, w.revision]));
          await call(client, 'list_files', { workspaceId: 'example', path: 'equipment' });
          await call(client, 'read_file', { workspaceId: 'example', filePath: EQU });
          const found = await call(client, 'pvf_annotation_search', { query: '稀有度', pvfVersion: 'all', limit: 5 });
          const documentId = (found.structuredContent as { items: { documentId: string }[] }).items[0]?.documentId ?? 'none';
          await call(client, 'pvf_annotation_get', { documentId });
          let cursor: string | undefined;
          for (let page = 0; page < 3; page++) {
            const explained = await call(client, 'pvf_annotation_explain', { workspaceId: 'example', expectedRevision: revisions.get('example'), filePath: EQU, ...(cursor ? { cursor } : {}) });
            cursor = (explained.structuredContent as { nextCursor: string | null }).nextCursor ?? undefined;
            if (!cursor) break;
          }
          if (round % 3 === index % 3) await call(client, 'pvf_annotation_explain', { workspaceId: 'big', expectedRevision: revisions.get('big'), filePath: 'big.equ' });
          // Expected failures: they come back as errors and change nothing.
          await call(client, 'read_file', { workspaceId: 'example', filePath: '../outside.equ' }, true);
          await call(client, 'pvf_annotation_explain', { workspaceId: 'example', expectedRevision: 999, filePath: EQU }, true);
          await call(client, 'pvf_annotation_get', { documentId: 'forged' }, true);
        }
      } finally {
        await client.close();
      }
    };

    const faults: Promise<[string, Raw]>[] = [];
    for (let i = 0; i < FAULTS.malformed; i++) faults.push(raw({ body: `{"jsonrpc":"2.0","id":${i},"method":` }).then((r) => ['malformed', r]));
    for (let i = 0; i < FAULTS.oversized; i++) faults.push(raw({ body: 'x'.repeat(5 * 1024 * 1024) }).then((r) => ['oversized', r]));
    for (let i = 0; i < FAULTS.foreignHost; i++) faults.push(raw({ body: '{}', host: 'evil.example' }).then((r) => ['foreignHost', r]));
    for (let i = 0; i < FAULTS.unfinishedBody; i++) faults.push(raw({ body: '{"jsonrpc":"2.0"}', declaredLength: 1000, stopAfter: 5 }).then((r) => ['unfinishedBody', r]));

    const [faultResults] = await Promise.all([Promise.all(faults), Promise.all(Array.from({ length: CLIENTS }, (_, i) => session(i)))]);

    const statuses = (kind: string) => faultResults.filter(([k]) => k === kind).map(([, r]) => r.status ?? r.error);
    expect(statuses('malformed').every((s) => s === 400)).toBe(true);
    expect(statuses('oversized').every((s) => s === 413 || s === 'ECONNRESET' || s === 'EPIPE')).toBe(true);
    expect(statuses('foreignHost').every((s) => s === 403)).toBe(true);
    // A body that never finishes is ended by the server (408 or a closed connection), never held.
    expect(statuses('unfinishedBody').every((s) => s === 408 || s === 'ECONNRESET' || s === 'socket hang up')).toBe(true);
    expect(unexpected).toEqual([]);
    // Every round of every client ran: at least nine calls each (more when explain had later pages).
    expect(requests).toBeGreaterThanOrEqual(CLIENTS * ROUNDS * 9);

    // Still serving afterwards.
    const after = new Client({ name: 'soak-after', version: '1.0.0' });
    await after.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    expect(((await after.callTool({ name: 'workspace_info', arguments: {} })) as CallToolResult).isError).toBeFalsy();
    await after.close();

    const faultCount = Object.values(FAULTS).reduce((a, b) => a + b, 0);
    console.info(
      `soak: ${requests} tool calls by ${CLIENTS} clients, ${faultCount} faults; largest response ${largest} characters; slowest call ${slowest.toFixed(0)} ms; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
    );
  });
});
