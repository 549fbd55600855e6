/**
 * Issue 15, finding 1: explaining a large file no longer holds the server. Through a real SDK client,
 * a workspace_info sent after a large explain has started is answered before that explain finishes
 * (the explanation runs in slices and gives the thread back between them); before, the server did the
 * whole explanation first.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { BUILTIN_LAYER, connect, type Connected } from './helpers.js';

const BLOCK = '[name]\n`苍穹幕落臂铠`\n[rarity]\n\t4\n[grade]\n\t75\n[price]\n\t5000\n[equipment type]\n\t`[glove]`\n[attach type]\n\t`[trade]`\n';

let dir: string;
let workspace: Workspace;
let conn: Connected;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pvfdoc-explain-yields-'));
  // About 1.2 MB: well over one slice of explain work on any machine.
  await writeFile(path.join(dir, 'big.equ'), BLOCK.repeat(12_000));
  await writeFile(path.join(dir, 'small.equ'), BLOCK);
  workspace = await openDirectoryWorkspace({ workspaceId: 'main', name: 'main', root: dir, pvfVersion: '90US' });
  conn = await connect({ rules: createRulesHolder(await compiledBundle([BUILTIN_LAYER])), workspaces: new Map([['main', workspace]]) });
});

afterAll(async () => {
  await conn?.close();
  await workspace?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('explain gives the thread back (issue 15)', () => {
  it('answers other requests while a large file is being explained', async () => {
    const expectedRevision = (await workspace.view()).revision;
    const order: string[] = [];
    const explaining = conn.client
      .callTool({ name: 'pvf_annotation_explain', arguments: { workspaceId: 'main', expectedRevision, filePath: 'big.equ' } })
      .then((r) => {
        order.push('explain');
        return r;
      });
    // Let the explain request reach the server first.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const meanwhile = conn.client.callTool({ name: 'pvf_annotation_explain', arguments: { workspaceId: 'main', expectedRevision, filePath: 'small.equ' } }).then((r) => {
      order.push('small explain');
      return r;
    });
    const info = conn.client.callTool({ name: 'workspace_info', arguments: {} }).then((r) => {
      order.push('workspace_info');
      return r;
    });
    const [big, small, answered] = await Promise.all([explaining, meanwhile, info]);
    expect(big.isError).toBeFalsy();
    expect(small.isError).toBeFalsy();
    expect(answered.isError).toBeFalsy();
    expect(order.at(-1)).toBe('explain');
  });
});
