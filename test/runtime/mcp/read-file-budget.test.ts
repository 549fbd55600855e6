/**
 * read_file's budget counts what is sent: the text twice (structuredContent and content), JSON-escaped.
 * Before, a text of control characters (each a 6-byte \u escape) could make a 3 MB answer under the
 * 256 KiB promise.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { createRulesHolder } from '../../../runtime/bundle/rules-holder.js';
import { MAX_READ_FILE_BYTES } from '../../../runtime/mcp/constants.js';
import { ReadFileOutputSchema } from '../../../runtime/mcp/tools/read-file.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { callOk, connect, ROOT, tempDir, type Connected } from './helpers.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let workspace: Workspace;
let conn: Connected;

beforeAll(async () => {
  tmp = await tempDir('read-budget');
  const root = path.join(tmp.dir, 'w');
  await mkdir(root);
  // 40 lines of 20 000 control characters each: 800 000 raw bytes, about 4.8 MB once escaped.
  await writeFile(path.join(root, 'noise.txt'), Array.from({ length: 40 }, () => '\u0001'.repeat(20_000)).join('\n'));
  await writeFile(path.join(root, 'plain.txt'), Array.from({ length: 40_000 }, (_, i) => `line ${i}`).join('\n'));
  workspace = await openDirectoryWorkspace({ workspaceId: 'w', name: 'w', root });
  const fixture = await compiledBundle([path.join(ROOT, 'test/fixtures/layers/basic/builtin')]);
  conn = await connect({ rules: createRulesHolder(fixture), workspaces: new Map([['w', workspace]]) });
});

afterAll(async () => {
  await conn?.close();
  await workspace?.close();
  await tmp?.cleanup();
});

describe('read_file budget', () => {
  for (const file of ['noise.txt', 'plain.txt']) {
    it(`keeps the whole answer for ${file} within ${MAX_READ_FILE_BYTES} bytes, and pages on`, async () => {
      const first = await conn.client.callTool({ name: 'read_file', arguments: { workspaceId: 'w', filePath: file } });
      expect(Buffer.byteLength(JSON.stringify(first))).toBeLessThanOrEqual(MAX_READ_FILE_BYTES);
      const out = ReadFileOutputSchema.parse(first.structuredContent);
      expect(out.truncated).toBe(true);
      expect(out.endLine).toBeGreaterThanOrEqual(1);
      const next = await callOk(conn.client, 'read_file', { workspaceId: 'w', filePath: file, startLine: out.endLine + 1 }, ReadFileOutputSchema);
      expect(next.out.startLine).toBe(out.endLine + 1);
    });
  }
});
