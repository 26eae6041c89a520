import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // packages/web: component tests beside their code (jsdom, chosen per file with `// @vitest-environment
    // jsdom`) and browser tests in e2e/ (node, driving Chromium).
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/web/src/**/*.test.tsx",
      "packages/web/e2e/**/*.test.ts",
      "docs/**/*.test.ts",
    ],
    testTimeout: 30_000,
    // The Pyodide snapshot kept between processes: inside the clone (git-ignored), not in the user's cache.
    env: { KARENINA_CACHE_DIR: fileURLToPath(new URL(".tmp/karenina-cache", import.meta.url)) },
    // PostgreSQL for the storage tests: KARENINA_TEST_PG_URL or a throwaway cluster, one per run.
    // A throwaway Podman engine (Docker Engine API on a unix socket) for the container backend's tests.
    globalSetup: [
      "packages/karenina/src/test-support/postgres-global-setup.ts",
      "packages/karenina/src/test-support/container-engine-global-setup.ts",
    ],
  },
});
