import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The end-to-end projects as Playwright itself reads playwright.config.ts
 * (`--list`): the server project runs its own specs and the accessibility and
 * guard journeys, nothing else; the desk project runs every spec but the
 * server's.
 */
const root = join(import.meta.dirname, '..', '..');
const e2e = join(root, 'test', 'e2e');

function listed(project: string): Set<string> {
  const out = execFileSync(join(root, 'node_modules', '.bin', 'playwright'), ['test', '--list', '--project', project], { cwd: root, encoding: 'utf8' });
  return new Set([...out.matchAll(new RegExp(`\\[${project}\\] › (\\S+?\\.spec\\.ts):`, 'g'))].map((m) => m[1] as string));
}

const specsIn = (dir: string, prefix = '') => readdirSync(join(e2e, dir)).filter((f) => f.endsWith('.spec.ts')).map((f) => `${prefix}${f}`);

describe('the end-to-end projects', () => {
  it('the server project runs the server\'s specs and the accessibility and guard journeys alone', () => {
    expect([...listed('server')].sort()).toEqual([...specsIn('server', 'server/'), 'a11y.spec.ts', 'guard-journey.spec.ts'].sort());
  });

  it('the desk project runs every spec but the server\'s', () => {
    expect([...listed('desk')].sort()).toEqual(specsIn('.').sort());
  });
});
