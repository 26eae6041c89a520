/**
 * Which modules a Node process loads: the process runs with a resolution hook that logs every module's URL,
 * so a test can tell that a command never loaded a package (ESM imports of packages, even CommonJS ones,
 * resolve through the hook).
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REGISTER = fileURLToPath(new URL("./register.mjs", import.meta.url));

/** What a process loaded, and how it ended. */
export interface LoadedModules {
  /** Every module URL the process resolved, once each. */
  urls: string[];
  code: number | null;
  stderr: string;
}

/** Runs `node --import tsx <args>` with the module log on, and returns the modules it loaded. */
export async function modulesLoadedBy(args: readonly string[]): Promise<LoadedModules> {
  const dir = await mkdtemp(join(tmpdir(), "karenina-module-log-"));
  const logFile = join(dir, "modules.txt");
  try {
    const child = spawn(process.execPath, ["--import", "tsx", "--import", REGISTER, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, KARENINA_MODULE_LOG: logFile },
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const log = await readFile(logFile, "utf8").catch(() => "");
    return { urls: [...new Set(log.split("\n").filter((line) => line !== ""))], code, stderr };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The npm packages among module URLs (`@scope/name` or `name`), each once. */
export function packagesOf(urls: readonly string[]): string[] {
  const names = urls.flatMap((url) => {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    return match ? [match[1] as string] : [];
  });
  return [...new Set(names)].sort();
}

/**
 * Which of the `watched` packages the process started with `args` loads (sorted).
 * @throws when the process does not exit 0, with its stderr.
 */
export async function watchedPackagesLoadedBy(
  args: readonly string[],
  watched: readonly string[],
): Promise<string[]> {
  const run = await modulesLoadedBy(args);
  if (run.code !== 0) throw new Error(`${args.join(" ")} exited with ${run.code}: ${run.stderr}`);
  return packagesOf(run.urls).filter((name) => watched.includes(name));
}
