// Lint config: typescript-eslint plus the folder boundaries of ARCHITECTURE §2.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'site/**', 'snapshots/**', 'coverage/**'] },
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
);
