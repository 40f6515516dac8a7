import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

/** Theme colour of the manifest, the <meta name="theme-color"> and the icons (teal-700). */
export const THEME_COLOR = '#0f766e';

export default defineConfig({
  root: 'web',
  publicDir: '../public',
  build: { outDir: '../dist', emptyOutDir: true },
  server: { proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true } } },
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      // DESIGN.md section 12: 'prompt', never 'autoUpdate' (a forced reload can interrupt an edit or a sync);
      // registered from web/app/pwa.ts (no inline script, so the CSP needs no nonce).
      registerType: 'prompt',
      injectRegister: null,
      // public/ files are precached through globPatterns; listing them again would duplicate entries.
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: 'SiteCommand',
        short_name: 'SiteCommand',
        description: 'Construction project management that works with no signal.',
        // '/' is the dashboard when signed in and the landing page otherwise (/dashboard would be a 404 signed out).
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: THEME_COLOR,
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      // A worker of our own (web/sw.ts) so it can answer Background Sync; it keeps the precache, the
      // navigation fallback and the prompt-on-update the generated worker had.
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      injectManifest: {
        // The shell and every built asset; never an /api answer (the worker caches nothing at runtime).
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,txt}'],
        // A classic script: every browser with a service worker can run it, module workers or not.
        rollupFormat: 'iife',
      },
    }),
  ],
  test: {
    root: '.',
    include: ['{api,shared,sync,web,tests/unit}/**/*.test.{ts,tsx}'],
    environment: 'node',
    globalSetup: ['api/test-global-setup.ts'],
    setupFiles: ['tests/unit/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
