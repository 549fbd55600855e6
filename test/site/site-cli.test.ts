/**
 * `pvfdoc site` on bad input: a missing, corrupt or foreign snapshot is one clear error line and a
 * non-zero exit before Astro starts (nothing is written); a folder that is not a site is never cleared.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCurrentBundleDir } from '../../runtime/bundle/load-bundle.js';
import { pvfdoc, pvfdocOk, ROOT } from './helpers.js';

let work: string;
let good: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-site-cli-'));
  await pvfdocOk(['build', '--no-builtin', '--layer', path.join(ROOT, 'test/fixtures/layers/basic/builtin'), '--out', path.join(work, 'snapshots')]);
  good = await resolveCurrentBundleDir(path.join(work, 'snapshots'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function copyOfGood(name: string): Promise<string> {
  const dir = path.join(work, name);
  await cp(good, dir, { recursive: true });
  return dir;
}

/** Runs `pvfdoc site` and checks the failure shape every bad input shares. */
async function expectRefused(snapshot: string, pattern: RegExp): Promise<string> {
  const out = path.join(work, `out-${path.basename(snapshot)}`);
  const result = await pvfdoc(['site', '--snapshot', snapshot, '--out', out]);
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^pvfdoc: \[INVALID_BUNDLE\] /);
  expect(lines[0]).toMatch(pattern);
  // Refused before Astro started: it wrote and logged nothing.
  expect(existsSync(out)).toBe(false);
  expect(result.stdout).toBe('');
  return lines[0] as string;
}

describe('pvfdoc site refuses bad snapshots before Astro starts', () => {
  it('a missing snapshot', async () => {
    await expectRefused(path.join(work, 'nowhere'), /does not exist.*pvfdoc build/);
  });

  it('a folder that is no snapshot', async () => {
    const dir = path.join(work, 'empty');
    await mkdir(dir);
    await expectRefused(dir, /neither a bundle folder/);
  });

  it('a corrupt file', async () => {
    const dir = await copyOfGood('corrupt');
    const file = path.join(dir, 'documents.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('稀有度', '稀有值'));
    await expectRefused(dir, /documents\.json does not match the hash/);
  });

  it('a manifest that is not JSON', async () => {
    const dir = await copyOfGood('badjson');
    await writeFile(path.join(dir, 'manifest.json'), '{"schemaVersion": 2,');
    await expectRefused(dir, /manifest\.json is not valid JSON/);
  });

  it('an unknown schemaVersion', async () => {
    const dir = await copyOfGood('future');
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ ...manifest, schemaVersion: 99 }));
    await expectRefused(dir, /schemaVersion 99.*Rebuild/);
  });

  it('a current pointer to a missing revision', async () => {
    const dir = path.join(work, 'dangling');
    await mkdir(dir);
    await writeFile(path.join(dir, 'current'), 'abcdef0123456789abcd\n');
    await expectRefused(dir, /cannot be read/);
  });
});

describe('pvfdoc site output folder', () => {
  it('never clears a folder it did not build', async () => {
    const out = path.join(work, 'precious');
    await mkdir(out);
    await writeFile(path.join(out, 'keep.txt'), 'mine');
    const result = await pvfdoc(['site', '--snapshot', good, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\[INVALID_ARGUMENT\] .*not empty/);
    expect(await readdir(out)).toEqual(['keep.txt']);
  });

  it('explains its options', async () => {
    const result = await pvfdoc(['site', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--snapshot');
    expect(result.stdout).toContain('--out');
  });
});
