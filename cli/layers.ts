import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Layers to use when none are given: ./rules/builtin of the current folder, else the builtin layer
 * shipped with pvfdoc (found by walking up from this file, which works from source and from dist/).
 */
export function defaultLayers(): string[] {
  const local = path.resolve('rules/builtin');
  if (existsSync(path.join(local, 'layer.json'))) return [local];
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'rules', 'builtin');
    if (existsSync(path.join(candidate, 'layer.json'))) return [candidate];
    dir = path.dirname(dir);
  }
  return [];
}
