import { defineConfig } from 'vitest/config';

// chDB must never load inside worker_threads (it segfaults), so every test file runs in its
// own forked process; each file opens its own embedded data directory.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
