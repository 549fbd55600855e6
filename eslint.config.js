// Lint config: typescript-eslint plus the folder boundaries of ARCHITECTURE §2.
import tseslint from 'typescript-eslint';

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
  {
    // runtime/ serves bundles and never loads the compiler.
    files: ['runtime/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/build/**', '../build', '../../build'], message: 'runtime/ must not import build/ (ARCHITECTURE §2).' }] },
      ],
    },
  },
  {
    // build/ may use the bundle format and shared runtime helpers, never the CLI.
    files: ['build/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/cli/**'], message: 'build/ must not import cli/.' }] }],
    },
  },
  {
    // site/ renders a bundle: it reads it through the bundle reader and the search code of runtime/ only.
    files: ['site/**/*.ts', 'site/**/*.mjs'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/build/**', '**/cli/**'], message: 'site/ must not import build/ or cli/ (ARCHITECTURE §2).' },
            { regex: '^(\\.\\./)+runtime/(?!bundle/|search/)', message: 'site/ imports only runtime/bundle and runtime/search (ARCHITECTURE §2).' },
          ],
        },
      ],
    },
  },
);
