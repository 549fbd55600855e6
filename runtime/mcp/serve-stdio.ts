import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CreatedServer } from './create-server.js';

export interface StdioServing {
  /** Settles when the client goes away (stdin ends) or the transport closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves one MCP server over stdin/stdout; stdout carries only the protocol. */
export async function serveStdio(created: CreatedServer, streams: { stdin?: Readable; stdout?: Writable } = {}): Promise<StdioServing> {
  const stdin = streams.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, streams.stdout ?? process.stdout);
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
      await created.close();
      markClosed();
    },
  };
}
