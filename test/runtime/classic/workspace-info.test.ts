/**
 * What workspace_info says about archives: the encoding (detected or given) and the open warnings
 * (names left out, repeated names, an encoding that fails on the table), through the library and over
 * MCP; a broken archive next to working workspaces is reported there while the others serve.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openWorkspace } from '../../../runtime/workspace/open-workspace.js';
import type { WorkspaceInfoOutput } from '../../../runtime/mcp/tools/workspace-info.js';
import { openDirectoryWorkspace } from '../../../runtime/workspace/open-directory-workspace.js';
import type { Workspace } from '../../../runtime/workspace/workspace.js';
import { connectMcp } from '../../support/mcp-client.js';
import { buildClassicArchive, compileScriptText, StringTableBuilder, writeClassicArchive } from '../../support/write-classic-archive.js';
import { makeTempDir, removeTempDirs } from './helpers.js';
import { buildSampleArchive, builtinBundle } from './sample-workspace.js';

const opened: Workspace[] = [];

afterAll(async () => {
  for (const w of opened) await w.close();
  removeTempDirs();
});

async function open(file: string, options: { encoding?: string; pvfVersion?: string } = {}): Promise<Workspace> {
  const workspace = await openWorkspace({ workspaceId: path.basename(file, '.pvf'), name: path.basename(file), path: file, ...options });
  opened.push(workspace);
  return workspace;
}

/** An archive whose tree has a `..` name (left out) and a name stored twice (first wins). */
function oddNames(): Buffer {
  const table = new StringTableBuilder();
  const script = (text: string) => compileScriptText(text, table);
  const files = [
    { path: 'a.equ', data: script('[name]\n`first`') },
    { path: 'A.EQU', data: script('[name]\n`second`') },
    { path: '../escape.equ', data: script('[name]\n`x`') },
  ];
  return buildClassicArchive([...files, { path: 'stringtable.bin', data: table.toBytes('utf-8') }]);
}

describe('workspace_info of archive workspaces', () => {
  it('info() carries the open warnings only when there are some; other fields as before', async () => {
    const dir = makeTempDir();
    const odd = path.join(dir, 'odd.pvf');
    writeFileSync(odd, oddNames());
    const workspace = await open(odd);
    const view = await workspace.view();
    expect(view.readText('a.equ').text).toContain('`first`');
    const info = workspace.info();
    expect(info).toMatchObject({ kind: 'pvf-classic', archiveOpen: true, fileCount: 2, encoding: 'cp950' });
    expect(info.warnings).toEqual([expect.stringContaining('".." segment'), '1 tree entries repeat an earlier name; lookups use the first']);

    const clean = path.join(dir, 'clean.pvf');
    writeFileSync(clean, buildSampleArchive('utf-8'));
    expect('warnings' in (await open(clean)).info()).toBe(false);
    const folder = await openDirectoryWorkspace({ workspaceId: 'f', name: 'f', root: dir });
    opened.push(folder);
    expect('warnings' in folder.info()).toBe(false);
  });

  it('a given encoding is used and reported; when another candidate decodes the table better, a warning says which', async () => {
    const file = path.join(makeTempDir(), 'samples.pvf');
    writeFileSync(file, buildSampleArchive('cp936'));
    expect((await open(file)).info()).toMatchObject({ encoding: 'cp936' });
    expect('warnings' in (await open(file)).info()).toBe(false);
    const forced = (await open(file, { encoding: 'CP949' })).info();
    expect(forced.encoding).toBe('cp949');
    expect(forced.warnings?.join('\n')).toMatch(/do not decode in cp949 \(given\); cp936 fails on 0: pass --encoding cp936/);
  });

  it('over MCP: encoding and warnings per workspace, a broken archive reported while the others serve', async () => {
    const dir = makeTempDir();
    const odd = path.join(dir, 'odd.pvf');
    writeFileSync(odd, oddNames());
    const korean = path.join(dir, 'korean.pvf');
    writeFileSync(korean, writeClassicArchive({ scripts: { 'equipment/k.equ': '[name]\n`검은 사신의 장갑`\n[rarity]\n4' }, encoding: 'cp949' }));
    const broken = path.join(dir, 'broken.pvf');
    writeFileSync(broken, 'this is not a PVF archive');
    const workspaces = new Map<string, Workspace>([
      ['odd', await open(odd)],
      ['korean', await open(korean, { encoding: 'cp949', pvfVersion: '110US' })],
      ['broken', await open(broken)],
    ]);
    const mcp = await connectMcp(await builtinBundle(), workspaces);
    try {
      const info = (await mcp.call('workspace_info', {})) as WorkspaceInfoOutput;
      const byId = Object.fromEntries(info.workspaces.map((w) => [w.workspaceId, w]));
      expect(byId.odd).toMatchObject({ archiveOpen: true, encoding: 'cp950', warnings: [expect.stringContaining('".." segment'), expect.stringContaining('repeat an earlier name')] });
      expect(byId.korean).toMatchObject({ archiveOpen: true, encoding: 'cp949', pvfVersion: '110US', fileCount: 2, error: null });
      expect(byId.korean && 'warnings' in byId.korean).toBe(false);
      expect(byId.broken).toMatchObject({ archiveOpen: false, fileCount: 0 });
      expect(byId.broken?.error).toContain(broken);
      expect(byId.broken?.error).toContain('not a PVF');
      const text = (await mcp.client.callTool({ name: 'workspace_info', arguments: {} })).content as { type: string; text: string }[];
      expect(text[0]?.text).toContain('odd: pvf-classic, 2 files');
      expect(text[0]?.text).toContain('encoding cp950; 2 warning(s)');
      const read = await mcp.call('read_file', { workspaceId: 'korean', filePath: 'equipment/k.equ' });
      expect(read.text).toBe('#PVF_File\n\n[name]\n\t`검은 사신의 장갑`\n\n[rarity]\n\t4\n');
    } finally {
      await mcp.close();
    }
  });
});
