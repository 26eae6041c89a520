import { dottedPath, type SchemaProblem } from "../errors/index.js";
import { CONFIG_ENV_VARIABLES, type ConfigError, type Env } from "../pipeline/index.js";
import { CliUsageError } from "./cli-io.js";

/**
 * The flag of `verify` (and `preset save`) that sets each config field: `buildConfig` in verify-command.ts and
 * `applyAgenticOptions` in agentic-options.ts write these fields from these flags.
 */
export const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  answering_models: "--answering",
  parsing_models: "--parsing",
  replicate_count: "--replicates",
  async_enabled: "--concurrency",
  async_max_workers: "--concurrency",
  max_concurrent_requests: "--concurrency",
  evaluation_mode: "--mode",
  abstention_enabled: "--abstention",
  sufficiency_enabled: "--sufficiency",
  deep_judgment_mode: "--deep-judgment",
  agentic_parsing: "--agentic-parsing",
  agentic_judge_context: "--judge-context",
  agentic_parsing_max_turns: "--agent-max-turns",
  workspace_copy: "--no-workspace-copy",
  workspace_cleanup: "--keep-workspaces",
  workspace_output_mode: "--capture-workspaces",
  workspace_output_dir: "--capture-dir",
  workspace_output_exclude_patterns: "--capture-exclude",
};

/** Where the fields of a config built from the command line came from. */
export interface ConfigSources {
  /** Fields a flag set (or changed). */
  fromFlags: ReadonlySet<string>;
  /** The fields of the input: those absent took their value from the environment or the default. */
  given: ReadonlySet<string>;
  /** The model SPECs of `-a` and `-p`, in order. */
  specs: { answering_models?: readonly string[]; parsing_models?: readonly string[] };
  /** The `--preset` the rest came from, if any. */
  preset: string | undefined;
  env: Env;
  /** Flags that set a field instead of the one {@link FLAG_OF_FIELD} names (the original's aliases). */
  flags?: Readonly<Record<string, string>>;
}

/** The flag that set `field`: the one the user gave, else our own. */
const flagOf = (field: string, sources: ConfigSources): string | undefined =>
  sources.flags?.[field] ?? FLAG_OF_FIELD[field];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A model field's place: `--answering openai:gpt-4.1-mini` when a flag gave it, else `answering model 2`. */
function modelPlace(role: string, index: unknown, sources: ConfigSources): string {
  const spec =
    typeof index === "number" ? sources.specs[role as keyof ConfigSources["specs"]]?.[index] : undefined;
  if (spec !== undefined) return `${flagOf(role, sources)} ${spec}`;
  return `${role.replace("_models", "")} model${typeof index === "number" ? ` ${index + 1}` : "s"}`;
}

/** Where a problem is, in the terms the user gave it: a flag, an environment variable or a preset's field. */
function place(path: readonly PropertyKey[], sources: ConfigSources): { where: string; byFlag: boolean } {
  const field = String(path[0] ?? "");
  const flag = flagOf(field, sources);
  const variable = CONFIG_ENV_VARIABLES[field];
  if (sources.fromFlags.has(field) && flag !== undefined) {
    if (field === "answering_models" || field === "parsing_models") {
      const model = modelPlace(field, path[1], sources);
      const rest = path.slice(2);
      return { where: rest.length === 0 ? model : `${model}: ${dottedPath(rest)}`, byFlag: true };
    }
    const rest = path.slice(1);
    return { where: rest.length === 0 ? flag : `${flag} (${dottedPath(rest)})`, byFlag: true };
  }
  if (!sources.given.has(field) && variable !== undefined && sources.env[variable] !== undefined) {
    const used = flag === undefined ? "" : `, used when ${flag} is not given`;
    return { where: `environment variable ${variable}${used}`, byFlag: false };
  }
  // A field nobody gave is named by the flag that gives it: "--deep-judgment-rubric-config: is required".
  if (!sources.given.has(field) && flag !== undefined && sources.preset === undefined)
    return { where: flag, byFlag: false };
  const shown = dottedPath(path) || "(config)";
  if (sources.preset !== undefined) return { where: `preset ${sources.preset}: ${shown}`, byFlag: false };
  return { where: shown, byFlag: false };
}

/** A rule's message with the fields flags set named by those flags (`agentic_parsing` → `--agentic-parsing`). */
function inFlagTerms(message: string, sources: ConfigSources): string {
  let text = message;
  for (const field of sources.fromFlags) {
    const flag = flagOf(field, sources);
    if (flag !== undefined) text = text.replace(new RegExp(`\\b${escapeRegExp(field)}\\b`, "g"), flag);
  }
  return text;
}

function renderProblem(problem: SchemaProblem, sources: ConfigSources): string {
  const { where, byFlag } = place(problem.path, sources);
  const message = inFlagTerms(problem.message, sources);
  // A switch given on the command line is on by being there: "found the boolean true" says nothing.
  return `${where}: ${byFlag ? message.replace(/, found the boolean (true|false)$/, "") : message}`;
}

/**
 * A config error as the command line's user sees it: each problem named by the flag that set the field (or
 * the environment variable or preset it came from), never by an internal field name the user did not write.
 * `KARENINA_ASYNC_MAX_WORKERS=0 karenina verify ...` gives "invalid run settings: environment variable
 * KARENINA_ASYNC_MAX_WORKERS, used when --concurrency is not given: Too small: ...".
 */
export function configErrorInFlagTerms(error: ConfigError, sources: ConfigSources): CliUsageError {
  const problems = error.problems.map((problem) => renderProblem(problem, sources));
  return new CliUsageError(
    problems.length === 1
      ? `invalid run settings: ${problems[0]}`
      : `invalid run settings:\n${problems.map((line) => `  ${line}`).join("\n")}`,
  );
}
