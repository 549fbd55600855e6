import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION } from '../runtime/bundle/constants.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

describe('project checks', () => {
  it('type-checks the whole tree', async () => {
    await expect(run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', ROOT], { cwd: ROOT })).resolves.toBeDefined();
  });

  it('lints clean', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const results = await eslint.lintFiles(['.']);
    const messages = results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${path.relative(ROOT, r.filePath)}:${m.line} ${m.message}`));
    expect(messages).toEqual([]);
  });

  it('refuses an import of build/ from runtime/', async () => {
    // Linted as text under a path inside runtime/: nothing is written into the source tree.
    const filePath = path.join(ROOT, 'runtime/__boundary_probe__/probe.ts');
    const code = "import { compileLayers } from '../../build/compile-layers.js';\nexport const probe = compileLayers;\n";
    const [result] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath });
    expect(result?.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
  });

  it('has no test that reads the folder beside the checkout (no user has it; tests use copies in test/fixtures)', async () => {
    // Built from parts so that this file does not name the folder it forbids.
    const beside = new RegExp(`\\.\\./${'sha'}red\\b|['"\`/]${'sha'}red/(fixtures|corpus|sources|docs)\\b`);
    const { stdout } = await run('git', ['ls-files', '-co', '--exclude-standard', 'test', 'vitest.config.ts'], { cwd: ROOT });
    const offenders: string[] = [];
    for (const file of stdout.split('\n').filter((f) => /\.(ts|mts|js|mjs)$/.test(f))) {
      const text = await readFile(path.join(ROOT, file), 'utf8');
      if (beside.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });

  it('names only files that exist in the change table of docs/architecture.md', async () => {
    const doc = await readFile(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## Where each common change goes'), doc.indexOf('## Rules the code keeps'));
    const named = [...table.matchAll(/`((?:runtime|build|site|cli)\/[^`<>*]+\.(?:ts|json|astro))`/g)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const file of named) {
      await readFile(path.join(ROOT, file)).catch(() => missing.push(file));
    }
    expect(missing).toEqual([]);
  });

  it('reports the package version as the engine version', async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(ENGINE_VERSION).toBe(pkg.version);
  });
});
