/** `pvfdoc export` through the published entry point dist/pvfdoc.mjs (built by test/global-setup.ts). */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { EXPORT_LAYER } from '../build/export/helpers.js';
import { makeTempDir, removeTempDirs } from '../support/temp-dirs.js';


const pvfdoc = runCli;

let work: string;

beforeAll(async () => {
  work = makeTempDir('pvfdoc-export-cli-');
  const built = await pvfdoc(['build', '--no-builtin', '--layer', EXPORT_LAYER, '--out', 'snapshots'], work);
  expect(built.code).toBe(0);
});

afterAll(removeTempDirs);

describe('pvfdoc export (dist/pvfdoc.mjs)', () => {
  it('is listed in the help, and has its own', async () => {
    expect((await pvfdoc(['--help'], work)).stdout).toMatch(/\n {2}export {4}write the tag knowledge/);
    const help = await pvfdoc(['export', '--help'], work);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--format vscode-scripttags');
  });

  it('writes pvfUtility comment files from ./snapshots, with links, and says what it left out', async () => {
    const result = await pvfdoc(['export', '--format', 'pvfutility', '--out', 'pu', '--site-url', 'https://example.org/pvfdoc/'], work);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^export: pvfutility from snapshot [0-9a-f]+: 4 files, 18 tags → .*pu\n/);
    expect(result.stdout).toContain('not written: til (2 tags)');
    expect(result.stdout).toContain('1 path notes, 1 section patterns, 1 before the first section');
    expect((await readdir(path.join(work, 'pu'))).sort()).toEqual(['.pvfdoc-export', 'equ.json', 'etc.json', 'qst.json', 'stk.json']);
    const equ = JSON.parse(await readFile(path.join(work, 'pu/equ.json'), 'utf8')) as { SchemaVersion: number; FileType: string; Comments: { Section: string; Comment: string }[] };
    expect(equ.SchemaVersion).toBe(1);
    expect(equ.FileType).toBe('equ');
    expect(equ.Comments.find((c) => c.Section === 'usable job')?.Comment).toContain('[参考站](https://example.org/pvfdoc/doc/');
  });

  it('writes VS Code tag files, merges --base, and prints --json', async () => {
    const base = path.join(work, 'ext-tags');
    await mkdir(base, { recursive: true });
    await writeFile(path.join(base, 'equ.json'), JSON.stringify({ tags: [{ name: 'theirs', description: 'kept', closing: true }] }));
    const result = await pvfdoc(['export', '--format', 'vscode-scripttags', '--out', 'vs', '--base', base, '--pvf-version', '90US', '--json'], work);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { format: string; pvfVersion: string; files: { path: string; kept: number }[]; removed: string[] };
    expect(summary).toMatchObject({ format: 'vscode-scripttags', pvfVersion: '90US', removed: [] });
    expect(summary.files.map((f) => f.path)).toEqual(['equ.json', 'etc.json', 'qst.json', 'stk.json', 'til.json']);
    expect(summary.files[0]?.kept).toBe(1);
    const equ = JSON.parse(await readFile(path.join(work, 'vs/equ.json'), 'utf8')) as { tags: { name: string; description: string }[] };
    expect(equ.tags[0]).toEqual({ name: 'theirs', description: 'kept', closing: true });
    expect(equ.tags.map((t) => t.name)).not.toContain('minimum level');
  });

  it('runs again into its own export without --force', async () => {
    expect((await pvfdoc(['export', '--format', 'pvfutility', '--out', 'again'], work)).code).toBe(0);
    expect((await pvfdoc(['export', '--format', 'pvfutility', '--out', 'again'], work)).code).toBe(0);
  });

  it('errors: unknown or missing format, missing --out, --out a file, a folder of other files, an unknown flag', async () => {
    const unknown = await pvfdoc(['export', '--format', 'sublime', '--out', 'x'], work);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('pvfdoc: [INVALID_ARGUMENT] unknown export format "sublime" Give --format pvfutility or --format vscode-scripttags');
    const missingFormat = await pvfdoc(['export', '--out', 'x'], work);
    expect(missingFormat.code).toBe(1);
    expect(missingFormat.stderr).toContain('[INVALID_ARGUMENT] export needs --format');
    const missingOut = await pvfdoc(['export', '--format', 'pvfutility'], work);
    expect(missingOut.code).toBe(1);
    expect(missingOut.stderr).toContain('[INVALID_ARGUMENT] export needs --out <dir>');
    await writeFile(path.join(work, 'a-file'), 'x');
    const file = await pvfdoc(['export', '--format', 'pvfutility', '--out', 'a-file'], work);
    expect(file.code).toBe(1);
    expect(file.stderr).toMatch(/\[INVALID_ARGUMENT\] --out .*a-file is a file, not a folder/);
    const foreign = await pvfdoc(['export', '--format', 'pvfutility', '--out', 'ext-tags'], work);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('add --force');
    const flag = await pvfdoc(['export', '--format', 'pvfutility', '--out', 'x', '--colour'], work);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('Run "pvfdoc export --help"');
    for (const r of [unknown, missingFormat, missingOut, file, foreign]) expect(r.stdout).toBe('');
  });

  it('errors: a bad --site-url or --pvf-version, a missing --base', async () => {
    const url = await pvfdoc(['export', '--format', 'pvfutility', '--out', 'y', '--site-url', 'ftp://example.org/'], work);
    expect(url.code).toBe(1);
    expect(url.stderr).toContain('[INVALID_ARGUMENT] --site-url must be an http or https address');
    const version = await pvfdoc(['export', '--format', 'pvfutility', '--out', 'y', '--pvf-version', '70KR'], work);
    expect(version.code).toBe(1);
    expect(version.stderr).toContain('[INVALID_VERSION]');
    const base = await pvfdoc(['export', '--format', 'pvfutility', '--out', 'y', '--base', 'nowhere'], work);
    expect(base.code).toBe(1);
    expect(base.stderr).toContain('[INVALID_ARGUMENT] --base');
  });
});
