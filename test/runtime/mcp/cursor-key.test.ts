/**
 * Cursors are signed with a keyed MAC: one signed by another key (another server, or this one before a
 * restart) is INVALID_CURSOR, and a well-signed cursor past the end of the results is refused too.
 * Before, the checksum was a plain SHA-256 anyone could recompute: a list_files cursor with offset
 * 2^53-1 was accepted.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { canonicalJson } from '../../../runtime/bundle/canonical-json.js';
import { decodeCursor, encodeCursor, readCursor } from '../../../runtime/bundle/cursor.js';
import { createCursorKey } from '../../../runtime/mcp/cursor-key.js';
import { createServer } from '../../../runtime/mcp/create-server.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { callError, ROOT, tempDir } from './helpers.js';

const STATE = { tool: 'list_files', rulesRevision: 'workspace:1', binding: 'b', offset: 2 };

describe('cursor keys', () => {
  it('a cursor of one key is refused under another, and accepted under its own', () => {
    const a = createCursorKey('replica secret');
    const b = createCursorKey();
    const cursor = encodeCursor(STATE, a);
    expect(decodeCursor(cursor, STATE, createCursorKey('replica secret'))).toBe(2);
    expect(() => readCursor(cursor, b)).toThrow(/INVALID_CURSOR|not valid/);
    expect(createCursorKey().secret).not.toEqual(createCursorKey().secret);
  });

  it('a cursor forged with the old plain checksum is refused', () => {
    const payload = Buffer.from(canonicalJson(['list_files', 'workspace:1', 'b', Number.MAX_SAFE_INTEGER]), 'utf8').toString('base64url');
    const forged = `c1.${payload}.${createHash('sha256').update(`pvfdoc-cursor\u0000${payload}`).digest('hex').slice(0, 16)}`;
    expect(() => readCursor(forged, createCursorKey())).toThrow(/altered/);
  });
});

describe('list_files with a signed cursor past the end', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let workspace: Workspace;
  beforeAll(async () => {
    tmp = await tempDir('cursor-key');
    await mkdir(path.join(tmp.dir, 'w'));
    for (let i = 0; i < 5; i++) await writeFile(path.join(tmp.dir, 'w', `f${i}.equ`), '[name] `x`\n');
    workspace = await openDirectoryWorkspace({ workspaceId: 'w', name: 'w', root: path.join(tmp.dir, 'w') });
  });
  afterAll(async () => {
    await workspace?.close();
    await tmp?.cleanup();
  });

  it('pages with its own cursors and refuses a well-signed one whose offset is out of range', async () => {
    const fixture = await compiledBundle([path.join(ROOT, 'test/fixtures/layers/basic/builtin')]);
    const cursorKey = createCursorKey();
    const created = createServer({ rules: createRulesHolder(fixture), workspaces: new Map([['w', workspace]]), log: () => undefined, cursorKey });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 't', version: '1' });
    await created.server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const first = await client.callTool({ name: 'list_files', arguments: { workspaceId: 'w', limit: 2 } });
      const next = (first.structuredContent as { nextCursor: string }).nextCursor;
      const state = readCursor(next, cursorKey);
      const second = await client.callTool({ name: 'list_files', arguments: { workspaceId: 'w', limit: 2, cursor: next } });
      expect(second.isError).toBeFalsy();
      const far = encodeCursor({ ...state, offset: 2 ** 53 - 1 }, cursorKey);
      const refused = await callError(client, 'list_files', { workspaceId: 'w', limit: 2, cursor: far });
      expect(refused.code).toBe('INVALID_CURSOR');
      expect(refused.text).toContain('past the end');
      const unsigned = encodeCursor(state);
      expect((await callError(client, 'list_files', { workspaceId: 'w', limit: 2, cursor: unsigned })).code).toBe('INVALID_CURSOR');
    } finally {
      await client.close();
      await created.close();
    }
  });
});
