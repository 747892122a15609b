import { test } from '@playwright/test';

/**
 * Which shell the specs run the desk in, by the Playwright project
 * (playwright.config.ts): the desk's connection bound to the page in this
 * process (`harness`, the default), or the real server process reached over
 * HTTP and its WebSocket (`server`). Specs that run in both ask
 * `startTestDesk` and `openDesk`, which follow this switch.
 */
export type DeskShell = 'harness' | 'server';

export function deskShell(): DeskShell {
  return test.info().project.metadata?.shell === 'server' ? 'server' : 'harness';
}
