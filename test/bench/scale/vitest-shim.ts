/**
 * What the Electron double (`test/desktop/fake-electron.ts`) and its
 * helpers take from vitest, for a bench process that runs without the test
 * runner: loading vitest itself would add ~13 MB to the process measured.
 * Recording mocks and a failing `expect.fail`, nothing more.
 */
export interface MockFn {
  (...args: unknown[]): unknown;
  mock: { calls: unknown[][] };
  mockClear(): void;
  mockReset(): void;
  mockReturnValue(value: unknown): void;
}

function fn(impl?: (...args: never[]) => unknown): MockFn {
  let current: ((...args: never[]) => unknown) | undefined = impl;
  const mock = { calls: [] as unknown[][] };
  const called = (...args: unknown[]): unknown => {
    mock.calls.push(args);
    return current ? Reflect.apply(current, undefined, args) : undefined;
  };
  return Object.assign(called, {
    mock,
    mockClear: () => void (mock.calls = []),
    mockReset: () => {
      mock.calls = [];
      current = undefined;
    },
    mockReturnValue: (value: unknown) => void (current = () => value),
  });
}

export const vi = { fn };

export const expect = {
  fail(message: string): never {
    throw new Error(message);
  },
};
