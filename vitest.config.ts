import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}'],
    // node-llama-cpp and better-sqlite3 are native addons: run each file in its own process.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    globalSetup: ['./src-main/testing/globalSetup.ts'],
  },
});
