import { defineConfig } from '@playwright/test';

/**
 * The UI runs in browser mode (`homebody serve`) in Debian's Chromium; nothing
 * here downloads a browser. Where Electron's binary is installed, the same
 * specs also run against the desktop shell (HOMEBODY_E2E_ELECTRON=1).
 */
const chromium = process.env.HOMEBODY_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/fixtures/globalSetup.ts',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  // Each test starts its own Homebody on its own data folder and port: tests run side by side, a file's included.
  fullyParallel: true,
  workers: Number(process.env.HOMEBODY_E2E_WORKERS) || 2,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  projects: [
    { name: 'app', testIgnore: /models\.spec\.ts/ },
    // Downloads run last, on their own: a pause has to land in the middle of a transfer, which a second app busy
    // with inference on the other core made miss (the resumed download then fetched the whole file again).
    { name: 'downloads', testMatch: /models\.spec\.ts/, dependencies: ['app'] },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
