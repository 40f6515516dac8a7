import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * An Op (api/db/op.ts) is a generator: called without `yield*` (or a runner) it does nothing at all, and
 * nothing else would say so. Reports a call whose Op is dropped.
 */
const noFloatingOp = {
  meta: {
    type: 'problem',
    messages: { floating: 'This Op never runs: `yield*` it (or run it with runSync/runAsync).' },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    const isGenerator = (type) =>
      type.isUnion() ? type.types.some(isGenerator) : type.getSymbol()?.getName() === 'Generator';
    return {
      ExpressionStatement(node) {
        const expr = node.expression;
        if (expr.type !== 'CallExpression') return;
        if (isGenerator(services.getTypeAtLocation(expr))) context.report({ node, messageId: 'floating' });
      },
    };
  },
};

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
          paths: [
            {
              name: 'radix-ui',
              message:
                "Import the Radix package itself (@radix-ui/react-dialog): the umbrella reaches every Radix package, so the build's first-visit chunks took them all for sign-in's (vite.config.ts, ADR 037).",
            },
          ],
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
    // The data layer's Ops (ADR 027), checked with types: an Op or a statement's answer (a promise on
    // PostgreSQL) must not be dropped. An Op may run no statement at all: that is not a mistake.
    files: ['api/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { sitecommand: { rules: { 'no-floating-op': noFloatingOp } } },
    rules: {
      'require-yield': 'off',
      'sitecommand/no-floating-op': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    files: ['**/*.test.ts', 'tests/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
