/** Writing an export to disk: which folders are accepted, replacing an earlier export, --force, --base. */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportKnowledge, type ExportResult } from '../../../build/export/export-knowledge.js';
import { EXPORT_MARKER, readExportBase, writeExport } from '../../../build/export/write-export.js';
import { caughtAsync } from '../../support/caught.js';
import { compiledBundle } from '../../support/compiled-bundle.js';
import { makeTempDir, removeTempDirs } from '../../support/temp-dirs.js';
import { EXPORT_LAYER } from './helpers.js';

let result: ExportResult;

beforeAll(async () => {
  result = exportKnowledge(await compiledBundle([EXPORT_LAYER]), { format: 'vscode-scripttags', siteUrl: null, pvfVersion: null });
});

afterAll(removeTempDirs);

const names = (result: ExportResult) => result.files.map((f) => f.path);

describe('writeExport', () => {
  it('creates a missing folder, writes every file whole and a marker listing them, and leaves no temporary', async () => {
    const out = path.join(makeTempDir('pvfdoc-export-'), 'new', 'tags');
    const written = await writeExport(out, result, { force: false });
    expect(written.written).toEqual(names(result));
    expect((await readdir(out)).sort()).toEqual([EXPORT_MARKER, ...names(result)].sort());
    for (const file of result.files) expect(await readFile(path.join(out, file.path), 'utf8')).toBe(file.text);
    const marker = JSON.parse(await readFile(path.join(out, EXPORT_MARKER), 'utf8')) as { format: string; files: string[] };
    expect(marker).toMatchObject({ format: 'vscode-scripttags', files: names(result) });
  });

  it('accepts an empty folder', async () => {
    const out = makeTempDir('pvfdoc-export-');
    await writeExport(out, result, { force: false });
    expect(existsSync(path.join(out, 'equ.json'))).toBe(true);
  });

  it('replaces an earlier export, removing the files the new one no longer has', async () => {
    const out = makeTempDir('pvfdoc-export-');
    const bigger: ExportResult = { ...result, files: [...result.files, { path: 'old.json', ext: 'old', tags: 0, kept: 0, text: '{"tags":[]}\n' }] };
    await writeExport(out, bigger, { force: false });
    await writeFile(path.join(out, 'equ.json'), 'stale');
    const written = await writeExport(out, result, { force: false });
    expect(written.removed).toEqual(['old.json']);
    expect(existsSync(path.join(out, 'old.json'))).toBe(false);
    expect(await readFile(path.join(out, 'equ.json'), 'utf8')).toBe(result.files.find((f) => f.path === 'equ.json')?.text);
  });

  it('refuses a folder with files it did not write, and writes nothing there', async () => {
    const out = makeTempDir('pvfdoc-export-');
    await writeFile(path.join(out, 'notes.txt'), 'mine');
    const error = await caughtAsync(() => writeExport(out, result, { force: false }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('notes.txt');
    expect(error.hint).toContain('--force');
    expect(await readdir(out)).toEqual(['notes.txt']);
  });

  it('with force writes into such a folder: same names replaced, every other file left alone', async () => {
    const out = makeTempDir('pvfdoc-export-');
    await writeFile(path.join(out, 'notes.txt'), 'mine');
    await writeFile(path.join(out, 'equ.json'), 'their equ');
    await writeFile(path.join(out, 'key.json'), 'their key');
    await writeExport(out, result, { force: true });
    expect(await readFile(path.join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect(await readFile(path.join(out, 'key.json'), 'utf8')).toBe('their key');
    expect(await readFile(path.join(out, 'equ.json'), 'utf8')).not.toBe('their equ');
    // The marker owns only pvfdoc's files: the next export without --force is still refused.
    expect((await caughtAsync(() => writeExport(out, result, { force: false }))).message).toContain('key.json');
  });

  it('refuses an --out that is a file', async () => {
    const file = path.join(makeTempDir('pvfdoc-export-'), 'equ.json');
    await writeFile(file, 'x');
    const error = await caughtAsync(() => writeExport(file, result, { force: true }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('is a file');
    expect(await readFile(file, 'utf8')).toBe('x');
  });

  it('removes what a killed export left, not what a running one is writing', async () => {
    const out = makeTempDir('pvfdoc-export-');
    await writeExport(out, result, { force: false });
    // A pid that no process has (above the kernel's pid limit) and this process's own.
    const dead = path.join(out, '.equ.json.pvfdoc-tmp-4194399-0');
    const live = path.join(out, `.etc.json.pvfdoc-tmp-${process.pid}-9`);
    await writeFile(dead, 'half');
    await writeFile(live, 'half');
    await writeExport(out, result, { force: false });
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('a damaged marker claims no file', async () => {
    const out = makeTempDir('pvfdoc-export-');
    await writeExport(out, result, { force: false });
    await writeFile(path.join(out, EXPORT_MARKER), 'not json');
    expect((await caughtAsync(() => writeExport(out, result, { force: false }))).code).toBe('INVALID_ARGUMENT');
  });
});

describe('readExportBase', () => {
  it('reads the .json files of the folder by lower-cased name', async () => {
    const dir = makeTempDir('pvfdoc-export-base-');
    await writeFile(path.join(dir, 'EQU.json'), '{"tags":[]}');
    await writeFile(path.join(dir, 'readme.txt'), 'x');
    await mkdir(path.join(dir, 'sub.json'));
    expect([...(await readExportBase(dir))]).toEqual([['equ.json', '{"tags":[]}']]);
  });

  it('refuses a folder that is missing or a file', async () => {
    const dir = makeTempDir('pvfdoc-export-base-');
    for (const base of [path.join(dir, 'missing'), await writeFile(path.join(dir, 'f'), 'x').then(() => path.join(dir, 'f'))]) {
      const error = await caughtAsync(() => readExportBase(base));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain('--base');
    }
  });
});
