/**
 * A user layer written for one test: layer.json and one annotations.json in a temp folder of the test
 * file (removed by removeTempDirs in its afterAll).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir } from './temp-dirs.js';

type Json = Record<string, unknown>;

/** The layer's folder; the layer is named after it unless `name` is given (names must differ in a stack). */
export async function writeRuleLayer(rules: readonly Json[], fields: readonly Json[] = [], name?: string): Promise<string> {
  const dir = makeTempDir('pvfdoc-rule-layer-');
  await writeFile(path.join(dir, 'layer.json'), JSON.stringify({ name: name ?? path.basename(dir), kind: 'user' }));
  await writeFile(path.join(dir, 'annotations.json'), JSON.stringify({ version: 1, fields, rules }));
  return dir;
}
