import { describe, expect, it } from 'vitest';
import { checkBaseUrl, isLoopbackHost } from '../../../src-main/core/api/base-url.ts';
import { createMarketplaceClient } from '../../../src-main/core/api/client.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';

describe('base URL check', () => {
  it.each([
    ['https://market.example', 'https://market.example', ''],
    ['https://market.example/prefix/', 'https://market.example', '/prefix'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080', ''],
    ['http://127.10.20.30', 'http://127.10.20.30', ''],
    ['http://[::1]:9000', 'http://[::1]:9000', ''],
    ['http://localhost:3000', 'http://localhost:3000', ''],
    ['http://LOCALHOST', 'http://localhost', ''],
  ])('accepts %s', (input, origin, pathPrefix) => {
    expect(checkBaseUrl(input)).toEqual({ origin, pathPrefix });
  });

  it.each([
    ['http://market.example', 'https://'],
    ['http://128.0.0.1', 'https://'],
    ['http://0.0.0.0', 'https://'],
    ['http://localhost.market.example', 'https://'],
    ['http://[::2]', 'https://'],
    ['ftp://127.0.0.1', 'https://'],
    ['ws://localhost', 'https://'],
    ['https://user:secret@market.example', 'user name or password'],
    ['http://user@127.0.0.1', 'user name or password'],
    ['https://market.example/?x=1', 'query string'],
    ['not a url', 'not a valid URL'],
  ])('refuses %s', (input, reason) => {
    let error: unknown;
    try {
      checkBaseUrl(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('invalid');
    expect((error as ApiError).message).toContain(reason);
    expect((error as ApiError).message).not.toContain('secret');
  });

  it('is applied when the client is built, before any key is read', () => {
    let reads = 0;
    const build = () =>
      createMarketplaceClient({
        baseUrl: 'http://market.example',
        apiKey: async () => {
          reads += 1;
          return 'k';
        },
      });
    expect(build).toThrow(ApiError);
    expect(reads).toBe(0);
  });

  it('knows loopback hosts', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('127.255.255.255')).toBe(true);
    expect(isLoopbackHost('127.0.0.256')).toBe(false);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(false); // URL.hostname keeps the brackets
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });
});
