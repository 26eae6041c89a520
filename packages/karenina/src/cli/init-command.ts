import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { type Command, Option } from "commander";
import { type CliIo, CliUsageError } from "./cli-io.js";
import {
  defaultModelSpec,
  defaultsJson,
  envFile,
  exampleBenchmark,
  gitignoreText,
  INIT_DIRS,
  INIT_FILES,
  INIT_GITIGNORE,
  INIT_PROVIDERS,
  type InitProvider,
  projectReadme,
  sampleQuestionsCsv,
} from "./init-scaffold.js";

/** What `init` did with one path. */
interface InitEntry {
  path: string;
  action: "created" | "overwrote" | "kept" | "updated";
  note?: string;
}

async function kindOf(path: string): Promise<"file" | "dir" | null> {
  const info = await stat(path).catch(() => null);
  if (info === null) return null;
  return info.isDirectory() ? "dir" : "file";
}

/** Writes a file atomically (a temporary file beside it, then a rename); a failure leaves the old file as it was. */
async function writeAtomic(path: string, text: string, mode?: number): Promise<void> {
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temporary, text, {
      encoding: "utf8",
      flag: "wx",
      ...(mode === undefined ? {} : { mode }),
    });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CliUsageError(
      `cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

/**
 * Scaffolds a project in `dir` (spec 06 §5.6): `defaults.json`, `.env` (mode 600), the directories, and the
 * worked example. Everything is checked before anything is written: without `force`, any file already there
 * stops it with nothing changed. Existing directories are kept.
 */
async function initProject(dir: string, force: boolean, provider: InitProvider): Promise<InitEntry[]> {
  const root = resolve(dir);
  if ((await kindOf(root)) === "file") throw new CliUsageError(`${root} is a file, not a directory`);
  const files = Object.values(INIT_FILES);
  const existing: string[] = [];
  for (const file of files) {
    const kind = await kindOf(join(root, file));
    if (kind === "dir") throw new CliUsageError(`${join(root, file)} is a directory; move it away first`);
    if (kind === "file") existing.push(file);
  }
  if (existing.length > 0 && !force) {
    throw new CliUsageError(
      `${root} already has ${existing.join(", ")}; nothing was changed. Pass --force to overwrite ${existing.length === 1 ? "it" : "them"}`,
    );
  }
  if ((await kindOf(join(root, INIT_GITIGNORE))) === "dir")
    throw new CliUsageError(`${join(root, INIT_GITIGNORE)} is a directory; move it away first`);
  for (const name of INIT_DIRS) {
    if ((await kindOf(join(root, name))) === "file")
      throw new CliUsageError(`${join(root, name)} is a file, where init makes a directory`);
  }
  const example = await exampleBenchmark();

  const entries: InitEntry[] = [];
  const action = (file: string) => (existing.includes(file) ? "overwrote" : "created");
  await mkdir(root, { recursive: true });
  const write = async (file: string, text: string, note?: string, mode?: number) => {
    await writeAtomic(join(root, file), text, mode);
    entries.push({ path: file, action: action(file), ...(note === undefined ? {} : { note }) });
  };
  await write(INIT_FILES.defaults, defaultsJson(provider), `default model ${defaultModelSpec(provider)}`);
  await write(INIT_FILES.env, envFile(root, provider), "mode 600; API keys commented out", 0o600);
  for (const name of INIT_DIRS) {
    const there = (await kindOf(join(root, name))) === "dir";
    if (!there) await mkdir(join(root, name));
    entries.push({ path: `${name}/`, action: there ? "kept" : "created" });
  }
  await example.save(join(root, INIT_FILES.example));
  entries.push({
    path: INIT_FILES.example,
    action: action(INIT_FILES.example),
    note: `${example.size} questions with templates, 1 rubric trait`,
  });
  await write(INIT_FILES.questions, sampleQuestionsCsv(), "sample questions for karenina import");
  await write(INIT_FILES.readme, projectReadme(root, provider), "the next commands");
  entries.push(await completeGitignore(root));
  return entries;
}

/** Writes the project's `.gitignore`, or adds to an existing one the entries it lacks (with or without --force). */
async function completeGitignore(root: string): Promise<InitEntry> {
  const file = join(root, INIT_GITIGNORE);
  const existing = (await kindOf(file)) === "file" ? await readFile(file, "utf8") : null;
  const text = gitignoreText(existing);
  const note = ".env, *.state.json, SQLite working files, .karenina-cache/";
  if (text === null) return { path: INIT_GITIGNORE, action: "kept", note };
  await writeAtomic(file, text);
  return { path: INIT_GITIGNORE, action: existing === null ? "created" : "updated", note };
}

function initReport(dir: string, entries: readonly InitEntry[]): string {
  const width = Math.max(...entries.map((entry) => entry.path.length));
  const lines = [`Initialised a karenina project in ${resolve(dir)}`];
  for (const { path, action, note } of entries)
    lines.push(`  ${action.padEnd(9)} ${note === undefined ? path : `${path.padEnd(width)}  ${note}`}`);
  lines.push("", `Next: see ${join(resolve(dir), INIT_FILES.readme)}, or try`);
  lines.push(`  karenina checkpoint inspect ${join(resolve(dir), INIT_FILES.example)}`);
  return `${lines.join("\n")}\n`;
}

/** `karenina init`: a project directory with config, folders and a worked example. */
export function registerInitCommand(program: Command, io: CliIo): void {
  program
    .command("init")
    .description(
      "Set up a karenina project: defaults.json, .env, folders, an example benchmark and a sample spreadsheet",
    )
    .argument("[dir]", "the project directory (made if missing)", ".")
    .option("--force", "overwrite defaults.json, .env and the example files when they exist")
    .addOption(
      new Option("--provider <name>", "the default model's provider")
        .choices(INIT_PROVIDERS)
        .default("openai"),
    )
    .addHelpText(
      "after",
      `
Examples:
  karenina init my-benchmark
  karenina init . --provider ollama         # local models through Ollama's OpenAI-compatible server
  karenina init my-benchmark --force        # rewrite the config and example files

Writes defaults.json, .env (mode 600: API keys go there, commented out until you fill them in),
checkpoints/example.jsonld, questions.csv and README.md (the next commands), and makes dbs/, presets/,
mcp_presets/ and checkpoints/ (existing folders are kept). A .gitignore keeps .env, run state files
(*.state.json), SQLite's working files and .karenina-cache/ out of git: an existing one only gets the
lines it lacks. Without --force, nothing is changed when any of
those files exists (exit code 2).`,
    )
    .action(async (dir: string, options: { force?: boolean; provider: InitProvider }) => {
      const entries = await initProject(dir, options.force === true, options.provider);
      io.out(initReport(dir, entries));
    });
}
