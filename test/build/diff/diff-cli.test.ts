import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotDiffSchema } from '../../../runtime/diff/diff-schema.js';
import { autoColor } from '../../../cli/commands/diff.js';
import { FIXTURES, layerDirs, ROOT } from './helpers.js';

const run = promisify(execFile);
// dist/pvfdoc.mjs is built once per test run by test/global-setup.ts.
const CLI = path.join(ROOT, 'dist/pvfdoc.mjs');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function pvfdoc(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const layerArgs = (scenario: string) => [
  ...layerDirs(scenario, 'old').flatMap((d) => ['--old-layer', d]),
  ...layerDirs(scenario, 'new').flatMap((d) => ['--new-layer', d]),
];

let work: string;
let oldRevision: string;
let newRevision: string;

async function build(scenario: string, side: 'old' | 'new'): Promise<string> {
  const result = await pvfdoc(['build', '--no-builtin', ...layerDirs(scenario, side).flatMap((d) => ['--layer', d]), '--out', 'snapshots'], work);
  expect(result.code).toBe(0);
  const revision = /rulesRevision ([0-9a-f]+)/.exec(result.stdout)?.[1];
  if (!revision) throw new Error(result.stdout + result.stderr);
  return revision;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-diff-cli-'));
  oldRevision = await build('user-override-added', 'old');
  newRevision = await build('user-override-added', 'new');
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('pvfdoc diff (dist/pvfdoc.mjs)', () => {
  it('nothing changed: empty output and exit 0, with and without --exit-code', async () => {
    for (const extra of [[], ['--exit-code'], ['--format', 'md', '--exit-code']]) {
      const result = await pvfdoc(['diff', ...layerArgs('nothing-changed'), ...extra], work);
      expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    }
    const json = await pvfdoc(['diff', ...layerArgs('nothing-changed'), '--format', 'json', '--exit-code'], work);
    expect(json.code).toBe(0);
    expect(SnapshotDiffSchema.parse(JSON.parse(json.stdout)).hasChanges).toBe(false);
  });

  it('changes: exit 0 by default, 1 with --exit-code', async () => {
    const plain = await pvfdoc(['diff', ...layerArgs('rule-added')], work);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('+ rule r.price (builtin) "售价"');
    const strict = await pvfdoc(['diff', ...layerArgs('rule-added'), '--exit-code'], work);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe(plain.stdout);
    expect(strict.stderr).toBe('');
  });

  it('diffs two revisions of a snapshots folder, by unique prefix, by folder and with "current"', async () => {
    const byRevision = await pvfdoc(['diff', oldRevision, newRevision, '--snapshots', 'snapshots'], work);
    expect(byRevision.code).toBe(0);
    expect(byRevision.stdout).toContain(`snapshot diff ${oldRevision} → ${newRevision}`);
    expect(byRevision.stdout).toContain('status: effective → overridden');
    const byPrefix = await pvfdoc(['diff', oldRevision.slice(0, 8), newRevision.slice(0, 8)], work);
    expect(byPrefix.stdout).toBe(byRevision.stdout);
    const byFolder = await pvfdoc(['diff', path.join('snapshots', oldRevision), path.join(work, 'snapshots', newRevision)], work);
    expect(byFolder.stdout).toBe(byRevision.stdout);
    // The last build pointed current at the new revision.
    const current = await pvfdoc(['diff', oldRevision, 'current', '--exit-code'], work);
    expect(current.code).toBe(1);
    expect(current.stdout).toBe(byRevision.stdout);
    // A snapshots folder stands for its current revision.
    const folder = await pvfdoc(['diff', oldRevision, 'snapshots'], work);
    expect(folder.stdout).toBe(byRevision.stdout);
  });

  it('mixes a bundle side with a layers side', async () => {
    const result = await pvfdoc(['diff', oldRevision, ...layerDirs('user-override-added', 'new').flatMap((d) => ['--new-layer', d]), '--format', 'json'], work);
    expect(result.code).toBe(0);
    const diff = SnapshotDiffSchema.parse(JSON.parse(result.stdout));
    expect(diff.new.rulesRevision).toBe(newRevision);
    expect(diff.summary.documents).toEqual({ added: 1, removed: 0, moved: 0, changed: 1 });
  });

  it('prints Markdown and JSON', async () => {
    const md = await pvfdoc(['diff', oldRevision, newRevision, '--format', 'md'], work);
    expect(md.stdout.startsWith('# Snapshot diff\n')).toBe(true);
    expect(md.stdout).toContain('### Effective state');
    const json = await pvfdoc(['diff', oldRevision, newRevision, '--format', 'json'], work);
    const diff = SnapshotDiffSchema.parse(JSON.parse(json.stdout));
    expect(diff.old.rulesRevision).toBe(oldRevision);
  });

  it('--color auto: colour on a terminal unless NO_COLOR is set or TERM is dumb', () => {
    expect(autoColor(true, {})).toBe(true);
    expect(autoColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(autoColor(true, { NO_COLOR: '' })).toBe(true);
    expect(autoColor(true, { TERM: 'dumb' })).toBe(false);
    expect(autoColor(false, {})).toBe(false);
  });

  it('colours text only on request or on a terminal (piped output is plain)', async () => {
    const piped = await pvfdoc(['diff', oldRevision, newRevision], work);
    expect(piped.stdout).not.toContain('\u001b[');
    const always = await pvfdoc(['diff', oldRevision, newRevision, '--color', 'always'], work, { NO_COLOR: '1' });
    expect(always.stdout).toContain('\u001b[32m+ rule r.name');
    const never = await pvfdoc(['diff', oldRevision, newRevision, '--color', 'never'], work);
    expect(never.stdout).toBe(piped.stdout);
  });

  describe('bad input: one clear line on stderr and exit 2', () => {
    it('a missing side', async () => {
      const missing = await pvfdoc(['diff', 'no-such-bundle', newRevision], work);
      expect(missing.code).toBe(2);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toContain('old side "no-such-bundle" is neither a bundle folder');
      const missingNew = await pvfdoc(['diff', oldRevision, 'deadbeef'], work);
      expect(missingNew.code).toBe(2);
      expect(missingNew.stderr).toContain('new side "deadbeef"');
      const onlyOne = await pvfdoc(['diff', oldRevision], work);
      expect(onlyOne.code).toBe(2);
      expect(onlyOne.stderr).toContain('the new side is missing');
      const none = await pvfdoc(['diff', '--exit-code'], work);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('the old side is missing');
    });

    it('two bundles of different schemaVersion: says which, and stops', async () => {
      const other = path.join(work, 'old-schema');
      await cp(path.join(work, 'snapshots', oldRevision), other, { recursive: true });
      const manifestPath = path.join(other, 'manifest.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { schemaVersion: number };
      const current = manifest.schemaVersion;
      manifest.schemaVersion = current - 1;
      await writeFile(manifestPath, `${JSON.stringify(manifest)}\n`);
      const result = await pvfdoc(['diff', other, newRevision, '--exit-code'], work);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`the old side (${other}) has schemaVersion ${current - 1}`);
      expect(result.stderr).toContain(`the new side (${path.join('snapshots', newRevision)}) has schemaVersion ${current}`);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      // Against layers compiled now (the current schema version) too.
      const layers = await pvfdoc(['diff', other, ...layerDirs('user-override-added', 'new').flatMap((d) => ['--new-layer', d])], work);
      expect(layers.code).toBe(2);
      expect(layers.stderr).toContain('compiled from its layers');
    });

    it('a corrupt bundle: names the file', async () => {
      const corrupt = path.join(work, 'corrupt');
      await cp(path.join(work, 'snapshots', newRevision), corrupt, { recursive: true });
      const documentsPath = path.join(corrupt, 'documents.json');
      await writeFile(documentsPath, (await readFile(documentsPath, 'utf8')).replace('装备名称', '装备名字'));
      const result = await pvfdoc(['diff', oldRevision, corrupt, '--exit-code'], work);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/\[INVALID_BUNDLE\] new side .*corrupt: bundle file documents\.json does not match the hash/);
      // A manifest that is not JSON.
      await writeFile(path.join(corrupt, 'manifest.json'), '{ not json');
      const manifest = await pvfdoc(['diff', corrupt, oldRevision], work);
      expect(manifest.code).toBe(2);
      expect(manifest.stderr).toContain('manifest.json is not valid JSON');
    });

    it('layers that do not compile: the problems, then the error', async () => {
      const bad = path.join(ROOT, 'test/fixtures/layers/invalid-json/builtin');
      const result = await pvfdoc(['diff', '--old-layer', bad, ...layerDirs('rule-added', 'new').flatMap((d) => ['--new-layer', d])], work);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('error:');
      expect(result.stderr).toContain('[INVALID_RULES] old side: the layers');
      const missingLayer = await pvfdoc(['diff', '--old-layer', path.join(FIXTURES, 'nope'), '--new-layer', path.join(FIXTURES, 'nope')], work);
      expect(missingLayer.code).toBe(2);
    });

    it('bad options', async () => {
      for (const args of [
        ['diff', oldRevision, newRevision, '--format', 'html'],
        ['diff', oldRevision, newRevision, '--color', 'sometimes'],
        ['diff', oldRevision, newRevision, '--values', 'many'],
        ['diff', oldRevision, newRevision, 'third'],
        ['diff', '--bogus'],
      ]) {
        const result = await pvfdoc(args, work);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toMatch(/^pvfdoc: diff: /);
      }
    });
  });

  it('has help, and is listed by pvfdoc --help', async () => {
    const help = await pvfdoc(['diff', '--help'], work);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--exit-code');
    const top = await pvfdoc(['--help'], work);
    expect(top.stdout).toMatch(/\n {2}diff {6}/);
  });
});
