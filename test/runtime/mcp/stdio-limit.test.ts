/**
 * stdio: a message over the limit is dropped and answered with a JSON-RPC error; the server keeps
 * serving (before, the SDK's buffer limit closed the transport and the process exited 0 silently).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineLimiter, MAX_STDIO_MESSAGE_BYTES } from '../../../runtime/mcp/serve-stdio.js';
import { ROOT, tempDir, writeWorkspace } from './helpers.js';

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString('utf8')));
  return () => text;
}

describe('LineLimiter', () => {
  it('passes lines through, drops the oversized one whole (even across chunks), and reports it once', async () => {
    let reported = 0;
    const limiter = new LineLimiter(10, () => reported++);
    const out = new PassThrough();
    limiter.pipe(out);
    const read = collect(out);
    for (const chunk of ['ok 1\n', 'this line is', ' much too long', ' for ten\nok', ' 2\n']) limiter.write(Buffer.from(chunk));
    limiter.end();
    await new Promise((r) => out.once('end', r));
    expect(read().split('\n').filter(Boolean)).toEqual(['ok 1', 'ok 2']);
    expect(reported).toBe(1);
  });
});

describe('pvfdoc serve over stdio with an oversized message', () => {
  it('answers it with a JSON-RPC error, logs it, and answers the next request', async () => {
    const tmp = await tempDir('stdio-limit');
    try {
      await writeWorkspace(path.join(tmp.dir, 'w'));
      const child = spawn(process.execPath, [path.join(ROOT, 'dist/pvfdoc.mjs'), 'serve', '--workspace', `w=${path.join(tmp.dir, 'w')}`], { cwd: tmp.dir });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"pad":"${'x'.repeat(MAX_STDIO_MESSAGE_BYTES + 10)}"}}\n`);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      for (let i = 0; i < 200 && !stdout.includes('"id":3'); i++) await new Promise((r) => setTimeout(r, 50));
      const answers = stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string }; result?: { tools?: unknown[] } });
      const oversized = answers.find((a) => a.id === null);
      expect(oversized?.error?.code).toBe(-32600);
      expect(oversized?.error?.message).toContain(`over ${MAX_STDIO_MESSAGE_BYTES} bytes`);
      expect(answers.find((a) => a.id === 3)?.result?.tools?.length).toBeGreaterThan(0);
      expect(answers.some((a) => a.id === 2)).toBe(false);
      expect(stderr).toContain('dropped a message over');
      child.stdin.end();
      expect(await exited).toBe(0);
    } finally {
      await tmp.cleanup();
    }
  });
});
