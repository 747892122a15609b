import { defineConfig } from '@playwright/test';

/**
 * Debian's Chromium is used as installed by `.ci/run`; Playwright never
 * downloads a browser here. The flags keep Chromium from calling home on a
 * machine whose network is closed.
 */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  timeout: 120_000,
  workers: 1,
  reporter: [['list']],
  use: {
    // A failure leaves a picture of the screen in test-results/ (not committed).
    screenshot: 'only-on-failure',
    launchOptions: {
      // Scrollbars as a trader sees them: the screenshots and layout checks need them drawn.
      ignoreDefaultArgs: ['--hide-scrollbars'],
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
