/**
 * The HTTP server's edges (loopback only, bounded counts and times): hardening headers on the site and
 * on /mcp, no off-site redirect from the static server, a cap on open connections, and timeouts that
 * close connections which never send their headers or body.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect as connectSocket, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { createServer } from '../../../runtime/mcp/create-server.js';
import { serveHttp, type HttpServing } from '../../../runtime/mcp/serve-http.js';
import { ROOT, tempDir } from './helpers.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let serving: HttpServing;
const LIMITS = { maxConnections: 6, headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 200 };

beforeAll(async () => {
  tmp = await tempDir('http-limits');
  const site = path.join(tmp.dir, 'site');
  await mkdir(path.join(site, 'doc'), { recursive: true });
  await writeFile(path.join(site, 'index.html'), '<!doctype html><title>site</title>');
  await writeFile(path.join(site, 'doc', 'index.html'), '<!doctype html><title>doc</title>');
  const fixture = await compiledBundle([path.join(ROOT, 'test/fixtures/layers/basic/builtin')]);
  const rules = createRulesHolder(fixture);
  serving = await serveHttp({
    host: '127.0.0.1',
    port: 0,
    siteDir: site,
    limits: LIMITS,
    log: () => undefined,
    createServer: () => createServer({ rules, workspaces: new Map(), log: () => undefined }),
  });
});

afterAll(async () => {
  await serving?.close();
  await tmp?.cleanup();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(method: string, pathname: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: serving.port, method, path: pathname, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw connection that sends `initial` and then nothing; resolves with how it ended. */
function idleSocket(initial = ''): { socket: Socket; ended: Promise<'closed'> } {
  const socket = connectSocket(serving.port, '127.0.0.1');
  socket.on('error', () => undefined);
  // Flowing, so that the end of what the server sends (and then close) is seen.
  socket.resume();
  if (initial) socket.write(initial);
  return { socket, ended: new Promise((resolve) => socket.once('close', () => resolve('closed'))) };
}

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('HTTP hardening', () => {
  it('sends CSP, nosniff and no-framing headers on the site, on 404s and on /mcp', async () => {
    const page = await send('GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    const missing = await send('GET', '/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
    const mcp = await send('POST', '/mcp', TOOLS_LIST);
    expect(mcp.status).toBe(200);
    expect(mcp.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(mcp.headers['x-frame-options']).toBe('DENY');
  });

  it('never redirects off-site: a folder reached through "//host" gets a same-site location', async () => {
    const answer = await send('GET', '/.//evil.com/..%2Fdoc');
    if (answer.status === 301) {
      const location = String(answer.headers.location);
      expect(location.startsWith('/')).toBe(true);
      expect(location.startsWith('//')).toBe(false);
      expect(location.startsWith('/\\')).toBe(false);
    } else {
      expect(answer.status).toBe(404);
    }
    const plain = await send('GET', '/doc');
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe('/doc/');
  });

  it('closes a connection that sends no headers, and one whose body never comes', async () => {
    const silent = idleSocket();
    const slowBody = idleSocket(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${serving.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
    // Bounded: the server's own timeouts end both well before the test's.
    const within = (ended: Promise<'closed'>) => Promise.race([ended, new Promise((r) => setTimeout(() => r('still open'), 10_000))]);
    await expect(within(silent.ended)).resolves.toBe('closed');
    await expect(within(slowBody.ended)).resolves.toBe('closed');
  });

  it(`keeps at most ${LIMITS.maxConnections} connections open and serves again once they go`, async () => {
    const held = Array.from({ length: LIMITS.maxConnections }, () => idleSocket());
    await new Promise((r) => setTimeout(r, 100));
    const extra = idleSocket();
    await expect(Promise.race([extra.ended, new Promise((r) => setTimeout(() => r('still open'), 5_000))])).resolves.toBe('closed');
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map((h) => h.ended));
    const answer = await send('POST', '/mcp', TOOLS_LIST);
    expect(answer.status).toBe(200);
  });
});
