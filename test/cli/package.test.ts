/**
 * The package as a user gets it: `npm pack` (with its prepack step) of a copy of the checkout, the
 * tarball installed offline into an empty folder, then `npx pvfdoc serve --workspace w=<folder>` over
 * stdio with an SDK client — no build step, no snapshots folder: the builtin rules prebuilt into the
 * package are served.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PvfAnnotationSearchOutputSchema } from '../../runtime/mcp/tools/pvf-annotation-search.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
/** What prepack needs of the checkout; node_modules is linked, not copied. */
const SOURCES = ['package.json', 'README.md', 'LICENSE', 'tsconfig.json', 'rules', 'schemas', 'scripts', 'cli', 'runtime', 'build', 'site/build-site.ts', 'site/src/lib', 'site/src/browser'];

let work = '';
let app = '';

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'pvfdoc-package-'));
  const checkout = path.join(work, 'checkout');
  for (const entry of SOURCES) await cp(path.join(ROOT, entry), path.join(checkout, entry), { recursive: true });
  await symlink(path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules'), 'dir');
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: checkout, maxBuffer: 16 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  app = path.join(work, 'app');
  await mkdir(path.join(app, 'w', 'equipment'), { recursive: true });
  await writeFile(path.join(app, 'package.json'), '{"name":"app","private":true}\n');
  await writeFile(path.join(app, 'w', 'equipment', 'sword.equ'), '#PVF_File\n[name]\n`测试之剑`\n[rarity]\n3\n');
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(work, packed?.filename ?? '')], { cwd: app });
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed package, installed into an empty folder', () => {
  it('brings no other package: the CLI is one file', async () => {
    expect((await readdir(path.join(app, 'node_modules'))).filter((n) => !n.startsWith('.'))).toEqual(['pvfdoc']);
    const shipped = await readdir(path.join(app, 'node_modules', 'pvfdoc'));
    expect(shipped.sort()).toEqual(['LICENSE', 'README.md', 'dist', 'package.json', 'rules', 'schemas']);
    expect((await readdir(path.join(app, 'node_modules', 'pvfdoc', 'schemas'))).sort()).toEqual(['annotations.schema.json', 'layer.schema.json', 'lists.schema.json', 'rendering.schema.json']);
  });

  it('serves the builtin rules over stdio with no build step, and says so once', async () => {
    const transport = new StdioClientTransport({ command: 'npx', args: ['--no', 'pvfdoc', 'serve', '--workspace', 'w=./w'], cwd: app, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('pvf_annotation_search');
      const result = await client.callTool({ name: 'pvf_annotation_search', arguments: { query: '稀有度', workspaceId: 'w' } });
      expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
      const out = PvfAnnotationSearchOutputSchema.parse(result.structuredContent);
      expect(out.items.length).toBeGreaterThan(0);
      expect(out.items.some((i) => i.title.includes('稀有度'))).toBe(true);
    } finally {
      await client.close();
    }
    expect(stderr.match(/using the builtin rules shipped with pvfdoc/g)).toHaveLength(1);
    expect(stderr).toContain('prebuilt');
  });

  it('pvfdoc site says what it needs instead of failing with a stack trace', async () => {
    const error = (await run('npx', ['--no', 'pvfdoc', 'site'], { cwd: app }).catch((e: unknown) => e)) as { code?: number; stderr?: string };
    expect(error.code).toBe(1);
    expect(error.stderr).toMatch(/clone of the pvfdoc repository/);
    expect(error.stderr).not.toMatch(/\n\s+at /);
  });
});
