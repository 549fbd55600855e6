import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../../build/compile-layers.js';
import { openBuiltBundle } from '../../../runtime/bundle/load-bundle.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { openWorkspace } from '../../../runtime/workspace/open-workspace.js';
import { PvfAnnotationSearchOutputSchema } from '../../../runtime/mcp/tools/pvf-annotation-search.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { connect, tempDir } from '../mcp/helpers.js';
import { writeNkpiArchive } from '../../support/write-nkpi-archive.js';

// Issue 8: pvfVersion=current means the archive's client version, which only the nkpi family reveals.
describe('pvfVersion "current" on an nkpi archive', () => {
  let client: Client;
  let workspace: Workspace;
  let cleanup: () => Promise<void>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const tmp = await tempDir('nkpi-current');
    cleanup = tmp.cleanup;
    const archive = path.join(tmp.dir, 'Script.pvf');
    await writeFile(archive, writeNkpiArchive({ keys: 'alternate', scripts: { 'equipment/a.equ': '[name]\n`a`\n[rarity]\n4' } }));
    const compiled = await compileLayers([path.resolve(import.meta.dirname, '../../../rules/builtin')]);
    if (!compiled.ok) throw new Error('builtin layer does not compile');
    workspace = await openWorkspace({ workspaceId: 'cn', name: 'cn', path: archive });
    ({ client, close } = await connect({ rules: createRulesHolder(openBuiltBundle(compiled.bundle.files)), workspaces: new Map([['cn', workspace]]) }));
  });

  afterAll(async () => {
    await close();
    await workspace.close();
    await cleanup();
  });

  async function search(args: Record<string, unknown>) {
    const result = (await client.callTool({ name: 'pvf_annotation_search', arguments: args })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    return PvfAnnotationSearchOutputSchema.parse(result.structuredContent);
  }

  it('detects the alternate-key archive as 90CN', () => {
    expect(workspace.info()).toMatchObject({ kind: 'pvf-nkpi', pvfVersion: '90CN', archiveOpen: true });
  });

  it('returns 90CN-specific rules and hides 110US-only ones', async () => {
    const ids = async (section: string) =>
      (await search({ pvfVersion: 'current', workspaceId: 'cn', section, filePath: 'equipment/a.equ', limit: 100 })).items.map((i) => i.ruleId ?? i.fieldId);
    expect(await ids('rarity')).toContain('builtin.equ.rarity.before-110us');
    expect(await ids('buff basic explain')).not.toContain('builtin.equ.buff-basic-explain');
    const explicit = await search({ pvfVersion: '110US', section: 'buff basic explain', filePath: 'equipment/a.equ' });
    expect(explicit.items.map((i) => i.ruleId)).toContain('builtin.equ.buff-basic-explain');
    const context = (await search({ pvfVersion: 'current', workspaceId: 'cn', section: 'rarity' })).context;
    expect(context.pvfVersion).toBe('90CN');
  });
});
