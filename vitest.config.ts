import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "docs/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
