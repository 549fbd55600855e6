/**
 * The layers of runtime/ (runtime/layers.json, read by eslint.config.js; docs/architecture.md): the code follows
 * the table, the table runs one way, and the lint rule built from it fires for every import it
 * forbids — so a violation fails `npm test` twice, once here and once in the lint check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNTIME = path.join(ROOT, 'runtime');
const layers = JSON.parse(readFileSync(path.join(RUNTIME, 'layers.json'), 'utf8')) as Record<string, readonly string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The runtime/ folder a file lies in, "" for runtime/ itself, null outside runtime/. */
function folderOf(file: string): string | null {
  const relative = path.relative(RUNTIME, file);
  if (relative.startsWith('..')) return null;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? (parts[0] as string) : '';
}

/** Every import between two folders of runtime/: `from → to` with the importing file. */
function folderImports(): { from: string; to: string; file: string }[] {
  const edges: { from: string; to: string; file: string }[] = [];
  for (const file of sourceFiles(RUNTIME)) {
    const from = folderOf(file) as string;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const to = folderOf(path.resolve(path.dirname(file), match[1] as string));
      if (to !== null && to !== from) edges.push({ from, to, file: path.relative(ROOT, file) });
    }
  }
  return edges;
}

describe('runtime layers', () => {
  it('names every folder of runtime/ in the table, and nothing else', () => {
    const folders = readdirSync(RUNTIME, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(Object.keys(layers).sort()).toEqual(folders);
  });

  it('the table runs one way (each folder lists only folders above it in the table)', () => {
    const order = Object.keys(layers);
    for (const [folder, allowed] of Object.entries(layers)) {
      for (const below of allowed) expect(order.indexOf(below), `${folder} → ${below}`).toBeLessThan(order.indexOf(folder));
    }
  });

  it('every import between folders is one the table allows; runtime/errors.ts imports no folder', () => {
    const violations = folderImports()
      .filter(({ from, to }) => (from === '' ? true : to !== '' && !(layers[from] ?? []).includes(to)))
      .map(({ from, to, file }) => `${file}: ${from || 'runtime'} → ${to || 'runtime'}`);
    expect(violations).toEqual([]);
  });

  it('no two folders import each other, and the archive readers import only the bottom layer', () => {
    const edges = new Set(folderImports().map(({ from, to }) => `${from}→${to}`));
    const pairs = [...edges].filter((edge) => {
      const [from, to] = edge.split('→');
      return edges.has(`${to}→${from}`);
    });
    expect(pairs).toEqual([]);
    for (const reader of ['classic', 'nkpi']) {
      expect([...edges].filter((e) => e.startsWith(`${reader}→`) && e !== `${reader}→script` && e !== `${reader}→`)).toEqual([]);
    }
  });

  it('the lint rule fires for every import the table forbids, and only for those', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const folders = Object.keys(layers);
    const missed: string[] = [];
    const overreached: string[] = [];
    for (const folder of folders) {
      // Linted as text under a path inside the folder: nothing is written into the source tree.
      const filePath = path.join(RUNTIME, folder, '__layer_probe__.ts');
      for (const other of folders.filter((o) => o !== folder)) {
        const code = `import { probe } from '../${other}/probe.js';\nexport const value = probe;\n`;
        const [result] = await eslint.lintText(code, { filePath });
        const fired = result?.messages.some((m) => m.ruleId === 'no-restricted-imports') ?? false;
        const allowed = (layers[folder] ?? []).includes(other);
        if (!allowed && !fired) missed.push(`${folder} → ${other}`);
        if (allowed && fired) overreached.push(`${folder} → ${other}`);
      }
    }
    const [root] = await eslint.lintText("import { probe } from './script/probe.js';\nexport const value = probe;\n", { filePath: path.join(RUNTIME, '__layer_probe__.ts') });
    expect(root?.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
    expect(missed).toEqual([]);
    expect(overreached).toEqual([]);
  });
});
