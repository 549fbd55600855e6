/**
 * Why tool errors carry their fields in `_meta` and the text, not in `structuredContent`: the SDK 1.32
 * Client validates structuredContent against the tool's outputSchema even on `isError` results and
 * throws instead of returning the error. If this test starts failing after an SDK upgrade, the error
 * fields may move into structuredContent (mcp-conventions: Errors).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PvfdocError } from '../../../runtime/errors.js';
import { ERROR_META_KEY } from '../../../runtime/mcp/constants.js';
import { toToolError, toolErrorOf } from '../../../runtime/mcp/tool-error.js';

async function probe(errorResult: () => Record<string, unknown>): Promise<Client> {
  const server = new McpServer({ name: 'probe', version: '1.0.0' });
  server.registerTool('probe', { description: 'probe', inputSchema: z.strictObject({}), outputSchema: z.strictObject({ ok: z.boolean() }) }, () => ({
    content: [{ type: 'text' as const, text: 'failed' }],
    ...errorResult(),
  }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'probe-client', version: '1.0.0' });
  await server.connect(a);
  await client.connect(b);
  await client.listTools();
  return client;
}

describe('tool error shape against SDK 1.32', () => {
  it('an isError result whose structuredContent does not match outputSchema makes the SDK Client throw', async () => {
    const client = await probe(() => ({ isError: true, structuredContent: { code: 'NO_ARCHIVE' } }));
    await expect(client.callTool({ name: 'probe', arguments: {} })).rejects.toThrow(/does not match the tool's output schema/);
  });

  it('toToolError results reach the SDK Client as errors with the code in _meta and the text', async () => {
    const error = new PvfdocError('NO_ARCHIVE', 'nothing open', { hint: 'Open something.', data: { workspaceId: 'w' } });
    const client = await probe(() => toToolError(error) as Record<string, unknown>);
    const result = await client.callTool({ name: 'probe', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result._meta?.[ERROR_META_KEY]).toEqual({ code: 'NO_ARCHIVE', message: 'nothing open', hint: 'Open something.', data: { workspaceId: 'w' } });
    expect(toolErrorOf(result)?.code).toBe('NO_ARCHIVE');
    expect(result.content).toEqual([{ type: 'text', text: 'NO_ARCHIVE: nothing open Open something.\ndata: {"workspaceId":"w"}' }]);
  });

  it('a PvfdocError without hint or data gives just the code and message', () => {
    expect(toToolError(new PvfdocError('INVALID_ARGUMENT', 'bad')).content).toEqual([{ type: 'text', text: 'INVALID_ARGUMENT: bad' }]);
  });
});
