import { describe, expect, test } from "vitest";
import { runKarenina } from "../test-support/cli.js";

describe("karenina worker and karenina fleet without PostgreSQL", () => {
  test("a SQLite database is refused with what a fleet needs", async () => {
    for (const args of [
      ["worker", "--db", "karenina.db"],
      ["fleet", "status", "--db", "karenina.db"],
      ["fleet", "resume", "run_1", "--db", "sqlite:///k.db"],
    ]) {
      const { code, err } = await runKarenina(...args);
      expect(err).toMatch(
        /a fleet needs a PostgreSQL database that every worker can reach \(--db postgres:\/\//,
      );
      expect(code).toBe(2);
    }
  });

  test("fleet --help lists its own subcommands, not the top-level commands of the same name", async () => {
    const { out } = await runKarenina("fleet", "--help");
    expect(out).toMatch(/status \[options\] \[run\]\s+The distributed runs/);
    expect(out).not.toContain("<run-log>");
  });

  test("worker --help says what a worker needs on its machine", async () => {
    const { out } = await runKarenina("worker", "--help");
    expect(out).toMatch(/--concurrency <n>/);
    expect(out).toMatch(/API keys in its environment/);
    expect(out).toMatch(/--workspace-root <dir>/);
  });
});
