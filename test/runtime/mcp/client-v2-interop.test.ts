/**
 * Interop with the SDK's v2 line: a `@modelcontextprotocol/client` 2.x Client (a devDependency, pinned
 * by package-lock.json) talks to the built single-file server (dist/pvfdoc.mjs, built by
 * test/global-setup.ts) over stdio and over Streamable HTTP, serving the builtin rules (no snapshots
 * folder) and examples/workspace. Each run makes the calls an agent makes: initialize, tools/list, a
 * workspace_info call, an explain call whose structured content the v2 client checks against the
 * published output schema, a tool error, prompts/list, prompts/get (and a prompt error), completion,
 * and the skill resource; with the default ("legacy") connect and with `versionNegotiation: 'auto'`,
 * which first probes with `server/discover` and must fall back to `initialize` against this server.
 */
import path from 'node:path';
import { Client, ProtocolError, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_VERSION } from '../../../runtime/bundle/constants.js';
import { ERROR_META_KEY, SERVER_NAME, SKILL_URI } from '../../../runtime/mcp/constants.js';
import { EXPLAIN_FILE_PROMPT, TAG_MEANING_PROMPT } from '../../../runtime/mcp/prompts/register-prompts.js';
import { PvfAnnotationExplainOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-explain.js';
import { WorkspaceInfoOutputSchema } from '../../../runtime/mcp/tools/workspace-info.js';
import { ROOT, startServeHttp, tempDir, type ServedHttp } from './helpers.js';

const CLI = path.join(ROOT, 'dist/pvfdoc.mjs');
const EXAMPLE = path.join(ROOT, 'examples/workspace');
const EQU = 'equipment/character/fighter/weapon/102010612.equ';
const TOOLS = ['workspace_info', 'list_files', 'read_file', 'pvf_annotation_search', 'pvf_annotation_get', 'pvf_annotation_explain'];

let tmp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  // An empty working folder: no ./snapshots, so serve uses the builtin rules shipped with pvfdoc.
  tmp = await tempDir('mcp-client-v2');
});

afterAll(async () => {
  await (tmp as typeof tmp | undefined)?.cleanup();
});

function serveArgs(...extra: string[]): string[] {
  return [CLI, 'serve', '--workspace', `main=${EXAMPLE}`, ...extra];
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The calls of one agent session, in the protocol's order, through the v2 client. */
async function exercise(client: Client): Promise<void> {
  expect(client.getServerVersion()).toMatchObject({ name: SERVER_NAME, version: ENGINE_VERSION });
  expect(client.getProtocolEra()).toBe('legacy');
  expect(client.getNegotiatedProtocolVersion()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {} });
  expect(client.getInstructions()).toContain('workspace_info');

  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
  expect(tools.every((t) => t.annotations?.readOnlyHint === true && t.outputSchema?.type === 'object')).toBe(true);

  const info = await client.callTool({ name: 'workspace_info', arguments: {} });
  expect(info.isError).toBeFalsy();
  const workspaces = WorkspaceInfoOutputSchema.parse(info.structuredContent);
  const main = workspaces.workspaces.find((w) => w.workspaceId === 'main');
  expect(main).toMatchObject({ kind: 'directory', archiveOpen: true });

  // The v2 client checks structuredContent against the published outputSchema before returning it.
  const explain = await client.callTool({ name: 'pvf_annotation_explain', arguments: { workspaceId: 'main', expectedRevision: main?.revision, filePath: EQU, section: 'rarity' } });
  expect(explain.isError).toBeFalsy();
  const page = PvfAnnotationExplainOutputSchema.parse(explain.structuredContent);
  expect(page).toMatchObject({ schemaVersion: 3, filePath: EQU, rulesRevision: workspaces.rulesRevision });
  expect(page.annotations.find((a) => a.tokenIndex === 0)).toMatchObject({ title: '稀有度', value: '4', valueLabel: '史诗' });
  expect(textOf(explain)).toContain('[rarity]#0.0 稀有度 4 = 史诗');

  // A tool error is a result, not a thrown error, and carries no structuredContent.
  const failed = await client.callTool({ name: 'pvf_annotation_get', arguments: { documentId: 'no-such-document' } });
  expect(failed.isError).toBe(true);
  expect(failed.structuredContent).toBeUndefined();
  expect(textOf(failed)).toMatch(/^DOCUMENT_NOT_FOUND: /);
  expect(failed._meta?.[ERROR_META_KEY]).toMatchObject({ code: 'DOCUMENT_NOT_FOUND' });

  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toEqual([EXPLAIN_FILE_PROMPT, TAG_MEANING_PROMPT]);
  const filled = await client.getPrompt({ name: EXPLAIN_FILE_PROMPT, arguments: { workspaceId: 'main', filePath: EQU } });
  const filledText = filled.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
  expect(filledText).toContain('[rarity]#0.0 稀有度 "4" = 史诗');
  expect(filledText).toContain('pvf_annotation_explain {"workspaceId":"main"');
  const tag = await client.getPrompt({ name: TAG_MEANING_PROMPT, arguments: { ext: 'equ', section: 'rarity' } });
  expect(tag.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n')).toContain('4=史诗');
  const refused: unknown = await client.getPrompt({ name: EXPLAIN_FILE_PROMPT, arguments: { workspaceId: 'nope', filePath: EQU } }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(refused).toBeInstanceOf(ProtocolError);
  expect((refused as ProtocolError).code).toBe(-32602);
  expect((refused as ProtocolError).message).toContain('WORKSPACE_NOT_FOUND: no workspace "nope" Use one of "main"');
  expect((refused as ProtocolError).data).toMatchObject({ code: 'WORKSPACE_NOT_FOUND', data: { workspaceIds: ['main'] } });

  const completed = await client.complete({ ref: { type: 'ref/prompt', name: TAG_MEANING_PROMPT }, argument: { name: 'ext', value: 'eq' } });
  expect(completed.completion.values).toEqual(['.equ']);

  const skill = await client.readResource({ uri: SKILL_URI });
  expect(skill.contents[0]).toMatchObject({ uri: SKILL_URI, mimeType: 'text/markdown' });
}

describe('a @modelcontextprotocol/client 2.x Client over stdio', () => {
  for (const mode of ['legacy', 'auto'] as const) {
    it(`works with pvfdoc serve (versionNegotiation ${mode})`, async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(), cwd: tmp.dir, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      const client = new Client({ name: 'pvfdoc-v2-stdio', version: '1.0.0' }, { versionNegotiation: { mode } });
      try {
        await client.connect(transport);
        await exercise(client);
      } finally {
        await client.close();
      }
      expect(stderr).toContain('[pvfdoc] [stdio] serving MCP on stdio');
      expect(stderr).not.toMatch(/error:/);
    });
  }
});

function startHttp(): Promise<ServedHttp> {
  return startServeHttp(serveArgs('--http', '127.0.0.1:0'), tmp.dir);
}

describe('a @modelcontextprotocol/client 2.x Client over Streamable HTTP', () => {
  let server: Awaited<ReturnType<typeof startHttp>>;

  beforeAll(async () => {
    server = await startHttp();
  });

  afterAll(async () => {
    if (server.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
  });

  for (const mode of ['legacy', 'auto'] as const) {
    it(`works with pvfdoc serve --http (versionNegotiation ${mode})`, async () => {
      // The methods the client sends, in order: shows whether it probed before initialize.
      const methods: string[] = [];
      const recording = (url: string | URL, init?: RequestInit): Promise<Response> => {
        if (typeof init?.body === 'string') methods.push((JSON.parse(init.body) as { method?: string }).method ?? '(response)');
        return fetch(url, init);
      };
      const client = new Client({ name: 'pvfdoc-v2-http', version: '1.0.0' }, { versionNegotiation: { mode } });
      try {
        await client.connect(new StreamableHTTPClientTransport(server.url, { fetch: recording }));
        await exercise(client);
      } finally {
        await client.close();
      }
      expect(methods.slice(0, mode === 'auto' ? 2 : 1)).toEqual(mode === 'auto' ? ['server/discover', 'initialize'] : ['initialize']);
      expect(methods).toEqual(expect.arrayContaining(['tools/list', 'tools/call', 'prompts/list', 'prompts/get', 'completion/complete', 'resources/read']));
      expect(server.stderr()).not.toMatch(/error:/);
    });
  }
});
