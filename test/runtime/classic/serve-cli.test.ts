/**
 * The published CLI (dist/pvfdoc.mjs, built once by test/global-setup.ts) with archive workspaces:
 * `pvfdoc serve --workspace main=Script.pvf --encoding cp949 --pvf-version 110US` answers a real client
 * over stdio (a broken archive given next to it is reported, not fatal), `pvfdoc explain` reads an
 * archive with --encoding, and a bad --encoding is a usage error.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLayers } from '../../../build/compile-layers.js';
import { writeBundle } from '../../../build/write-bundle.js';
import type { ExplainOutput } from '../../../runtime/explain/explain-schema.js';
import type { WorkspaceInfoOutput } from '../../../runtime/mcp/tools/workspace-info.js';
import { writeClassicArchive } from '../../support/write-classic-archive.js';
import { makeTempDir, removeTempDirs } from './helpers.js';
import { BUILTIN_LAYER } from './sample-workspace.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../../dist/pvfdoc.mjs');

const KOREAN_EQU = ['#PVF_File', '', '[name]', '\t`검은 사신의 장갑`', '', '[rarity]', '\t4', '', '[usable job]', '\t`[fighter]`', '[/usable job]', ''].join('\n');

let dir: string;
let snapshots: string;
let archive: string;

beforeAll(async () => {
  dir = makeTempDir();
  snapshots = path.join(dir, 'snapshots');
  const compiled = await compileLayers([BUILTIN_LAYER]);
  if (!compiled.ok) throw new Error('rules/builtin does not compile');
  await writeBundle(snapshots, compiled.bundle, { setCurrent: true });
  archive = path.join(dir, 'Script.pvf');
  writeFileSync(archive, writeClassicArchive({ scripts: { 'equipment/character/k.equ': KOREAN_EQU, 'equipment/equipment.lst': '1\t`character/k.equ`' }, encoding: 'cp949', trailer: true }));
  writeFileSync(path.join(dir, 'broken.pvf'), Buffer.alloc(64, 0x41));
});

afterAll(() => removeTempDirs());

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent ?? {};
}

describe('pvfdoc serve with a Script.pvf workspace', () => {
  it('--workspace main=Script.pvf --encoding cp949 --pvf-version 110US serves the archive over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--snapshots', snapshots, '--workspace', `main=${archive}`, '--workspace', `bad=${path.join(dir, 'broken.pvf')}`, '--encoding', 'cp949', '--pvf-version', '110US'],
      cwd: dir,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'archive-cli', version: '1.0.0' });
    await client.connect(transport);
    try {
      const info = (await call(client, 'workspace_info', {})) as WorkspaceInfoOutput;
      const main = info.workspaces.find((w) => w.workspaceId === 'main');
      expect(main).toMatchObject({ kind: 'pvf-classic', encoding: 'cp949', pvfVersion: '110US', archiveOpen: true, fileCount: 3, error: null });
      const bad = info.workspaces.find((w) => w.workspaceId === 'bad');
      expect(bad).toMatchObject({ kind: 'pvf-classic', archiveOpen: false });
      expect(bad?.error).toContain('broken.pvf');

      const read = await call(client, 'read_file', { workspaceId: 'main', filePath: 'Equipment/Character/K.equ' });
      expect(read.text).toBe(KOREAN_EQU);
      const explain = (await call(client, 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: main?.revision ?? -1, filePath: 'equipment/character/k.equ' })) as ExplainOutput;
      expect(explain.pvfVersion).toBe('110US');
      expect(explain.annotations.find((a) => a.section === 'name' && a.tokenIndex === 0)?.value).toBe('검은 사신의 장갑');
      expect(explain.annotations.find((a) => a.section === 'rarity' && a.tokenIndex === 0)?.valueLabel).toBe('史诗');
      const list = (await call(client, 'pvf_annotation_explain', { workspaceId: 'main', expectedRevision: main?.revision ?? -1, filePath: 'equipment/equipment.lst' })) as ExplainOutput;
      // annotations[0] is the row's id token (builtin.lst.row-id); the runtime link follows.
      expect(list.annotations.find((a) => a.origin === 'runtime')?.reference).toMatchObject({ id: '1', name: '검은 사신의 장갑', path: 'equipment/character/k.equ', resolutionStatus: 'resolved' });
    } finally {
      await client.close();
    }
    expect(stderr).toContain(`main: ${archive} (3 files, pvfVersion 110US, encoding cp949)`);
    expect(stderr).toMatch(/\[workspace\] warn: bad: .*broken\.pvf cannot be read: .*not a PVF archive/);
  });

  it('a bad --encoding is a usage error (exit 2) naming the value', async () => {
    const failed = await run(process.execPath, [CLI, 'serve', '--snapshots', snapshots, '--workspace', `main=${archive}`, '--encoding', 'klingon'], { cwd: dir }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain('serve: --encoding "klingon" is not a text encoding iconv-lite knows; use cp950, cp936, cp949 or utf-8');
  });
});

describe('pvfdoc explain on a Script.pvf', () => {
  it('--encoding cp949 --json explains a file of the archive', async () => {
    const { stdout } = await run(
      process.execPath,
      [CLI, 'explain', '--workspace', archive, '--file', 'equipment/character/k.equ', '--snapshots', snapshots, '--encoding', 'cp949', '--pvf-version', '110US', '--json'],
      { cwd: dir },
    );
    const out = JSON.parse(stdout) as ExplainOutput;
    expect(out.filePath).toBe('equipment/character/k.equ');
    expect(out.annotations.find((a) => a.section === 'name')?.value).toBe('검은 사신의 장갑');
    const table = await run(process.execPath, [CLI, 'explain', '--workspace', archive, '--file', 'equipment/character/k.equ', '--snapshots', snapshots, '--encoding', 'cp949'], { cwd: dir });
    expect(table.stdout).toContain('검은 사신의 장갑');
  });
});
