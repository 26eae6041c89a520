import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { thrown } from "../test-support/thrown.js";
import { StorageOpenError } from "./errors.js";
import { DEFAULT_DB_FILE, describeStorageUrl, parseStorageUrl } from "./url.js";

describe("storage URLs", () => {
  test("SQLAlchemy-style SQLite URLs: three slashes relative, four absolute, none in memory", () => {
    expect(parseStorageUrl("sqlite:///results/karenina.db")).toEqual({
      dialect: "sqlite",
      file: resolve("results/karenina.db"),
    });
    expect(parseStorageUrl("sqlite:////var/lib/karenina.db")).toEqual({
      dialect: "sqlite",
      file: "/var/lib/karenina.db",
    });
    expect(parseStorageUrl("sqlite://")).toEqual({ dialect: "sqlite", file: ":memory:" });
    expect(parseStorageUrl("sqlite:///:memory:")).toEqual({ dialect: "sqlite", file: ":memory:" });
    expect(parseStorageUrl("sqlite+pysqlite:///x.db")).toEqual({ dialect: "sqlite", file: resolve("x.db") });
  });

  test("a bare path is a SQLite file; the default is karenina.db in the working directory", () => {
    expect(parseStorageUrl(DEFAULT_DB_FILE)).toEqual({ dialect: "sqlite", file: resolve("karenina.db") });
    expect(parseStorageUrl("/tmp/k.db")).toEqual({ dialect: "sqlite", file: "/tmp/k.db" });
  });

  test("postgres:// and postgresql:// (with a +driver) go to PostgreSQL", () => {
    expect(parseStorageUrl("postgresql+psycopg2://u:p@db:5432/bench")).toEqual({
      dialect: "postgres",
      connectionString: "postgres://u:p@db:5432/bench",
    });
    expect(parseStorageUrl("postgres://db/bench")).toEqual({
      dialect: "postgres",
      connectionString: "postgres://db/bench",
    });
  });

  test("other schemes, hosts in SQLite URLs and empty URLs are refused, naming the URL", () => {
    expect(thrown(StorageOpenError, () => parseStorageUrl("mysql://u:pw@db/bench")).message).toBe(
      "mysql://u:***@db/bench: unsupported database URL (expected a SQLite file path, sqlite:///path.db, or postgres://user@host/db)",
    );
    expect(thrown(StorageOpenError, () => parseStorageUrl("sqlite://host/x.db")).message).toContain(
      "expected sqlite:///relative/path.db or sqlite:////absolute/path.db",
    );
    expect(thrown(StorageOpenError, () => parseStorageUrl("sqlite:///x.db?mode=ro")).message).toContain(
      "query parameters are not supported",
    );
    expect(thrown(StorageOpenError, () => parseStorageUrl(" ")).message).toContain("no database URL");
  });

  test("passwords are masked in the authority and in parameters", () => {
    expect(describeStorageUrl("postgres://karenina:s3cr@t@db:5432/bench")).toBe(
      "postgres://karenina:***@db:5432/bench",
    );
    expect(describeStorageUrl("postgres://db/bench?user=k&password=s3cret&sslmode=require")).toBe(
      "postgres://db/bench?user=k&password=***&sslmode=require",
    );
    expect(describeStorageUrl("postgres://karenina@db/bench")).toBe("postgres://karenina@db/bench");
    expect(describeStorageUrl("karenina.db")).toBe("karenina.db");
  });
});
