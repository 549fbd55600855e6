/**
 * A layer may split its rules over `annotations/*.json` (pvfdoc extension): the parts are read in
 * code-point order of their names, before annotations.json, and form one id space with it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLayers } from '../../build/load-layers.js';
import { validateLayers } from '../../build/validate-layers.js';

let root = '';
let counter = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pvfdoc-parts-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const rule = (id: string, section: string) => ({
  id,
  match: { extensions: ['.equ'] },
  target: { kind: 'section', section },
  annotation: { title: id, type: 'text' },
});

async function layerWith(files: Record<string, unknown>): Promise<string> {
  counter += 1;
  const dir = path.join(root, `layer-${counter}`);
  await mkdir(path.join(dir, 'annotations'), { recursive: true });
  await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name: `l${counter}`, kind: 'user' }));
  for (const [file, doc] of Object.entries(files)) await writeFile(path.join(dir, file), JSON.stringify(doc));
  return dir;
}

describe('annotations/*.json parts', () => {
  it('reads the parts in name order, then annotations.json, keeping each file name', async () => {
    const dir = await layerWith({
      'annotations.json': { version: 1, rules: [rule('any.c', 'c')] },
      'annotations/b.json': { version: 1, rules: [rule('b.1', 'b')] },
      'annotations/a.json': { version: 1, rules: [rule('a.1', 'a'), rule('a.2', 'a2')] },
      'annotations/notes.txt': 'ignored: not .json',
    });
    const { layers, problems } = await loadLayers([dir]);
    expect(problems).toEqual([]);
    expect(layers[0]!.rules.map((r) => [r.input.id, r.file, r.path])).toEqual([
      ['a.1', 'annotations/a.json', '$.rules[0]'],
      ['a.2', 'annotations/a.json', '$.rules[1]'],
      ['b.1', 'annotations/b.json', '$.rules[0]'],
      ['any.c', 'annotations.json', '$.rules[0]'],
    ]);
  });

  it('is a layer on its own, without annotations.json', async () => {
    const dir = await layerWith({ 'annotations/only.json': { version: 1, rules: [rule('only', 'x')] } });
    const { layers, problems } = await loadLayers([dir]);
    expect(problems).toEqual([]);
    expect(layers[0]!.rules).toHaveLength(1);
  });

  it('reports an id used in two files, naming the first file', async () => {
    const dir = await layerWith({
      'annotations/a.json': { version: 1, rules: [rule('same', 'a')] },
      'annotations/b.json': { version: 1, rules: [rule('same', 'b')] },
    });
    const { layers } = await loadLayers([dir]);
    const problems = validateLayers(layers);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'annotations/b.json', path: '$.rules[0].id' });
    expect(problems[0]!.message).toContain('annotations/a.json $.rules[0]');
  });

  it('refuses relations in a part and reports bad JSON with the part file name', async () => {
    const dir = await layerWith({
      'annotations/a.json': { version: 1, rules: [], relations: { x: { listPath: 'a.lst' } } },
    });
    await writeFile(path.join(dir, 'annotations', 'b.json'), '{"version": 1, "rules": [');
    const { problems } = await loadLayers([dir]);
    expect(problems.map((p) => [p.file, p.path])).toEqual([
      ['annotations/b.json', ''],
      ['annotations/a.json', '$.relations'],
    ]);
    expect(problems[1]!.message).toContain('lists.json');
  });
});
