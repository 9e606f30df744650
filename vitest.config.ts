import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// chDB must never load inside worker_threads (it segfaults), so every test file runs in its
// own forked process; each file opens its own embedded data directory.
export default defineConfig({
  // The web app's modules import the contracts as @contracts/* (web/vite.config.ts); its unit tests load them too.
  resolve: { alias: { '@contracts': fileURLToPath(new URL('src/contracts', import.meta.url)) } },
  test: {
    pool: 'forks',
    // One file more than cores: a file spends much of its time waiting on the engine's background
    // merges, the browser and its timers, so on 2 cores three files at once finish sooner than two
    // and no later than four (docs/benchmarks.md). At most six, as each file holds an embedded
    // engine's memory.
    maxWorkers: Math.min(availableParallelism() + 1, 6),
    // The web app's pure logic is tested beside it (web/src/**/*.test.ts), type-checked with the app.
    include: ['test/**/*.test.ts', 'web/src/**/*.test.ts'],
    // Ceilings that catch a hang, not speed claims: browser tests and properties run minutes of
    // work on a 2-core machine that CI may share.
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
