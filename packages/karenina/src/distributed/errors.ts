import { KareninaError } from "../errors/index.js";

/** A fleet (queue workers over PostgreSQL) cannot do what was asked; the message says what to do. */
export class FleetError extends KareninaError {
  override readonly name: string = "FleetError";
}

/** The database given to a fleet command is not PostgreSQL. */
export class FleetDatabaseError extends FleetError {
  override readonly name: string = "FleetDatabaseError";

  constructor(readonly url: string) {
    super(
      `a fleet needs a PostgreSQL database that every worker can reach (--db postgres://user:pass@host:5432/db), found ${JSON.stringify(url)}; a SQLite file lives on one machine`,
    );
  }
}

/** No fleet run has this id in the database. */
export class FleetRunNotFoundError extends FleetError {
  override readonly name: string = "FleetRunNotFoundError";

  constructor(
    readonly runId: string,
    readonly database: string,
  ) {
    super(
      `no distributed run ${JSON.stringify(runId)} in ${database}; list them with: karenina fleet status --db ${database}`,
    );
  }
}

/**
 * A task's workspace is not on the worker that took it: agents need the workspace root on a file system
 * every worker mounts at the same path (or `karenina worker --workspace-root` pointing at its copy).
 */
export class FleetWorkspaceMissingError extends FleetError {
  override readonly name: string = "FleetWorkspaceMissingError";

  constructor(
    readonly path: string,
    readonly worker: string,
    readonly questionId: string,
  ) {
    super(
      `question ${questionId}: its workspace ${path} is missing on worker ${worker}; mount the run's workspace root at the same path on every worker, or start this worker with --workspace-root DIR pointing at its copy`,
    );
  }
}
