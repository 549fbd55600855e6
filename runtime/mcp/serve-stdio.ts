import { Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MAX_HTTP_BODY_BYTES } from './constants.js';
import type { CreatedServer } from './create-server.js';
import type { Logger } from './log.js';

interface StdioServing {
  /** Settles when the client goes away (stdin ends) or the transport closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Largest message read from stdin: the same as an HTTP request body. */
export const MAX_STDIO_MESSAGE_BYTES = MAX_HTTP_BODY_BYTES;

/**
 * Passes newline-framed messages through, but drops a line longer than `limit` bytes (up to its
 * newline) and reports it, so one oversized message neither fills memory nor (as the SDK's own buffer
 * limit does) closes the transport and silently ends the server.
 */
export class LineLimiter extends Transform {
  private lineBytes = 0;
  private dropping = false;

  constructor(
    private readonly limit: number,
    private readonly onOversize: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      const piece = chunk.subarray(start, end);
      if (!this.dropping) {
        if (this.lineBytes + piece.length - (newline === -1 ? 0 : 1) > this.limit) {
          // The start of the line was already passed on: end it so the reader sees one bad line.
          if (this.lineBytes > 0) this.push(Buffer.from('\n'));
          this.dropping = true;
          this.onOversize();
        } else {
          this.push(piece);
          this.lineBytes += piece.length;
        }
      }
      if (newline !== -1) {
        this.lineBytes = 0;
        this.dropping = false;
      }
      start = end;
    }
    done();
  }
}

/** Serves one MCP server over stdin/stdout; stdout carries only the protocol. */
export async function serveStdio(
  created: CreatedServer,
  streams: { stdin?: Readable; stdout?: Writable; log?: Logger; maxMessageBytes?: number } = {},
): Promise<StdioServing> {
  const stdin = streams.stdin ?? process.stdin;
  const stdout = streams.stdout ?? process.stdout;
  const limit = streams.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
  const limited = new LineLimiter(limit, () => {
    streams.log?.('warn', 'stdio', `dropped a message over ${limit} bytes`);
    // No id can be read from a message that was not read: JSON-RPC answers such errors with id null.
    stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `message over ${limit} bytes: not read; send smaller requests` } })}\n`);
  });
  stdin.pipe(limited);
  const transport = new StdioServerTransport(limited, stdout, { maxBufferSize: limit * 2 + 1024 });
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  transport.onclose = () => markClosed();
  const onEnd = () => markClosed();
  stdin.once('end', onEnd);
  await created.server.connect(transport);
  return {
    closed,
    async close() {
      stdin.off('end', onEnd);
      stdin.unpipe(limited);
      await created.close();
      markClosed();
    },
  };
}
