import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// E2E_PORT lets several checkouts run their browser tests side by side.
const PORT = Number(process.env.E2E_PORT ?? 3107);
const dataDir = path.join(os.tmpdir(), `sitecommand-e2e-${process.pid}`);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  retries: 0,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node node_modules/vite/bin/vite.js build --logLevel warn && node --import tsx api/server.ts',
    url: `http://localhost:${PORT}/api/auth/user`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      DATABASE_PATH: path.join(dataDir, 'e2e.db'),
      PHOTO_DIR: path.join(dataDir, 'photos'),
      PUBLIC_ORIGIN: `http://localhost:${PORT}`,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
