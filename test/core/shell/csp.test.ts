import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../src-main/core/shell/csp.ts';

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values]));
}

describe('contentSecurityPolicy', () => {
  it('allows scripts from the app alone, and nothing by default', () => {
    const csp = directives(contentSecurityPolicy());
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-eval|\*/);
  });

  it('opens the dev server\'s HMR socket in development, still without inline script', () => {
    const csp = directives(contentSecurityPolicy({ devServerUrl: 'http://localhost:5173/' }));
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'", 'ws://localhost:5173']);
    expect(csp.get('style-src')).toContain("'unsafe-inline'");
  });
});
