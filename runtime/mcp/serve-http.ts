/**
 * Streamable HTTP in stateless JSON mode (mcp-conventions: Logging and transports): one server and
 * transport per POST /mcp, no sessions, no SSE. The Host header is checked against the bound address
 * (DNS rebinding), and a non-loopback bind needs a bearer token on every request.
 *
 * With a site folder (`siteDir`, or the PVFDOC_SITE_DIR environment variable that `npm start` sets),
 * GET and HEAD of any other path serve the static reference site built by `pvfdoc site`, so people and
 * agents use one port: the site under /, the MCP endpoint at /mcp.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { PvfdocError } from '../errors.js';
import { HTTP_LIMITS, MAX_HTTP_BODY_BYTES, MCP_SECURITY_HEADERS, SITE_SECURITY_HEADERS, type HttpLimits } from './constants.js';
import type { CreatedServer } from './create-server.js';
import type { Logger } from './log.js';

const MCP_PATH = '/mcp';

interface ServeHttpOptions {
  host: string;
  /** 0 picks a free port; the actual one is in the result. */
  port: number;
  /** Required when `host` is not a loopback address. */
  token?: string | undefined;
  /** Makes the server of one request; `siteUrl` is where this server serves the reference site, if it does. */
  createServer: (served: { siteUrl: string | null }) => CreatedServer;
  log: Logger;
  /** A static site to serve under / (GET, HEAD); default: the PVFDOC_SITE_DIR environment variable, else none. */
  siteDir?: string | undefined;
  /** Connection and timeout limits; default HTTP_LIMITS. */
  limits?: Partial<HttpLimits> | undefined;
}

export interface HttpServing {
  /** The endpoint, e.g. http://127.0.0.1:8765/mcp */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** `host:port`, `[v6]:port`. */
export function parseHostPort(spec: string): { host: string; port: number } {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(spec) ?? /^([^:[\]]+):(\d+)$/.exec(spec);
  const port = Number(match?.[2]);
  if (!match?.[1] || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new PvfdocError('INVALID_ARGUMENT', `"${spec}" is not host:port`, { hint: 'Give e.g. 127.0.0.1:8765 (or [::1]:8765).' });
  }
  return { host: match[1], port };
}

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

export async function serveHttp(options: ServeHttpOptions): Promise<HttpServing> {
  const { host, log } = options;
  const loopback = isLoopbackHost(host);
  if (!loopback && !options.token) {
    throw new PvfdocError('INVALID_ARGUMENT', `binding ${host} exposes the server beyond this machine, which needs a bearer token`, {
      hint: 'Add --token <secret> (clients then send Authorization: Bearer <secret>), or bind 127.0.0.1.',
    });
  }
  const tokenDigest = options.token ? sha256(options.token) : null;
  const siteDirOption = options.siteDir ?? process.env.PVFDOC_SITE_DIR;
  const siteDir = siteDirOption ? path.resolve(siteDirOption) : null;
  let allowedHosts = new Set<string>();
  let siteUrl: string | null = null;

  const limits: HttpLimits = { ...HTTP_LIMITS, ...options.limits };
  const http = createHttpServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // How often Node looks for connections past those timeouts (its default, 30 s, would let them linger).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        log('error', 'http', `request failed (a bug):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (!res.headersSent) reply(res, 500, 'internal server error');
        else res.end();
      });
    },
  );
  http.maxConnections = limits.maxConnections;
  // Node's headersTimeout starts with the first byte; a connection that never sends one would be
  // held forever. Until its first request arrives, a connection lives at most headersTimeoutMs.
  http.on('connection', (socket) => socket.setTimeout(limits.headersTimeoutMs, () => socket.destroy()));
  http.on('request', (req: IncomingMessage) => req.socket.setTimeout(0));
  let refusedConnections = 0;
  http.on('drop', () => {
    // Logged once per burst, not per connection: a flood must not flood the log too.
    if (refusedConnections++ % 100 === 0) log('warn', 'http', `over ${limits.maxConnections} open connections: new ones are closed (${refusedConnections} so far)`);
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const onMcp = pathname === MCP_PATH;
    for (const [name, value] of Object.entries(onMcp || siteDir === null ? MCP_SECURITY_HEADERS : SITE_SECURITY_HEADERS)) res.setHeader(name, value);
    if (!hostAllowed(req.headers.host, allowedHosts) || !originAllowed(req.headers.origin, allowedHosts)) {
      reply(res, 403, 'forbidden: the Host (or Origin) header does not name this server');
      return;
    }
    if (tokenDigest && !bearerMatches(req.headers.authorization, tokenDigest)) {
      reply(res, 401, 'unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer' });
      return;
    }
    if (!onMcp) {
      if (siteDir !== null && (req.method === 'GET' || req.method === 'HEAD')) {
        await serveSiteFile(siteDir, pathname, req, res);
        return;
      }
      reply(res, 404, `not found: the MCP endpoint is POST ${MCP_PATH}`);
      return;
    }
    if (req.method !== 'POST') {
      // Stateless JSON mode: no SSE stream to GET and no session to DELETE.
      reply(res, 405, 'method not allowed: this stateless server answers POST only', { allow: 'POST' });
      return;
    }
    const body = await readBody(req, MAX_HTTP_BODY_BYTES, limits.requestTimeoutMs);
    if (body === 'timeout') {
      // The rest of the body may never come: the connection is closed once the answer is out.
      res.once('finish', () => req.socket.destroy());
      reply(res, 408, `request body not received within ${limits.requestTimeoutMs} ms`, { connection: 'close' });
      return;
    }
    if (body === null) {
      reply(res, 413, `request body over ${MAX_HTTP_BODY_BYTES} bytes`, { connection: 'close' });
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      reply(res, 400, 'parse error: the body is not JSON', {}, -32700);
      return;
    }
    const created = options.createServer({ siteUrl });
    // No sessionIdGenerator (the SDK's `sessionIdGenerator: undefined`): stateless, no session header.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void created.close();
    });
    await created.server.connect(transport);
    await transport.handleRequest(req, res, message);
  };

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  allowedHosts = hostsFor(host, port);
  siteUrl = siteDir === null ? null : `http://${formatHost(host)}:${port}/`;
  const url = `http://${formatHost(host)}:${port}${MCP_PATH}`;
  if (siteDir !== null) log('info', 'http', `reference site from ${siteDir} at http://${formatHost(host)}:${port}/`);
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** Host header values that name this server. A wildcard bind (0.0.0.0, ::) cannot know its names: any host, same port. */
function hostsFor(host: string, port: number): Set<string> {
  const hosts = new Set([`${formatHost(host).toLowerCase()}:${port}`]);
  if (isLoopbackHost(host)) for (const h of ['localhost', '127.0.0.1', '[::1]']) hosts.add(`${h}:${port}`);
  if (host === '0.0.0.0' || host === '::') hosts.add(`*:${port}`);
  return hosts;
}

function hostAllowed(header: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (header === undefined) return false;
  const value = header.trim().toLowerCase();
  if (allowed.has(value)) return true;
  const port = /:(\d+)$/.exec(value)?.[1];
  return port !== undefined && allowed.has(`*:${port}`);
}

/** Browsers send Origin; a page from another site must not reach a local server (DNS rebinding). */
function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  try {
    return hostAllowed(new URL(origin).host, allowed);
  } catch {
    return false;
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Constant-time: both sides are hashed to the same length first. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(sha256(match[1].trim()), expected);
}

/** The body; null when it is over the limit (the rest is not read); 'timeout' when it does not arrive in time. */
async function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer | null | 'timeout'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return null;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: Buffer | null | 'timeout') => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError);
      if (value !== null && value !== 'timeout') resolve(value);
      else {
        req.pause();
        resolve(value);
      }
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(null);
      else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onError = () => finish('timeout');
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

const SITE_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/** One file of the static site: folders serve index.html, anything outside the folder or missing is 404. */
async function serveSiteFile(siteDir: string, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('bad request: the path is not valid percent-encoding');
    return;
  }
  const file = path.resolve(siteDir, `.${decoded.endsWith('/') ? `${decoded}index.html` : decoded}`);
  const inside = file.startsWith(`${siteDir}${path.sep}`);
  const info = inside ? await stat(file).catch(() => null) : null;
  if (info?.isDirectory()) {
    // Leading slashes collapsed: "//host/x" would be a protocol-relative redirect to another site.
    res.writeHead(301, { location: `/${pathname.replace(/^[/\\]+/, '')}/` }).end();
    return;
  }
  if (!info) {
    const page = await readFile(path.join(siteDir, '404.html')).catch(() => Buffer.from('not found'));
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(req.method === 'HEAD' ? undefined : page);
    return;
  }
  const body = await readFile(file);
  res.writeHead(200, {
    'content-type': SITE_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    // Bundle copies live in a folder named by their revision and never change.
    'cache-control': decoded.includes('/_pvfdoc/bundle-') ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
