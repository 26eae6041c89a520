import type { ServerDeps, ServerHooks } from "../core/index.js";
import { JobRunner } from "./job-runner.js";

const RUNNERS = new WeakMap<ServerDeps, JobRunner>();

/**
 * The one job runner of a server (made at the first call for its deps): route groups register their job kinds
 * on it when mounted. Made with the server's `hooks`, it shuts down with the server (running jobs aborted and
 * left `interrupted`, resumable). Jobs a dead predecessor left unfinished are marked `interrupted` before its
 * first operation.
 * Concurrent jobs: `KARENINA_ASYNC_MAX_WORKERS` of the server's env (default 2; 1 when
 * `KARENINA_ASYNC_ENABLED=false`).
 */
export function jobRunnerOf(deps: ServerDeps, hooks?: ServerHooks): JobRunner {
  let runner = RUNNERS.get(deps);
  if (runner === undefined) {
    runner = new JobRunner({
      storage: deps.storage,
      workDir: deps.workDir,
      maxConcurrentJobs: maxConcurrentJobs(deps.env),
    });
    RUNNERS.set(deps, runner);
    const made = runner;
    hooks?.onShutdown(() => made.shutdown());
  }
  return runner;
}

function maxConcurrentJobs(env: ServerDeps["env"]): number {
  if (env.KARENINA_ASYNC_ENABLED?.trim().toLowerCase() === "false") return 1;
  const workers = Number.parseInt(env.KARENINA_ASYNC_MAX_WORKERS ?? "", 10);
  return Number.isInteger(workers) && workers > 0 ? workers : 2;
}
