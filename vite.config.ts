import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { runnerImport, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { postgresBinDir } from './api/db/pg/cluster.ts';
import { PREPAINTED_SCREENS } from './shared/page-bootstrap.ts';

/** Theme colour of the manifest, the <meta name="theme-color"> and the icons (teal-700). */
export const THEME_COLOR = '#0f766e';

/** Text files worth compressing (images and icons are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy next to every text file of the
 * build, once: the server sends them as they are (api/serve.ts `precompressed`) instead of compressing
 * each request, and brotli at its best level is a fifth smaller than on-the-fly gzip (budget B10).
 */
function precompress(): Plugin {
  return {
    name: 'sitecommand-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const file = path.join(dir, fileName);
        const bytes = fs.readFileSync(file);
        if (bytes.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/**
 * The visitors' screens as HTML (ADR 029; the sign-in card), next to the page: the server puts one inside a
 * visitor's page at its address, so it paints as soon as the page and its stylesheet are in, not after the
 * app's code. Rendered by React from the components the app renders, so the two cannot drift apart.
 */
function prepaintScreens(): Plugin {
  return {
    name: 'sitecommand-prepaint',
    apply: 'build',
    async writeBundle(options, bundle) {
      if (!('index.html' in bundle)) return;
      for (const { source, file } of Object.values(PREPAINTED_SCREENS)) {
        const { module } = await runnerImport<{ prepaint(): string }>(
          path.resolve(import.meta.dirname, source),
          { configFile: false, logLevel: 'warn' },
        );
        const out = path.join(options.dir ?? 'dist', file);
        fs.mkdirSync(path.dirname(out), { recursive: true });
        fs.writeFileSync(out, module.prepaint());
      }
    },
  };
}

/**
 * Where a first visit starts before anyone has signed in: the entry and what it opens lazily on every page
 * (the toaster) or on a visitor's page.
 */
const BEFORE_SIGN_IN = [
  'web/main.tsx',
  'web/components/ui/toast.tsx',
  'web/features/auth/sign-in-page.tsx',
  'web/features/auth/change-password-page.tsx',
  'web/features/landing/landing-page.tsx',
  'web/features/not-found/not-found-page.tsx',
];
const SIGNED_IN_LAYOUT = 'web/app/signed-in-layout.tsx';
/** A screen's page module: what the router opens lazily for each address. */
const SCREEN_PAGE = /\/web\/features\/[^/]+\/[^/]+-page\.tsx$/;

/**
 * The chunks of a first signed-in visit. Split automatically, it asked for about 50 files, most under 2 KiB,
 * and a phone on HTTP/1.1 fetches 6 at a time: round trips of tiny files stood between the first script and
 * the first screen (budget B10). So there are two chunks besides the entry and the screen's own:
 * - 'signed-in': the layout and everything it alone needs (the device database, sync engine, schemas,
 *   shell, dialogs);
 * - 'screens': what two or more screens use and the layout does not (forms, tabs, selects, progress bars).
 * Both sets are computed from the module graph once it is built (static imports, less those reachable
 * before sign-in), so the entry and sign-in never download them and a new import needs no list kept by
 * hand. This works only if every import names the package it uses: one import of the `radix-ui` umbrella
 * reaches every Radix package, and they all counted as needed before sign-in (ADR 037).
 */
function firstVisitChunks() {
  const signedIn = new Set<string>();
  const screens = new Set<string>();
  const plugin: Plugin = {
    name: 'sitecommand-first-visit-chunks',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const reach = (roots: (string | undefined)[]) => {
        const into = new Set<string>();
        const stack = roots.filter((id) => id !== undefined);
        while (stack.length > 0) {
          const id = stack.pop()!;
          if (into.has(id)) continue;
          into.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return into;
      };
      const idOf = (file: string) => ids.find((id) => id.endsWith(`/${file}`));
      const before = reach(BEFORE_SIGN_IN.map(idOf));
      const layout = reach([idOf(SIGNED_IN_LAYOUT)]);
      const usedBy = new Map<string, number>();
      for (const page of ids.filter((id) => SCREEN_PAGE.test(id) && !before.has(id)))
        for (const id of reach([page])) if (id !== page) usedBy.set(id, (usedBy.get(id) ?? 0) + 1);
      signedIn.clear();
      screens.clear();
      for (const id of layout) if (!before.has(id)) signedIn.add(id);
      for (const [id, pages] of usedBy) if (pages >= 2 && !before.has(id) && !layout.has(id)) screens.add(id);
    },
  };
  return { plugin, signedIn: (id: string) => signedIn.has(id), screens: (id: string) => screens.has(id) };
}
const firstVisit = firstVisitChunks();

/**
 * The suites that run on PostgreSQL too: the API's, sync's and the fault suites, everything that talks to
 * the app through `createTestApp`. Not those about SQLite itself (its migrations, statement counts, the
 * file's durability) nor those that compare the two databases on their own.
 */
const POSTGRES_SUITES = [
  'api/routes/*.test.ts',
  'api/sync/*.test.ts',
  'api/mutators/{schedule-changes,table-rows}.test.ts',
  'api/{isolation,security,text-input,body-limit,compression,contract,route-table}.test.ts',
  'sync/{engine,background,photo-lane,faults,convergence,two-processes}.test.ts',
];
/** Suites about several API processes on one PostgreSQL: there is no such setup on SQLite. */
const POSTGRES_ONLY = ['sync/two-processes.test.ts'];
const NOT_ON_POSTGRES = ['api/sync/push-statements.test.ts'];

export default defineConfig({
  root: 'web',
  publicDir: '../public',
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Every icon used by two screens used to be a chunk of its own (about 15 of the 50 files of a first
        // signed-in visit, each under 1.5 KiB): a phone on HTTP/1.1 fetches 6 at a time, so the first screen
        // waited for extra round trips of tiny files (B10: LCP of /dashboard 4.2 -> 3.8 s). The app's icons
        // together are 9 KiB, loaded beside the first script (it shows a spinner icon itself). Radix parts
        // are left to the automatic split: grouped, sign-in would download all of them (38 KiB).
        codeSplitting: {
          // A group takes only the modules its test names, not their dependencies (React stays in the entry).
          includeDependenciesRecursively: false,
          groups: [
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/, priority: 2 },
            { name: 'signed-in', test: firstVisit.signedIn, priority: 1 },
            { name: 'screens', test: firstVisit.screens, priority: 1 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true } } },
  plugins: [
    firstVisit.plugin,
    react(),
    tailwindcss(),
    precompress(),
    prepaintScreens(),
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
        // A prepainted screen is a part of the page for the server to use, not a page of its own.
        globIgnores: ['prepaint/**'],
        // A classic script: every browser with a service worker can run it, module workers or not.
        rollupFormat: 'iife',
      },
    }),
  ],
  test: {
    root: '.',
    environment: 'node',
    globalSetup: ['api/test-global-setup.ts'],
    setupFiles: ['tests/unit/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['{api,shared,sync,web,tests/unit}/**/*.test.{ts,tsx}'],
          exclude: POSTGRES_ONLY,
        },
      },
      // The API, sync and fault suites again with the app on PostgreSQL (ADR 027, issue 15): a throwaway
      // cluster from Debian's package. Without the package outside CI (a developer's machine) only SQLite
      // runs; CI installs it, and there a missing package fails the run.
      ...(postgresBinDir() || process.env.CI
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: POSTGRES_SUITES,
                exclude: NOT_ON_POSTGRES,
                env: { TEST_DATABASE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
