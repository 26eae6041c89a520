import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "docs/**/*.test.ts"],
    testTimeout: 30_000,
    // PostgreSQL for the storage tests: KARENINA_TEST_PG_URL or a throwaway cluster, one per run.
    globalSetup: ["packages/karenina/src/test-support/postgres-global-setup.ts"],
  },
});
