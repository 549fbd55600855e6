/**
 * A real MCP SDK Client connected in memory (InMemoryTransport) to createServer over a context, with
 * tools/list done so the client validates every structured output against the tool's schema.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Bundle } from '../../runtime/bundle/load-bundle.js';
import { createRulesHolder } from '../../runtime/bundle/rules-holder.js';
import { createExplainCache } from '../../runtime/explain/explain-file.js';
import { createServer } from '../../runtime/mcp/create-server.js';
import type { Workspace } from '../../runtime/workspace/workspace.js';

export interface McpConnection {
  client: Client;
  /** Calls a tool; throws with the tool's text when it returns an error. */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Calls a tool that must fail; returns its text (which starts with the error code). */
  fail(name: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export async function connectMcp(bundle: Bundle, workspaces: ReadonlyMap<string, Workspace>): Promise<McpConnection> {
  const created = createServer({ rules: createRulesHolder(bundle), workspaces, log: () => undefined, explainCache: createExplainCache() });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'pvfdoc-archive-test', version: '1.0.0' });
  await created.server.connect(serverSide);
  await client.connect(clientSide);
  await client.listTools();
  return {
    client,
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      if (!result.structuredContent) throw new Error(`${name} returned no structuredContent`);
      return result.structuredContent;
    },
    async fail(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (!result.isError) throw new Error(`${name} unexpectedly succeeded`);
      return textOf(result);
    },
    async close() {
      await client.close();
      await created.close();
    },
  };
}
