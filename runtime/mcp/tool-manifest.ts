/**
 * The public surface a model reads: every tool's name, title, description, JSON schemas and
 * annotations, exactly as a real client receives them from tools/list.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Bundle } from '../bundle/load-bundle.js';
import type { RulesHolder } from '../bundle/rules-holder.js';
import { ENGINE_VERSION } from '../bundle/constants.js';
import { createServer } from './create-server.js';
import { silentLogger } from './log.js';

interface ToolManifestEntry {
  name: string;
  title: string | null;
  description: string;
  annotations: Record<string, unknown>;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
}

/** Listing tools reads no rules; a holder that refuses to be read proves it. */
const NO_RULES: RulesHolder = {
  current: () => {
    throw new Error('the tool manifest does not read rules');
  },
  activate: (_bundle: Bundle) => undefined,
  reportReloadFailure: () => undefined,
  clearReloadFailure: () => undefined,
};

export async function listToolManifest(): Promise<ToolManifestEntry[]> {
  const created = createServer({ rules: NO_RULES, workspaces: new Map(), log: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'pvfdoc-manifest', version: ENGINE_VERSION });
  await created.server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const { tools } = await client.listTools();
    return tools.map((t) => ({
      name: t.name,
      title: t.title ?? null,
      description: t.description ?? '',
      annotations: { ...t.annotations },
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema ?? null,
    }));
  } finally {
    await client.close();
    await created.close();
  }
}
