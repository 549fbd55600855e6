import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
    const dir = path.join(ROOT, 'runtime/__boundary_probe__');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'probe.ts');
    try {
      await writeFile(file, "import { compileLayers } from '../../build/compile-layers.js';\nexport const probe = compileLayers;\n");
      const [result] = await new ESLint({ cwd: ROOT }).lintFiles([file]);
      expect(result?.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports the package version as the engine version', async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(ENGINE_VERSION).toBe(pkg.version);
  });
});
