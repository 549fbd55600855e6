/**
 * Shared helpers of the MCP tests: snapshots built from real layers on disk, a folder workspace with a
 * few script files, and a real SDK Client connected in memory to createServer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { z } from 'zod';
import { compileLayers } from '../../../build/compile-layers.js';
import { writeBundle } from '../../../build/write-bundle.js';
import type { RulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { createServer } from '../../../runtime/mcp/create-server.js';
import type { Logger } from '../../../runtime/mcp/log.js';
import { toolErrorOf } from '../../../runtime/mcp/tool-error.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const BUILTIN_LAYER = path.join(ROOT, 'rules/builtin');

export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `pvfdoc-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Compiles layers and writes the snapshot into `snapshotsDir`, pointing current at it; returns the revision. */
export async function buildSnapshot(snapshotsDir: string, layers: string[] = [BUILTIN_LAYER]): Promise<string> {
  const result = await compileLayers(layers);
  if (!result.ok) throw new Error(`layers do not compile:\n${JSON.stringify(result.problems, null, 2)}`);
  await writeBundle(snapshotsDir, result.bundle, { setCurrent: true });
  return result.bundle.rulesRevision;
}

/** A small user layer (one extra rule), so builtin + it has another rulesRevision. */
export async function writeExtraLayer(dir: string, note = 'extra'): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name: 'extra', kind: 'user', description: 'test layer' }));
  await writeFile(
    path.join(dir, 'annotations.json'),
    JSON.stringify({
      version: 1,
      rules: [
        {
          id: 'extra.note',
          match: { extensions: ['.equ'] },
          target: { kind: 'section', section: 'extra note' },
          annotation: { title: `测试说明 ${note}`, type: 'text', content: 'test rule' },
        },
      ],
    }),
  );
  return dir;
}

export const SWORD_PATH = 'equipment/character/Sword.equ';

export const SWORD_TEXT = [
  '#PVF_File',
  '',
  '[name]',
  '\t`测试之剑`',
  '',
  '[rarity]',
  '\t4',
  '',
  '[usable job]',
  '\t`[fighter]`',
  '[/usable job]',
  '',
  '[price]',
  '\t1000',
  '',
].join('\r\n');

/** A folder workspace: one equipment file, a string table (not a script) and a file with one huge line. */
export async function writeWorkspace(root: string): Promise<void> {
  await mkdir(path.join(root, 'equipment/character'), { recursive: true });
  await writeFile(path.join(root, SWORD_PATH), SWORD_TEXT);
  await writeFile(path.join(root, 'equipment/equipment.str'), 'name>测试\n');
  await mkdir(path.join(root, 'etc'), { recursive: true });
  await writeFile(path.join(root, 'etc/huge.txt'), `short line\n${'x'.repeat(300 * 1024)}\nlast\n`);
}

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

/** A real Client over InMemoryTransport, with tools/list done (so it validates structured output). */
export async function connect(ctx: { rules: RulesHolder; workspaces: ReadonlyMap<string, Workspace>; log?: Logger; snapshotsDir?: string; siteUrl?: string }): Promise<Connected> {
  const snapshots = ctx.snapshotsDir !== undefined ? { snapshotsDir: ctx.snapshotsDir } : {};
  const site = ctx.siteUrl !== undefined ? { siteUrl: ctx.siteUrl } : {};
  const created = createServer({ rules: ctx.rules, workspaces: ctx.workspaces, log: ctx.log ?? (() => undefined), ...snapshots, ...site });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'pvfdoc-test', version: '1.0.0' });
  await created.server.connect(serverSide);
  await client.connect(clientSide);
  await client.listTools();
  return {
    client,
    async close() {
      await client.close();
      await created.close();
    },
  };
}

/** Calls a tool, expects success, and checks structuredContent against the tool's exported schema. */
export async function callOk<S extends z.ZodType>(client: Client, name: string, args: Record<string, unknown>, schema: S): Promise<{ out: z.output<S>; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name} failed: ${textOf(result)}`).toBeFalsy();
  const parsed = schema.safeParse(result.structuredContent);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
  return { out: parsed.data as z.output<S>, text: textOf(result) };
}

/** Calls a tool, expects a pvfdoc tool error, and returns its code (and the whole result). */
export async function callError(client: Client, name: string, args: Record<string, unknown>): Promise<{ code: string | null; text: string; result: CallToolResult }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name} unexpectedly succeeded`).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const meta = toolErrorOf(result);
  const text = textOf(result);
  if (meta) expect(text.startsWith(`${meta.code}: `)).toBe(true);
  return { code: meta?.code ?? null, text, result };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ServedHttp {
  child: ChildProcess;
  url: URL;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Spawns `node <args>` (a `pvfdoc serve --http …` command line) in `cwd` and waits for its "listening on" line. */
export async function startServeHttp(args: string[], cwd: string, timeoutMs = 30_000): Promise<ServedHttp> {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const found = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(new URL(found));
      }
    });
    child.once('exit', () => reject(new Error(`server exited:\n${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exited };
}

/** A client of a server whose only workspace is brokenWorkspace(), and the lines the server logged. */
export async function connectBroken(rules: RulesHolder): Promise<{ conn: Connected; captured: string[] }> {
  const captured: string[] = [];
  const conn = await connect({ rules, workspaces: new Map([['broken', brokenWorkspace()]]), log: (level, scope, message) => void captured.push(`${level} [${scope}] ${message}`) });
  return { conn, captured };
}

/** A workspace whose every view fails with an unexpected TypeError (a bug, as the server sees it). */
function brokenWorkspace(): Workspace {
  return {
    workspaceId: 'broken',
    info: () => ({ workspaceId: 'broken', name: 'broken', kind: 'directory', pvfVersion: '', revision: 1, fileCount: 0, encoding: 'utf-8', archiveOpen: true, error: null }),
    view: () => Promise.reject(new TypeError('boom in view')),
    close: () => Promise.resolve(),
  };
}

