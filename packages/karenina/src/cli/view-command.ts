import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";
import type { Command } from "commander";
import { ResultsFileError } from "../results/index.js";
import { importResultsAsRun, parseResultsText } from "../run-import/index.js";
import { type RunningServer, startServer } from "../server/start-server.js";
import { openStorage, type RunInfo, type Storage } from "../storage/index.js";
import { type CliIo, CliUsageError } from "./cli-io.js";
import { keepHeapClose, openBrowser, portNumber, stopSignal } from "./serve-command.js";

interface ViewOptions {
  db?: string;
  port: number;
  open: boolean;
}

/** What `view` serves: a database and the run of it to open. */
export interface ViewTarget {
  readonly storageUrl: string;
  readonly run: RunInfo;
  /** A scratch folder to remove at the end (the database a results file was imported into). */
  readonly scratch?: string;
}

/**
 * The page address that opens a stored run in the results view: the app reads `#/benchmark?run=…&label=…` at
 * start (web `src/results-source/hash-source.ts`). No `db`: the run is in the server's own database.
 */
export function viewUrl(server: Pick<RunningServer, "url" | "token">, run: RunInfo): string {
  const hash = new URLSearchParams({ run: run.id, label: `Run ${run.runName}` });
  return `${server.url}/?token=${server.token}#/benchmark?${hash.toString()}`;
}

/** A results file imported, untouched, into a new database in a scratch folder, as an imported run. */
async function importedFile(file: string): Promise<ViewTarget> {
  const extension = extname(file).toLowerCase();
  if (extension !== ".jsonl" && extension !== ".json") {
    throw new CliUsageError(`${file}: expected a .jsonl run log or a .json results export`);
  }
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new ResultsFileError(file, `cannot read the results file (${error.code ?? String(error)})`, {
      cause: error,
    });
  });
  const results = parseResultsText(text, file);
  const scratch = await mkdtemp(join(tmpdir(), "karenina-view-"));
  const storageUrl = join(scratch, "view.db");
  const storage = await openStorage(storageUrl);
  try {
    const name = basename(file);
    const imported = await importResultsAsRun(storage, results, {
      benchmarkName: name,
      runName: basename(file, extname(file)),
      sourceFilename: name,
    });
    const run = await storage.getRun(imported.runId);
    if (run === null) throw new Error(`the imported run ${imported.runId} is not in ${storageUrl}`);
    return { storageUrl, run, scratch };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  } finally {
    await storage.close();
  }
}

/** The run of a database a name or id names, or its newest run. */
async function storedRun(storage: Storage, wanted: string | undefined): Promise<RunInfo> {
  if (wanted === undefined) {
    const [newest] = await storage.listRuns({ limit: 1 });
    if (newest === undefined) throw new CliUsageError(`${storage.database} holds no verification run`);
    return newest;
  }
  const byId = await storage.getRun(wanted);
  if (byId !== null) return byId;
  const [named] = await storage.listRuns({ runName: wanted, limit: 1 });
  if (named === undefined) {
    throw new CliUsageError(
      `${storage.database} has no run named or with the id ${JSON.stringify(wanted)} (karenina results --db lists them)`,
    );
  }
  return named;
}

async function databaseRun(url: string, wanted: string | undefined): Promise<ViewTarget> {
  const storage = await openStorage(url);
  try {
    return { storageUrl: url, run: await storedRun(storage, wanted) };
  } finally {
    await storage.close();
  }
}

/**
 * What `karenina view SOURCE [--db URL]` serves: a results file imported into a scratch database, or a stored run.
 * @throws {CliUsageError} without a source, for another kind of file, or for a run the database does not hold.
 */
export async function viewTarget(source: string | undefined, db: string | undefined): Promise<ViewTarget> {
  if (db === undefined && source === undefined) {
    throw new CliUsageError("give a results file (.jsonl or .json), or --db URL [RUN]");
  }
  return db === undefined ? importedFile(source as string) : databaseRun(db, source);
}

/** `karenina view`: the web app on a results file or a stored run, opened on that run's results. */
export function registerViewCommand(program: Command, io: CliIo, env: NodeJS.ProcessEnv): void {
  program
    .command("view")
    .description("Open a results file or a stored run in the web app (starts the server, opens the browser)")
    .argument(
      "[source]",
      "a .jsonl run log or .json results export; with --db: a run name or id (default the newest)",
    )
    .option("--db <url>", "show a run of this database (SQLite file or postgres:// URL)")
    .option("--port <port>", "port to listen on on 127.0.0.1 (default: a free one)", portNumber, 0)
    .option("--no-open", "only print the address; do not open the browser")
    .addHelpText(
      "after",
      `
Examples:
  karenina view karenina-demo.jsonl           # a run log: imported into a scratch database (the file is only read)
  karenina view --db karenina.db              # the newest run of a database
  karenina view --db karenina.db nightly-1    # a run by name or id

The server listens on 127.0.0.1 until Ctrl+C; the scratch database of a results file is removed then.`,
    )
    .action(async (source: string | undefined, options: ViewOptions) => {
      const target =
        options.db === undefined
          ? await importedFile(source as string)
          : await databaseRun(options.db, source);
      keepHeapClose();
      let server: RunningServer;
      try {
        server = await startServer({ port: options.port, env, storageUrl: target.storageUrl });
      } catch (error) {
        if (target.scratch !== undefined) await rm(target.scratch, { recursive: true, force: true });
        throw error;
      }
      const url = viewUrl(server, target.run);
      io.out(
        `karenina view: run ${target.run.runName} (${target.run.benchmarkName}) at\n  ${url}\nPress Ctrl+C to stop.\n`,
      );
      if (options.open) openBrowser(url);
      const signal = await stopSignal();
      io.err(`${signal}: stopping…\n`);
      await server.close();
      if (target.scratch !== undefined) await rm(target.scratch, { recursive: true, force: true });
      io.err("stopped\n");
    });
}
