/**
 * A user layer written for one test: layer.json and one annotations.json in a temp folder of the test
 * file (removed by removeTempDirs in its afterAll).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { loadLayers } from '../../build/load-layers.js';
import type { Problem } from '../../build/problems.js';
import { validateLayers } from '../../build/validate-layers.js';
import { makeTempDir } from './temp-dirs.js';

type Json = Record<string, unknown>;

/** The layer's folder; the layer is named after it unless `name` is given (names must differ in a stack). */
export async function writeRuleLayer(rules: readonly Json[], fields: readonly Json[] = [], name?: string): Promise<string> {
  const dir = makeTempDir('pvfdoc-rule-layer-');
  await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name: name ?? path.basename(dir), kind: 'user' }));
  await writeFile(path.join(dir, 'annotations.json'), JSON.stringify({ version: 1, fields, rules }));
  return dir;
}

/** The validation problems of one such layer (it must load without a shape error). */
export async function validateRules(rules: readonly Json[]): Promise<Problem[]> {
  const { layers, problems } = await loadLayers([await writeRuleLayer(rules)]);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  return validateLayers(layers);
}

/** Matches an error of that layer's annotations.json at `jsonPath` whose message holds `fragment`. */
export function problemAt(jsonPath: string, fragment: string): unknown {
  return expect.objectContaining({ severity: 'error', file: 'annotations.json', path: jsonPath, message: expect.stringContaining(fragment) });
}
