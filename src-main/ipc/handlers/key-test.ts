import type { KeyTester } from '../../core/key/key-test.ts';
import type { Handlers } from '../router.ts';
import type { DeskViews } from '../views.ts';

/**
 * "Test key": the test asks the service once through a scheduler
 * and never rejects (its result says what went wrong); the reply is the key's
 * status with that result in it, as every other key reply is.
 */
export function keyTestHandlers(services: { readonly keyTest: Pick<KeyTester, 'test'> }, views: DeskViews): Pick<Handlers, 'key:test'> {
  return {
    'key:test': async () => {
      await services.keyTest.test();
      return views.key();
    },
  };
}
