// Lint config: typescript-eslint plus the folder boundaries of docs/architecture.md.
import { readFileSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/**
 * What each folder of runtime/ may import besides runtime/errors.ts and itself, bottom layer first
 * (runtime/layers.json, explained in docs/architecture.md). test/runtime/layers.test.ts checks the
 * code against the same table and that the rule built here fires for every import it forbids.
 */
const RUNTIME_LAYERS = JSON.parse(readFileSync(new URL('./runtime/layers.json', import.meta.url), 'utf8'));

const BUILD_PATTERN = { group: ['**/build/**', '../build', '../../build'], message: 'runtime/ must not import build/: it serves bundles and never loads the compiler.' };

function runtimeLayerBlocks() {
  const folders = Object.keys(RUNTIME_LAYERS);
  const blocks = [
    // Any file of runtime/, also in a folder the table does not know yet.
    { files: ['runtime/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [BUILD_PATTERN] }] } },
    {
      // runtime/errors.ts is below every folder.
      files: ['runtime/*.ts'],
      rules: { 'no-restricted-imports': ['error', { patterns: [BUILD_PATTERN, { regex: '^\\./[a-z-]+/', message: 'runtime/errors.ts is the lowest module: it imports no folder of runtime/.' }] }] },
    },
  ];
  for (const folder of folders) {
    const allowed = RUNTIME_LAYERS[folder];
    const forbidden = folders.filter((other) => other !== folder && !allowed.includes(other));
    const patterns = [BUILD_PATTERN];
    if (forbidden.length > 0) {
      patterns.push({
        regex: `^(\\.\\./)+(${forbidden.join('|')})/`,
        message: `runtime/${folder}/ may import only ${allowed.length > 0 ? allowed.map((a) => `runtime/${a}/`).join(', ') + ' and ' : ''}runtime/errors.ts (docs/architecture.md).`,
      });
    }
    blocks.push({ files: [`runtime/${folder}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } });
  }
  return blocks;
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'site/dist/**', 'site/.astro/**', 'site/node_modules/**', 'snapshots/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...runtimeLayerBlocks(),
  {
    // build/ may use the bundle format and shared runtime helpers, never the CLI.
    files: ['build/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/cli/**'], message: 'build/ must not import cli/.' }] }],
    },
  },
  {
    // site/ renders a bundle: it reads it through the bundle reader, the search code and the diff schema of runtime/ only.
    files: ['site/**/*.ts', 'site/**/*.mjs'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/build/**', '**/cli/**'], message: 'site/ must not import build/ or cli/ (ARCHITECTURE §2).' },
            { regex: '^(\\.\\./)+runtime/(?!bundle/|search/|diff/diff-schema)', message: 'site/ imports only runtime/bundle, runtime/search and the diff schema (docs/architecture.md).' },
          ],
        },
      ],
    },
  },
);
