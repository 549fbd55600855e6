// npm pack / npm publish: the single-file CLI, and the builtin snapshot prebuilt next to it, so that an
// installed pvfdoc serves its builtin rules without compiling them (see docs/packaging.md).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SNAPSHOTS = path.join(ROOT, 'dist', 'builtin-snapshots');

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) {
    console.error(`prepack: failed: node ${args.join(' ')}`);
    process.exit(result.status ?? 1);
  }
}

run(['scripts/bundle-cli.mjs']);
rmSync(SNAPSHOTS, { recursive: true, force: true });
run(['dist/pvfdoc.mjs', 'build', '--out', SNAPSHOTS]);
// The CLI trusts the prebuilt snapshot only while the shipped layer hashes the same (cli/layers.ts).
run(['--import', 'tsx', '--input-type=module', '-e', `import { layerFilesHash } from './cli/layers.ts'; import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(path.join(SNAPSHOTS, 'builtin-layer.sha256'))}, layerFilesHash('rules/builtin') + '\\n');`]);
