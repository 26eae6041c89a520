import { KareninaError } from "../../errors/index.js";

/** Base of every error about preparing, confining or removing an agent's workspace. */
export class WorkspaceError extends KareninaError {
  override readonly name: string = "WorkspaceError";
}

/**
 * Agentic parsing needs a workspace, but the benchmark has no workspace root (seed 002 §2, first precondition;
 * the original raises `RuntimeError`).
 */
export class WorkspaceRootMissingError extends WorkspaceError {
  override readonly name = "WorkspaceRootMissingError";

  constructor(readonly questionId: string) {
    super(
      `question ${questionId}: workspace root: expected a directory, found none. Agentic parsing runs the ` +
        "agents in a workspace under the benchmark's workspace root: set it with " +
        "Benchmark.load(file, { workspaceRoot }) or bench.workspaceRoot = dir",
    );
  }
}

/**
 * A question's `workspace_path` names no directory under the workspace root (seed 002 §2, second precondition;
 * the original raises `RuntimeError`).
 */
export class WorkspaceSourceMissingError extends WorkspaceError {
  override readonly name = "WorkspaceSourceMissingError";

  constructor(
    readonly questionId: string,
    readonly workspacePath: string,
    readonly directory: string,
    readonly found: "nothing" | "a file",
  ) {
    super(
      `question ${questionId}: workspace_path ${JSON.stringify(workspacePath)}: expected an existing directory ` +
        `at ${directory}, found ${found}. Create it, or correct the question's workspace_path ` +
        "(relative to the workspace root)",
    );
  }
}

/**
 * A path leaves the directory it must stay in: it is absolute, climbs out with `..`, or resolves through a
 * symbolic link to somewhere outside. `subject` says whose path it is (`question <id>: workspace_path`,
 * `read_file: path`).
 */
export class WorkspaceEscapeError extends WorkspaceError {
  override readonly name = "WorkspaceEscapeError";

  constructor(
    readonly subject: string,
    readonly requested: string,
    readonly boundary: string,
    readonly how: string,
  ) {
    super(`${subject} ${JSON.stringify(requested)}: expected a path inside ${boundary}, but ${how}`);
  }
}

/** A question's workspace could not be copied to its working directory; the partial copy was removed. */
export class WorkspaceCopyError extends WorkspaceError {
  override readonly name = "WorkspaceCopyError";

  constructor(
    readonly source: string,
    readonly destination: string,
    cause: unknown,
  ) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    super(`cannot copy the workspace ${source} to ${destination} (${reason})`, { cause });
  }
}

/** The capture manifest of a workspace output directory cannot be written or read. */
export class CaptureManifestError extends WorkspaceError {
  override readonly name = "CaptureManifestError";

  constructor(
    readonly file: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${file}: ${problem}`, options);
  }
}
