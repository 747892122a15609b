import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  test: {
    // Vitest's default is one file per core less one: a single file at a time on
    // the two-core CI machine. Most of the long files wait on a scaled clock and
    // the simulator rather than compute, so two at once halves the run
    // (844 s → 464 s there) without slowing either (docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**', 'test/e2e/**', 'node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [vue()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['test/renderer/**/*.test.ts'],
        },
      },
    ],
  },
});
