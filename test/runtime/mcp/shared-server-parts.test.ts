/**
 * Servers of one context share what holds no request state (server-context.ts, SharedServerParts),
 * and stay isolated: concurrent stateless HTTP requests with different arguments each get their own
 * answer, and a swapped bundle is seen by the next request.
 */
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledBundle } from '../../support/compiled-bundle.js';
import type { Bundle } from '../../../runtime/bundle/load-bundle.js';
import { createRulesHolder, type RulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { createServer, type ServerContext } from '../../../runtime/mcp/create-server.js';
import { serveHttp, type HttpServing } from '../../../runtime/mcp/serve-http.js';
import { sharedServerParts } from '../../../runtime/mcp/server-context.js';
import { ROOT, writeExtraLayer, tempDir } from './helpers.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let serving: HttpServing;
let ctx: ServerContext;
let rules: RulesHolder;
let base: Bundle;
let extended: Bundle;

beforeAll(async () => {
  tmp = await tempDir('shared-parts');
  const layer = path.join(ROOT, 'test/fixtures/layers/basic/builtin');
  base = await compiledBundle([layer]);
  extended = await compiledBundle([layer, await writeExtraLayer(path.join(tmp.dir, 'extra'))]);
  rules = createRulesHolder(base);
  ctx = { rules, workspaces: new Map(), log: () => undefined };
  serving = await serveHttp({ host: '127.0.0.1', port: 0, log: () => undefined, createServer: () => createServer(ctx) });
});

afterAll(async () => {
  await serving?.close();
  await tmp?.cleanup();
});

function call(id: number, name: string, args: Record<string, unknown>): Promise<{ id: unknown; result: { structuredContent?: Record<string, unknown>; isError?: boolean } }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  return new Promise((resolve, reject) => {
    const req = request(
      serving.url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text) as { id: unknown; result: { structuredContent?: Record<string, unknown> } });
          } catch (error) {
            reject(new Error(`${res.statusCode}: ${text}`, { cause: error }));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('servers of one context', () => {
  it('share one set of parts, kept on the context', () => {
    const local: ServerContext = { rules, workspaces: new Map(), log: () => undefined };
    expect(local.shared).toBeUndefined();
    const first = createServer(local);
    const parts = local.shared;
    expect(parts).toBeDefined();
    createServer(local);
    expect(local.shared).toBe(parts);
    expect(sharedServerParts(local)).toBe(parts);
    // Another context gets its own.
    expect(sharedServerParts({ rules, workspaces: new Map(), log: () => undefined })).not.toBe(parts);
    void first.close();
  });

  it('the shared validator checks JSON Schema like the SDK default', () => {
    const validate = sharedServerParts(ctx).jsonSchemaValidator.getValidator<{ n: number }>({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    expect(validate({ n: 1 }).valid).toBe(true);
    const bad = validate({ n: 'one' });
    expect(bad.valid).toBe(false);
    expect(bad.errorMessage).toMatch(/integer/);
  });

  it('concurrent HTTP requests with different arguments each get their own answer', async () => {
    const ids = base.documents.slice(0, 6).map((d) => d.documentId);
    expect(ids.length).toBeGreaterThan(2);
    const calls = Array.from({ length: 24 }, (_, i) => ({ id: i + 1, documentId: ids[i % ids.length] ?? '' }));
    const answers = await Promise.all(calls.map((c) => call(c.id, 'pvf_annotation_get', { documentId: c.documentId })));
    for (const [i, answer] of answers.entries()) {
      const expected = calls[i];
      expect(answer.id).toBe(expected?.id);
      expect(answer.result.isError).toBeFalsy();
      expect((answer.result.structuredContent?.document as { documentId?: string } | undefined)?.documentId).toBe(expected?.documentId);
    }
    expect(ctx.shared).toBeDefined();
  });

  it('a bundle swapped between requests is what the next request sees', async () => {
    const before = await call(1, 'workspace_info', {});
    expect(before.result.structuredContent?.rulesRevision).toBe(base.rulesRevision);
    rules.activate(extended);
    try {
      const after = await call(2, 'workspace_info', {});
      expect(after.result.structuredContent?.rulesRevision).toBe(extended.rulesRevision);
      expect(extended.rulesRevision).not.toBe(base.rulesRevision);
    } finally {
      rules.activate(base);
    }
  });
});
