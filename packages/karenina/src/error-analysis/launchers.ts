/** Who writes `REPORT.md` once the directory is prepared (spec 08 §10.4 step 7). */
import { spawn } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { LauncherError } from "./errors.js";

/** What a launcher is given. */
export interface LaunchRequest {
  outDir: string;
  promptPath: string;
  timeoutSeconds: number;
  env: Readonly<Record<string, string | undefined>>;
}

export type Launcher = (request: LaunchRequest) => Promise<void>;

/** The program `name` on the PATH of `env`, or null. */
async function onPath(name: string, env: LaunchRequest["env"]): Promise<string | null> {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Runs `claude -p @PROMPT.md --permission-mode acceptEdits` in the directory, within the timeout. */
const claudeCode: Launcher = async ({ outDir, promptPath, timeoutSeconds, env }) => {
  const program = await onPath("claude", env);
  if (program === null)
    throw new LauncherError(
      "unavailable",
      "launcher claude-code: the claude program (Claude Code CLI) is not on PATH; install it, or use --launcher prepare-only and run an analyst yourself",
    );
  await new Promise<void>((resolve, reject) => {
    const child = spawn(program, ["-p", `@${promptPath}`, "--permission-mode", "acceptEdits"], {
      cwd: outDir,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "inherit", "inherit"],
    });
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(
        new LauncherError("execution", `launcher claude-code: no end after ${timeoutSeconds} s; stopped`),
      );
    }, timeoutSeconds * 1000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(
        new LauncherError("execution", `launcher claude-code: cannot start ${program} (${error.message})`),
      );
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new LauncherError(
            "execution",
            `launcher claude-code: claude ended with ${code === null ? signal : `exit code ${code}`}`,
          ),
        );
    });
  });
};

/** The registered launchers: `prepare-only` does nothing (the directory is the product). */
export const LAUNCHERS: Readonly<Record<string, Launcher>> = {
  "prepare-only": async () => {},
  "claude-code": claudeCode,
};

/** The launcher called `name`. @throws {LauncherError} `not_found`, listing the registered ones. */
export function launcherNamed(name: string): Launcher {
  const launcher = Object.hasOwn(LAUNCHERS, name) ? LAUNCHERS[name] : undefined;
  if (launcher === undefined)
    throw new LauncherError(
      "not_found",
      `no launcher ${JSON.stringify(name)}; registered launchers: ${Object.keys(LAUNCHERS).join(", ")}`,
    );
  return launcher;
}
