import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { SearchOutputSchema } from '../../runtime/search/search-schema.js';
import { GetOutputSchema } from '../../runtime/get/get-schema.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'dist/pvfdoc.mjs');

const pvfdoc = runCli;

let work: string;

beforeAll(async () => {
  // The published entry point is the esbuild bundle; test that file, not the sources.
  work = await mkdtemp(path.join(os.tmpdir(), 'pvfdoc-cli-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('pvfdoc CLI (dist/pvfdoc.mjs)', () => {
  it('builds the shipped builtin layer by default and points current at the revision', async () => {
    const result = await pvfdoc(['build'], work);
    expect(result.code).toBe(0);
    const revision = /rulesRevision ([0-9a-f]+)/.exec(result.stdout)?.[1];
    expect(revision).toMatch(/^[0-9a-f]{20}$/);
    expect((await readFile(path.join(work, 'snapshots/current'), 'utf8')).trim()).toBe(revision);
    expect(result.stdout).toMatch(/\d+ rules, \d+ fields/);
  });

  it('prints exactly the search structuredContent with --json', async () => {
    const result = await pvfdoc(['search', '--json', '--section', '[rarity]', '--pvf-version', '110US', '--extension', '.equ'], work);
    expect(result.code).toBe(0);
    const parsed = SearchOutputSchema.parse(JSON.parse(result.stdout));
    expect(parsed.items.length).toBeGreaterThan(0);
    expect(parsed.items.every((i) => i.section === 'rarity')).toBe(true);
  });

  it('prints a readable table without --json and finds Chinese by substring', async () => {
    const result = await pvfdoc(['search', '稀有'], work);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('documentId');
    expect(result.stdout).toContain('稀有度');
  });

  it('gets a document found by search, as JSON and as text', async () => {
    const search = SearchOutputSchema.parse(JSON.parse((await pvfdoc(['search', '--json', '--section', 'rarity', '--annotation-type', 'enum'], work)).stdout));
    const id = search.items[0]?.documentId ?? '';
    const json = await pvfdoc(['get', '--json', '--value', '4', id], work);
    expect(json.code).toBe(0);
    const parsed = GetOutputSchema.parse(JSON.parse(json.stdout));
    expect(parsed.valueLookup).toEqual({ key: '4', found: true, label: '史诗' });
    const text = await pvfdoc(['get', id], work);
    expect(text.stdout).toContain('values (');
  });

  it('fails with DOCUMENT_NOT_FOUND and exit 1 for an unknown documentId', async () => {
    const result = await pvfdoc(['get', 'nope'], work);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('DOCUMENT_NOT_FOUND');
  });

  it('rejects an unknown version with INVALID_VERSION naming the supported ones', async () => {
    const result = await pvfdoc(['search', '--pvf-version', '70KR'], work);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('INVALID_VERSION');
    expect(result.stderr).toContain('110US');
  });

  it('serve refuses a --site-url that is not an http(s) URL, naming it (exit 2)', async () => {
    const result = await pvfdoc(['serve', '--site-url', 'file:///C:/site/'], work);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--site-url file:///C:/site/ is not an http(s) URL');
  });

  it('exits 2 with a usage message for an unknown option', async () => {
    const result = await pvfdoc(['search', '--nope'], work);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pvfdoc search --help');
  });

  it('validates without writing and reports every problem of an invalid layer', async () => {
    const bad = path.join(work, 'bad-layer');
    await cp(path.join(ROOT, 'rules/builtin'), bad, { recursive: true });
    await writeFile(path.join(bad, 'layer.json'), JSON.stringify({ name: 'bad', kind: 'user' }));
    await writeFile(
      path.join(bad, 'annotations.json'),
      JSON.stringify({ version: 1, rules: [{ id: 'a', colour: 'red' }, { id: 'b', match: { glob: 'x/[' }, target: { kind: 'path' }, annotation: { type: 'text' } }] }),
    );
    const before = await readdir(path.join(work, 'snapshots'));
    const current = await readFile(path.join(work, 'snapshots/current'), 'utf8');
    const result = await pvfdoc(['build', '--layer', path.join(ROOT, 'rules/builtin'), '--layer', bad], work);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('colour');
    expect(result.stderr).toContain('nothing was written');
    expect(await readdir(path.join(work, 'snapshots'))).toEqual(before);
    expect(await readFile(path.join(work, 'snapshots/current'), 'utf8')).toBe(current);
    const validate = await pvfdoc(['validate', '--layer', bad], work);
    expect(validate.code).toBe(1);
  });

  it('rebuilds on change with --watch and leaves current alone when the new input is invalid', async () => {
    const layer = path.join(work, 'watched');
    await cp(path.join(ROOT, 'rules/builtin'), layer, { recursive: true });
    const out = path.join(work, 'watch-snapshots');
    const child = spawn(process.execPath, [CLI, 'build', '--watch', '--no-builtin', '--layer', layer, '--out', out], { cwd: work });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const waitFor = async (check: () => boolean, what: string) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 100));
      if (!check()) throw new Error(`timed out waiting for ${what}; stdout: ${stdout}; stderr: ${stderr}`);
    };
    try {
      await waitFor(() => stdout.includes('watching'), 'the first build');
      const first = (await readFile(path.join(out, 'current'), 'utf8')).trim();

      await writeFile(path.join(layer, 'annotations.json'), '{ "version": 1, "rules": [ }');
      await waitFor(() => stderr.includes('nothing was written'), 'the failed rebuild');
      expect((await readFile(path.join(out, 'current'), 'utf8')).trim()).toBe(first);

      const annotations = JSON.parse(await readFile(path.join(ROOT, 'rules/builtin/annotations.json'), 'utf8')) as { rules: { annotation?: { title?: string } }[] };
      const rule = annotations.rules.find((r) => r.annotation?.title);
      if (rule?.annotation) rule.annotation.title = 'changed by the watch test';
      await writeFile(path.join(layer, 'annotations.json'), JSON.stringify(annotations));
      await waitFor(() => (stdout.match(/rulesRevision/g) ?? []).length >= 2, 'the second build');
      const second = (await readFile(path.join(out, 'current'), 'utf8')).trim();
      expect(second).not.toBe(first);
    } finally {
      child.kill('SIGINT');
    }
  });
  it('keeps the builtin layer first when --layer is given, and leaves it out only with --no-builtin', async () => {
    const mine = path.join(work, 'mine');
    await mkdir(mine);
    await writeFile(path.join(mine, 'layer.json'), JSON.stringify({ name: 'mine', kind: 'user' }));
    const rule = { id: 'mine.note', match: { extensions: ['.equ'] }, target: { kind: 'section', section: 'mine' }, annotation: { title: '我的', type: 'text' } };
    await writeFile(path.join(mine, 'annotations.json'), JSON.stringify({ version: 1, rules: [rule] }));
    const both = await pvfdoc(['validate', '--layer', mine], work);
    expect(both.stdout).toMatch(/valid: 2 layer\(s\)/);
    const alone = await pvfdoc(['validate', '--no-builtin', '--layer', mine], work);
    expect(alone.stdout).toMatch(/valid: 1 layer\(s\), 1 rules/);
    const none = await pvfdoc(['validate', '--no-builtin'], work);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('drop --no-builtin');
    const missing = await pvfdoc(['build', '--layer', 'no-such-layer'], work);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`looked at ${path.join(work, 'no-such-layer')}`);
  });

  it('says when current is older than a layer it was built from, with the command that rebuilds it', async () => {
    const dir = await mkdtemp(path.join(work, 'stale-'));
    const mine = path.join(dir, 'my layer');
    await mkdir(mine);
    await writeFile(path.join(mine, 'layer.json'), JSON.stringify({ name: 'mine', kind: 'user' }));
    const rule = (title: string) => ({ version: 1, rules: [{ id: 'mine.note', match: { extensions: ['.equ'] }, target: { kind: 'section', section: 'mine' }, annotation: { title, type: 'text' } }] });
    await writeFile(path.join(mine, 'annotations.json'), JSON.stringify(rule('我的')));
    expect((await pvfdoc(['build', '--layer', 'my layer'], dir)).code).toBe(0);
    const fresh = await pvfdoc(['search', '我的'], dir);
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toBe('');
    // The layer changes after the build: the snapshot still answers, and says what to run.
    await writeFile(path.join(mine, 'annotations.json'), JSON.stringify(rule('我的新标题')));
    const stale = await pvfdoc(['search', '我的'], dir);
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain('我的');
    expect(stale.stderr).toContain(`layer ${mine} changed since`);
    expect(stale.stderr).toContain('run: npx pvfdoc build --layer "my layer"\n');
    expect((await pvfdoc(['build', '--layer', 'my layer'], dir)).code).toBe(0);
    expect((await pvfdoc(['search', '我的新标题'], dir)).stderr).toBe('');
  });

  it('search, get and explain use the builtin rules where there is no snapshot, saying so once', async () => {
    const empty = await mkdtemp(path.join(work, 'empty-'));
    const search = await pvfdoc(['search', '--json', '稀有度'], empty);
    expect(search.code).toBe(0);
    expect(search.stderr.match(/using the builtin rules shipped with pvfdoc/g)).toHaveLength(1);
    const found = SearchOutputSchema.parse(JSON.parse(search.stdout));
    expect(found.items.length).toBeGreaterThan(0);
    const get = await pvfdoc(['get', '--json', found.items[0]?.documentId ?? ''], empty);
    expect(get.code).toBe(0);
    await mkdir(path.join(empty, 'w', 'equipment'), { recursive: true });
    await writeFile(path.join(empty, 'w', 'equipment', 'a.equ'), '[rarity]\n3\n');
    const explain = await pvfdoc(['explain', '--workspace', 'w', '--file', 'equipment/a.equ'], empty);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toMatch(/\[rarity\]\s+tok0/);
    // A float whose canonical value reads as an integer says it is a float.
    await mkdir(path.join(empty, 'w', 'monster'), { recursive: true });
    await writeFile(path.join(empty, 'w', 'monster', 'm.mob'), '[hp regen rate]\n\t1.0\t0.5\n[level]\n\t10\t20\n');
    const mob = await pvfdoc(['explain', '--workspace', 'w', '--file', 'monster/m.mob'], empty);
    expect(mob.stdout).toMatch(/\[hp regen rate\]\s+tok0\s+.*\s1 \(float\)/);
    // A range rule's annotation says which tokens it covers.
    expect(mob.stdout).toMatch(/\[level\]\s+tok0-1\s/);
  });

  it('names the command to run for a current that points at a deleted snapshot, and for an unwritable folder', async () => {
    const dir = await mkdtemp(path.join(work, 'dangling-'));
    await mkdir(path.join(dir, 'snapshots'));
    await writeFile(path.join(dir, 'snapshots', 'current'), '0123456789abcdef0123\n');
    const result = await pvfdoc(['search', '稀有度'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('npx pvfdoc build');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const blocked = path.join(dir, 'file-not-folder');
    await writeFile(blocked, 'x');
    const build = await pvfdoc(['build', '--out', path.join(blocked, 'snapshots')], dir);
    expect(build.code).toBe(1);
    expect(build.stderr).toContain('--out');
    expect(build.stderr).not.toMatch(/\n\s+at /);
  });
});
