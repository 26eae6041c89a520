import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createSummaryAccumulator } from "../results/index.js";
import { openStorage } from "../storage/index.js";
import { runKarenina } from "../test-support/cli.js";
import { createTestDatabase, postgresForTests, type TestDatabase } from "../test-support/postgres.js";
import { EXIT } from "./cli-io.js";

const postgres = postgresForTests();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-db-"));
  vi.spyOn(process, "cwd").mockReturnValue(dir);
});

afterEach(() => vi.restoreAllMocks());

/** `karenina verify` of the bundled example (recorded, offline) into a run log and a database. */
const verifyInto = (db: string, log: string, ...extra: string[]) =>
  runKarenina("verify", "--no-progress", "-o", join(dir, log), "--db", db, ...extra);

const passedLine = (out: string) => out.split("\n").find((line) => /^\s*passed\s/.test(line));

const targets: { name: string; url: () => Promise<string> }[] = [
  { name: "a SQLite file", url: async () => join(dir, "karenina.db") },
];
let pgDatabase: TestDatabase | undefined;
if (postgres.adminUrl !== null) {
  const adminUrl = postgres.adminUrl;
  targets.push({
    name: "PostgreSQL",
    url: async () => {
      await pgDatabase?.drop();
      pgDatabase = await createTestDatabase(adminUrl);
      return pgDatabase.url;
    },
  });
  afterAll(async () => pgDatabase?.drop());
}

describe.each(targets)("karenina verify --db and karenina results --db, on $name", (target) => {
  test("each result is stored as the run goes, and results reads the stored run as it reads the run log", async () => {
    const db = await target.url();
    const run = await verifyInto(db, "run.jsonl");
    expect(run.code).toBe(EXIT.ok);
    expect(run.err).toMatch(/saved run \S+ \(5 results\) in /);

    const storage = await openStorage(db);
    const [stored] = await storage.listRuns();
    const results = await storage.loadResults({ runId: stored?.id ?? "" });
    await storage.close();
    expect(stored?.status).toBe("completed");
    expect(stored?.benchmarkName).toBe("Drug Target Identification (example)");
    expect(results).toHaveLength(5);

    const list = await runKarenina("results", "--db", db);
    expect(list.code).toBe(EXIT.ok);
    expect(list.out).toContain(stored?.runName);
    expect(list.out).toMatch(/completed\s+5/);

    const fromDb = await runKarenina("results", stored?.runName ?? "", "--db", db);
    const fromLog = await runKarenina("results", join(dir, "run.jsonl"));
    expect(fromDb.code).toBe(EXIT.ok);
    expect(passedLine(fromDb.out)).toBeDefined();
    expect(passedLine(fromDb.out)).toBe(passedLine(fromLog.out));
  });

  test("a resumed run continues the same stored run and stores nothing twice", async () => {
    const db = await target.url();
    expect((await verifyInto(db, "again.jsonl")).code).toBe(EXIT.ok);
    expect((await verifyInto(db, "again.jsonl", "--resume")).code).toBe(EXIT.ok);
    const storage = await openStorage(db);
    const runs = await storage.listRuns();
    const count = await storage.countResults({ runId: runs[0]?.id ?? "" });
    await storage.close();
    expect(runs).toHaveLength(1);
    expect(count).toBe(5);
  });

  test("the finished run's summary is stored from the results saved, equal to the one computed from the rows", async () => {
    const db = await target.url();
    expect((await verifyInto(db, "summary.jsonl")).code).toBe(EXIT.ok);
    const storage = await openStorage(db);
    try {
      const [run] = await storage.listRuns();
      const runId = run?.id ?? "";
      const stored = await storage.loadRunSummary(runId);
      const computed = createSummaryAccumulator();
      for await (const page of storage.readResultDigests({ runId })) computed.add(page);
      expect(stored?.resultCount).toBe(5);
      expect(JSON.stringify(stored?.summary)).toBe(JSON.stringify(computed.finish()));
    } finally {
      await storage.close();
    }
  });

  test("a resumed run, whose earlier results the sink never saw, stores no summary of the new ones only", async () => {
    const db = await target.url();
    expect((await verifyInto(db, "resumed.jsonl")).code).toBe(EXIT.ok);
    const first = await openStorage(db);
    const [run] = await first.listRuns();
    await first.deleteRunSummary(run?.id ?? "");
    await first.close();
    expect((await verifyInto(db, "resumed.jsonl", "--resume")).code).toBe(EXIT.ok);
    const storage = await openStorage(db);
    try {
      // The resume saved none of the five rows the run holds: the sink's summary (of no row) is refused.
      expect(await storage.loadRunSummary(run?.id ?? "")).toBeNull();
      expect(await storage.countResults({ runId: run?.id ?? "" })).toBe(5);
    } finally {
      await storage.close();
    }
  });

  test("an unknown run name is an error that says how to list the runs", async () => {
    const db = await target.url();
    expect((await verifyInto(db, "one.jsonl")).code).toBe(EXIT.ok);
    const { code, err } = await runKarenina("results", "no-such-run", "--db", db);
    expect(code).toBe(EXIT.usage);
    expect(err).toContain('no run "no-such-run"');
    expect(err).toContain("karenina results --db");
  });
});

test("results --db of a file that does not exist is an error, and no database is created", async () => {
  const db = join(dir, "nosuch.db");
  const { code, out, err } = await runKarenina("results", "--db", db);
  expect(code).toBe(EXIT.usage);
  expect(out).toBe("");
  expect(err).toContain(`${db}: no such database file`);
  expect(existsSync(db)).toBe(false);
  expect(existsSync(`${db}-wal`)).toBe(false);
  const named = await runKarenina("results", "nightly", "--db", `sqlite:///${db}`);
  expect(named.code).toBe(EXIT.usage);
  expect(existsSync(db)).toBe(false);
});

test("results --db of a SQLite database karenina never wrote is refused, and gets no tables", async () => {
  const db = join(dir, "other.db");
  const Database = (await import("better-sqlite3")).default;
  const other = new Database(db);
  other.exec("create table notes (text text)");
  other.close();
  const { code, err } = await runKarenina("results", "--db", db);
  expect(code).toBe(EXIT.usage);
  expect(err).toContain(`${db}: not a karenina database`);
  const after = new Database(db, { readonly: true });
  const tables = after.prepare("select name from sqlite_master where type = 'table'").all();
  after.close();
  expect(tables).toEqual([{ name: "notes" }]);
});

test.skipIf(postgres.adminUrl === null)(
  "results --db of an empty PostgreSQL database is refused, and gets no tables",
  async () => {
    const empty = await createTestDatabase(postgres.adminUrl ?? "");
    try {
      const { code, err } = await runKarenina("results", "--db", empty.url);
      expect(code).toBe(EXIT.usage);
      expect(err).toContain("not a karenina database");
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: empty.url });
      await client.connect();
      const tables = await client.query(
        "select table_name from information_schema.tables where table_schema = 'public'",
      );
      await client.end();
      expect(tables.rows).toEqual([]);
    } finally {
      await empty.drop();
    }
  },
);

test("a --db that is not a database stops verify before any model is called, and the file is left as it was", async () => {
  const notes = join(dir, "notes.db");
  await writeFile(notes, "my notes, not a database\n");
  const { code, err } = await verifyInto(notes, "never.jsonl");
  expect(code).toBe(EXIT.usage);
  expect(err).toContain(notes);
  expect(await readFile(notes, "utf8")).toBe("my notes, not a database\n");
  await expect(readFile(join(dir, "never.jsonl"))).rejects.toThrow();
});

test("results without a file or --db is a usage error", async () => {
  const { code, err } = await runKarenina("results");
  expect(code).toBe(EXIT.usage);
  expect(err).toContain("give a results file, or --db URL");
});
