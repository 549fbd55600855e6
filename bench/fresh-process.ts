/**
 * Measuring in a fresh process: a benchmark bundles itself with esbuild and runs the bundle with plain
 * `node`, as `pvfdoc serve` runs from dist/pvfdoc.mjs. The parent's generator, compiler output and tsx
 * loader (tens of MiB of heap that every garbage collection of the measured code would walk) then do
 * not count, nor its JIT state.
 */
import { spawn } from 'node:child_process';
import { build } from 'esbuild';

/** `entry` bundled for plain `node` into `outfile` (CommonJS dependencies get a require()). */
export async function bundleForNode(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return outfile;
}

/** Runs `node [nodeOptions] script args`, whose stdout is one JSON value; its stderr shows through. */
export function runJsonChild<T>(script: string, args: readonly string[], nodeOptions: readonly string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeOptions, script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the measuring process (${script} ${args.join(' ')}) exited with ${code}`));
      try {
        resolve(JSON.parse(out) as T);
      } catch (error) {
        reject(new Error(`bad output of the measuring process (${script} ${args.join(' ')}): ${out.slice(0, 500)}`, { cause: error }));
      }
    });
  });
}
