import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'data',
      'api/db/migrations',
      'api/db/migrations-pg',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The device code (sync/, web/) reaches the server only over the wire: its row and response types come
    // from shared/ (shared/schemas/wire.ts, shared/sync-protocol.ts), never from api/ (not even types: the
    // drizzle rows carry server-only columns). Tests may start the real API.
    files: ['sync/**/*.{ts,tsx}', 'web/**/*.{ts,tsx}', 'shared/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'sync/test-support.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(#api/|(\\.\\./)+api/)',
              message: 'sync/, web/ and shared/ must not import api/: take wire types from shared/.',
            },
          ],
        },
      ],
    },
  },
  {
    // An Op (api/db/op.ts) is a generator, and one may run no statement at all: that is not a mistake.
    files: ['api/**/*.ts'],
    rules: { 'require-yield': 'off' },
  },
  {
    files: ['**/*.test.ts', 'tests/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
