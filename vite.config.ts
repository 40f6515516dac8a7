import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: 'web',
  publicDir: '../public',
  build: { outDir: '../dist', emptyOutDir: true },
  server: { proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true } } },
  test: {
    root: '.',
    include: ['{api,shared,sync,web,tests/unit}/**/*.test.{ts,tsx}'],
    environment: 'node',
    globalSetup: ['api/test-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
