import { describe, expect, it } from 'vitest';
import { accountLabel } from '../../../src-renderer/src/lib/accounts.ts';

describe('account labels', () => {
  it('reads main as “main” and a linked account by its last four digits', () => {
    expect(accountLabel('76561198000000001', '76561198000000001')).toBe('main');
    expect(accountLabel('76561198000000002', '76561198000000001')).toBe('linked …0002');
  });
});
