import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../../runtime/bundle/load-bundle.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { toolErrorOf } from '../../../runtime/mcp/tool-error.js';
import { BUILTIN_LAYER, buildSnapshot, connect, tempDir, writeExtraLayer } from './helpers.js';

describe('STALE_RULES from pvf_annotation_get says whether the document changed', () => {
  let cleanup: () => Promise<void>;
  let snapshots: string;
  let oldRevision: string;
  let documentId: string;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const tmp = await tempDir('stale-count');
    cleanup = tmp.cleanup;
    snapshots = path.join(tmp.dir, 'snapshots');
    oldRevision = await buildSnapshot(snapshots, [BUILTIN_LAYER]);
    const old = await loadBundle(path.join(snapshots, oldRevision));
    documentId = old.documents.find((d) => d.kind === 'rule' && d.status === 'effective')?.documentId ?? '';
    const newRevision = await buildSnapshot(snapshots, [BUILTIN_LAYER, await writeExtraLayer(path.join(tmp.dir, 'extra'))]);
    expect(newRevision).not.toBe(oldRevision);
    ({ client, close } = await connect({ rules: createRulesHolder(await loadBundle(path.join(snapshots, newRevision))), workspaces: new Map(), snapshotsDir: snapshots }));
  });

  afterAll(async () => {
    await close();
    await cleanup();
  });

  it('counts the document as unchanged when the older snapshot is still on disk', async () => {
    const result = (await client.callTool({ name: 'pvf_annotation_get', arguments: { documentId, rulesRevision: oldRevision } })) as CallToolResult;
    expect(result.isError).toBe(true);
    const error = toolErrorOf(result);
    expect(error?.code).toBe('STALE_RULES');
    expect(error?.message).toContain('unchanged in the active snapshot');
    expect(error?.data?.changedDocuments).toMatchObject({ total: 1, unchanged: 1, changed: 0, removed: 0 });
  });

  it('stays a plain STALE_RULES for a revision that is not on disk', async () => {
    const result = (await client.callTool({ name: 'pvf_annotation_get', arguments: { documentId, rulesRevision: '0123456789abcdef0123' } })) as CallToolResult;
    const error = toolErrorOf(result);
    expect(error?.code).toBe('STALE_RULES');
    expect(error?.data?.changedDocuments).toBeUndefined();
  });
});
