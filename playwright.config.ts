import { defineConfig } from '@playwright/test';

/**
 * The browser: Debian's Chromium as `.ci/run` installs it (Playwright never
 * downloads one here). CHROMIUM_PATH names another Chromium binary;
 * PLAYWRIGHT_CHANNEL names an installed browser by Playwright's channel (the
 * GitHub runners of .github/workflows/ci.yml use `chrome`, which all three
 * of their images carry). The flags keep the browser from calling home on a
 * machine whose network is closed.
 */
const browser = process.env.CHROMIUM_PATH
  ? { executablePath: process.env.CHROMIUM_PATH }
  : process.env.PLAYWRIGHT_CHANNEL
    ? { channel: process.env.PLAYWRIGHT_CHANNEL }
    : { executablePath: '/usr/bin/chromium' };

/** Specs by their path under test/e2e/ (Playwright matches a pattern against a spec's absolute path). */
const SERVER_SPECS = /[\\/]test[\\/]e2e[\\/]server[\\/][^\\/]+\.spec\.ts$/;
const E2E_SPEC = (name: string) => new RegExp(`[\\\\/]test[\\\\/]e2e[\\\\/]${name}\\.spec\\.ts$`);

/**
 * Two projects: `desk` drives the built renderer bound to the desk's
 * connection in the test's process (the desktop shell's arrangement,
 * without Electron); `server` starts the real server (`out/main/serve.cjs`)
 * as a child process and drives it over HTTP and its WebSocket: its own
 * specs (test/e2e/server/), and the accessibility and guard journeys again,
 * switched by the project's `shell` (test/e2e/shell.ts).
 */
export default defineConfig({
  testDir: 'test/e2e',
  projects: [
    // Each pattern names test/e2e/: a checkout in a folder called `server` must not match them all.
    { name: 'desk', testIgnore: [SERVER_SPECS] },
    { name: 'server', testMatch: [SERVER_SPECS, E2E_SPEC('a11y'), E2E_SPEC('guard-journey')], metadata: { shell: 'server' } },
  ],
  outputDir: 'test-results',
  timeout: 120_000,
  // Two specs at once: each drives its own desk, simulator and browser on
  // ports and folders of its own, and on the two-core CI machine the run
  // takes 9 minutes instead of 13 (docs/testing.md). The performance spec's
  // figures are read from it run alone (docs/performance.md), not from this run.
  workers: 2,
  reporter: [['list']],
  use: {
    // A failure leaves a picture of the screen in test-results/ (not committed), and with
    // PLAYWRIGHT_TRACE=1 (the GitHub workflow) a trace; off by default, as recording
    // slows the pages the performance spec measures.
    screenshot: 'only-on-failure',
    trace: process.env.PLAYWRIGHT_TRACE === '1' ? 'retain-on-failure' : 'off',
    launchOptions: {
      ...browser,
      // Scrollbars as a trader sees them: the screenshots and layout checks need them drawn.
      ignoreDefaultArgs: ['--hide-scrollbars'],
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
