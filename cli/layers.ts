import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The builtin layer shipped with pvfdoc: found by walking up from this file, which works from the
 * sources (cli/) and from the single-file build (dist/). Null only in a broken install.
 */
export function builtinLayerDir(): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'rules', 'builtin');
    if (existsSync(path.join(candidate, 'layer.json'))) return candidate;
    dir = path.dirname(dir);
  }
  return null;
}

/**
 * The layers a command compiles: the builtin layer first (unless `noBuiltin`), then each `--layer` in
 * the order given. A `--layer` naming the builtin folder itself is not added twice, so the habit of
 * writing `--layer rules/builtin` keeps working.
 */
export function layerList(
  given: readonly string[] | undefined,
  noBuiltin: boolean | undefined,
  builtin: string | null = noBuiltin ? null : builtinLayerDir(),
  paths: path.PlatformPath = path,
): string[] {
  const out = builtin ? [builtin] : [];
  const same = paths.sep === '\\' ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase() : (a: string, b: string) => a === b;
  for (const dir of given ?? []) {
    if (builtin !== null && same(paths.resolve(dir), paths.resolve(builtin))) continue;
    out.push(dir);
  }
  return out;
}

/**
 * SHA-256 over every file below a layer folder (relative "/" path, NUL, bytes; in code-point order of
 * the paths): what a prebuilt snapshot of the layer was built from. Reading and hashing the builtin
 * layer takes a few milliseconds; parsing and validating it is what costs.
 */
export function layerFilesHash(dir: string): string {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  walk('');
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(path.join(dir, file)));
  return hash.digest('hex');
}
