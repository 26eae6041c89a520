import { readFile, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { type Command, Option } from "commander";
import {
  dumpVerificationConfig,
  findPresetFile,
  listPresets,
  loadPreset,
  type ModelConfig,
  presetContent,
  presetFileName,
  resolvePresetsDir,
  SECRET_MASK,
  savePreset,
  type VerificationConfig,
} from "../pipeline/index.js";
import { type CliIo, CliUsageError } from "./cli-io.js";
import { addConfigOptions, buildConfig, type VerifyOptions } from "./verify-command.js";

/** One preset in `karenina preset list --json`. */
export interface PresetListEntry {
  /** The file stem: what `--preset`, `preset show` and `preset delete` take. */
  name: string;
  /** The name the preset was saved under. */
  display_name: string;
  description: string | null;
  /** `interface:model_name` of each answering model. */
  answering_models: string[];
  parsing_models: string[];
  /** ISO-8601 time of the last save (the file's modification time when the preset has none). */
  updated_at: string | null;
  file: string;
  /** Why the file is not a usable preset, or null. */
  problem: string | null;
}

/** What `karenina preset list --json` prints. */
export interface PresetListReport {
  dir: string;
  presets: PresetListEntry[];
}

/** Options of `karenina preset save`: verify's config flags, a description and the directory. */
interface SaveOptions extends VerifyOptions {
  description?: string;
  dir?: string;
}

const MAX_NAME = 100;
const MAX_DESCRIPTION = 500;
const SECRET_KEYS = ["endpoint_api_key", "anthropic_api_key"] as const;

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

const modelLabel = (model: ModelConfig) => `${model.interface}:${model.model_name ?? model.id ?? "?"}`;

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** `2025-06-01 14:03` (UTC) from an ISO-8601 time; anything else as it is. */
function shortTime(iso: string | null): string {
  if (iso === null) return "-";
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toISOString().slice(0, 16).replace("T", " ");
}

async function listEntries(dir: string): Promise<PresetListEntry[]> {
  const summaries = await listPresets({ dir });
  return Promise.all(
    summaries.map(async (summary): Promise<PresetListEntry> => {
      const updated =
        summary.updated_at ??
        (await stat(summary.file).then(
          (s) => s.mtime.toISOString(),
          () => null,
        ));
      const entry: PresetListEntry = {
        name: basename(summary.file, ".json"),
        display_name: summary.name,
        description: summary.description,
        answering_models: [],
        parsing_models: [],
        updated_at: updated,
        file: summary.file,
        problem: summary.problem,
      };
      if (summary.problem !== null) return entry;
      try {
        const { config } = await loadPreset(summary.file);
        entry.answering_models = config.answering_models.map(modelLabel);
        entry.parsing_models = config.parsing_models.map(modelLabel);
      } catch (error) {
        entry.problem = (error as Error).message;
      }
      return entry;
    }),
  );
}

function listTable(entries: readonly PresetListEntry[]): string {
  const rows = entries.map((e) => [
    e.name,
    e.problem === null ? clip(e.description ?? "", 40) : "(not a usable preset)",
    e.problem === null ? clip(`${e.answering_models.join(", ")} → ${e.parsing_models.join(", ")}`, 70) : "-",
    shortTime(e.updated_at),
  ]);
  const header = ["NAME", "DESCRIPTION", "MODELS (answering → parsing)", "UPDATED (UTC)"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] as number))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

/** Drops `null` object values at every depth, as the original's `model_dump(exclude_none=True)`. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

const onOff = (flag: boolean) => (flag ? "on" : "off");

function summaryLines(config: VerificationConfig): string[] {
  const models = (list: readonly ModelConfig[]) => `${list.length} (${list.map(modelLabel).join(", ")})`;
  return [
    `  answering models: ${models(config.answering_models)}`,
    `  parsing models:   ${models(config.parsing_models)}`,
    `  replicates:       ${config.replicate_count}`,
    `  evaluation mode:  ${config.evaluation_mode} (rubric ${config.evaluation_mode === "template_only" ? "off" : "on"})`,
    `  abstention:       ${onOff(config.abstention_enabled)}`,
    `  sufficiency:      ${onOff(config.sufficiency_enabled)}`,
    `  embedding check:  ${onOff(config.embedding_check_enabled)}`,
    `  deep judgment:    ${config.deep_judgment_mode}`,
  ];
}

/** Model fields set in the config that a preset does not keep (spec 04 §2.7), as `role model: field` lines. */
function droppedFields(config: VerificationConfig, saved: Record<string, unknown>): string[] {
  const dump = dumpVerificationConfig(config);
  const dropped: string[] = [];
  for (const role of ["answering_models", "parsing_models"] as const) {
    const before = dump[role] as Record<string, unknown>[];
    const after = saved[role] as Record<string, unknown>[];
    before.forEach((model, i) => {
      for (const [key, value] of Object.entries(model)) {
        const empty =
          value === null || value === "" || (typeof value === "object" && Object.keys(value).length === 0);
        if (!empty && !(key in (after[i] ?? {})))
          dropped.push(`${role.replace("_models", "")} model ${String(model.id)}: ${key}`);
      }
    });
  }
  return dropped;
}

function validateNameAndDescription(name: string, description: string | undefined): void {
  if (name.trim() === "" || name.length > MAX_NAME)
    throw new CliUsageError(
      `preset name must be 1 to ${MAX_NAME} characters and not blank (got ${name.length})`,
    );
  if (description !== undefined && description.length > MAX_DESCRIPTION) {
    throw new CliUsageError(
      `--description must be at most ${MAX_DESCRIPTION} characters (got ${description.length})`,
    );
  }
}

/**
 * `karenina preset list|show|save|delete`: verification presets in the presets directory (`--dir`, else
 * `KARENINA_PRESETS_DIR`, else `./presets`). Registered on the `karenina` program like the other commands.
 * @example
 * await runCli(["preset", "list", "--dir", "no-presets-here"]); // 0
 */
export function registerPresetCommand(
  program: Command,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const presetsDir = (dir: string | undefined) => resolvePresetsDir({ dir, env });
  const dirOption = () =>
    new Option("--dir <dir>", "presets directory (default: $KARENINA_PRESETS_DIR, else ./presets)");

  const preset = program
    .command("preset")
    .description(
      "Save, list, show and delete verification presets (reusable run configs for `verify --preset`)",
    );

  preset
    .command("list")
    .description("List the presets of the presets directory")
    .addOption(dirOption())
    .option("--json", "print {dir, presets: [{name, display_name, description, answering_models, ...}]}")
    .addHelpText(
      "after",
      `
Examples:
  karenina preset list
  karenina preset list --dir ./team-presets --json

NAME is the file stem, what verify --preset, preset show and preset delete take.`,
    )
    .action(async (options: { dir?: string; json?: boolean }) => {
      const dir = presetsDir(options.dir);
      const entries = await listEntries(dir);
      if (options.json) {
        const report: PresetListReport = { dir, presets: entries };
        io.out(`${JSON.stringify(report, null, 2)}\n`);
        return;
      }
      if (entries.length === 0) {
        io.out(
          `No presets in ${dir}.\nSave one with: karenina preset save NAME -a SPEC -p SPEC [--description TEXT]\n`,
        );
        return;
      }
      io.out(
        `${listTable(entries)}\n\n${entries.length} preset${entries.length === 1 ? "" : "s"} in ${dir}\n`,
      );
      for (const entry of entries)
        if (entry.problem !== null) io.err(`warning: ${entry.name}: ${entry.problem}\n`);
    });

  preset
    .command("show")
    .description("Print a preset's config (nulls left out, API keys masked) and a summary of it")
    .argument("<name-or-path>", "preset name (file stem or saved name) or path to a preset file")
    .addOption(dirOption())
    .option("--json", "print only {name, description, file, created_at, updated_at, config} as JSON")
    .addHelpText(
      "after",
      `
Examples:
  karenina preset show nightly
  karenina preset show ./presets/nightly.json --json > nightly-config.json`,
    )
    .action(async (nameOrPath: string, options: { dir?: string; json?: boolean }) => {
      const file = await findPresetFile(nameOrPath, presetsDir(options.dir));
      const loaded = await loadPreset(file);
      const raw = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
      const stamp = (key: string) => (typeof raw[key] === "string" ? (raw[key] as string) : null);
      // The dump masks every API key (a key written by hand into the file included).
      const config = withoutNulls(dumpVerificationConfig(loaded.config));
      if (options.json) {
        const shown = {
          name: loaded.name,
          description: loaded.description,
          file,
          created_at: stamp("created_at"),
          updated_at: stamp("updated_at"),
          config,
        };
        io.out(`${JSON.stringify(shown, null, 2)}\n`);
        return;
      }
      const lines = [
        `name:        ${loaded.name}`,
        `file:        ${file}`,
        `description: ${loaded.description ?? "-"}`,
        `updated:     ${shortTime(stamp("updated_at"))}`,
        "",
        "config:",
        JSON.stringify(config, null, 2),
        "",
        "summary:",
        ...summaryLines(loaded.config),
      ];
      io.out(`${lines.join("\n")}\n`);
    });

  addConfigOptions(
    preset
      .command("save")
      .description("Save a run config, built from verify's flags, as a new preset (never overwrites one)")
      .argument("<name>", `preset name, at most ${MAX_NAME} characters; the file is its lower-case slug`)
      .option("--description <text>", `what the preset is for, at most ${MAX_DESCRIPTION} characters`)
      .addOption(dirOption()),
  )
    .addHelpText(
      "after",
      `
Examples:
  karenina preset save nightly --description "GPT-4.1 mini judged by itself, 3 replicates" \\
      -a openai:gpt-4.1-mini -p openai:gpt-4.1-mini --replicates 3 --mode template_and_rubric
  karenina preset save "Local Llama" -a openai_endpoint:llama3.1@http://127.0.0.1:11434/v1 \\
      -p openai_endpoint:llama3.1@http://127.0.0.1:11434/v1
  karenina verify bench.jsonld --preset nightly -o run.jsonl

Model SPECs are verify's (see karenina verify --help). API keys are never written: a preset holds the
mask ${SECRET_MASK} instead, so give the keys again when you run it. The manual interface cannot be saved
(its traces are never stored in a preset).`,
    )
    .action(async (name: string, options: SaveOptions) => {
      validateNameAndDescription(name, options.description);
      const dir = presetsDir(options.dir);
      const target = join(dir, presetFileName(name));
      if (await isFile(target)) {
        throw new CliUsageError(
          `preset file ${target} already exists; delete it first with \`karenina preset delete ${basename(target, ".json")}${options.dir === undefined ? "" : ` --dir ${options.dir}`}\` or choose another name`,
        );
      }
      const specs = [...(options.answering ?? []), ...(options.parsing ?? [])];
      if (
        specs.some((spec) => spec === "manual" || spec.startsWith("manual:")) ||
        options.interface === "manual"
      )
        throw new CliUsageError(
          "the manual interface cannot be saved in a preset: its traces are never stored",
        );
      const { description: _description, dir: _dir, ...verifyOptions } = options;
      const config = await buildConfig(verifyOptions, env, false);
      const dropped = droppedFields(config, presetContent(config, { name }).config);
      const file = await savePreset(config, name, { description: options.description ?? null, dir });
      io.out(`Saved preset "${name.trim()}" to ${file}\n`);
      for (const line of dropped.filter((l) => !SECRET_KEYS.some((key) => l.endsWith(`: ${key}`))))
        io.err(`warning: not kept in presets (spec 04 §2.7): ${line}\n`);
      const models = [...config.answering_models, ...config.parsing_models];
      if (models.some((model) => SECRET_KEYS.some((key) => model[key] !== null)))
        io.err(
          `note: API keys are not stored (the preset holds ${SECRET_MASK}); give them again when you run it\n`,
        );
      io.err(`use it with: karenina verify CHECKPOINT --preset ${file}\n`);
    });

  preset
    .command("delete")
    .description("Delete a preset file")
    .argument("<name-or-path>", "preset name (file stem or saved name) or path to a preset file")
    .addOption(dirOption())
    .addHelpText(
      "after",
      `
Examples:
  karenina preset delete nightly
  karenina preset delete ./team-presets/old.json

There is no confirmation prompt: the file is removed at once. A file outside the presets directory is
deleted only when it reads as a preset (a JSON object with a "config" object).`,
    )
    .action(async (nameOrPath: string, options: { dir?: string }) => {
      const dir = presetsDir(options.dir);
      const file = await findPresetFile(nameOrPath, dir);
      if (!file.endsWith(".json"))
        throw new CliUsageError(`${file} is not a preset file (.json); not deleted`);
      if (dirname(file) !== dir && !(await looksLikePreset(file)))
        throw new CliUsageError(`${file} does not read as a preset (no "config" object); not deleted`);
      await unlink(file);
      io.out(`Deleted preset ${basename(file, ".json")} (${file})\n`);
    });
}

async function looksLikePreset(file: string): Promise<boolean> {
  try {
    const data: unknown = JSON.parse(await readFile(file, "utf8"));
    if (data === null || typeof data !== "object" || Array.isArray(data)) return false;
    const config = (data as Record<string, unknown>).config;
    return config !== null && typeof config === "object" && !Array.isArray(config);
  } catch {
    return false;
  }
}
