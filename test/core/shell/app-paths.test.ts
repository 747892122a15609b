import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userDataDirFrom } from '../../../src-main/core/shell/app-paths.ts';

describe('userDataDirFrom', () => {
  it('reads --user-data-dir=<folder>, made absolute, and nothing else', () => {
    expect(userDataDirFrom(['/opt/desk/desk', '.', '--user-data-dir=/tmp/profile-1'])).toBe(resolve('/tmp/profile-1'));
    expect(userDataDirFrom(['desk', '--user-data-dir=rel/dir'])).toBe(resolve('rel/dir'));
    expect(userDataDirFrom(['desk', '--user-data-dir='])).toBeNull();
    expect(userDataDirFrom(['desk', '--user-data-dir', '/tmp/x'])).toBeNull();
    expect(userDataDirFrom(['desk', '--hidden'])).toBeNull();
  });
});
