import { readdir, readFile, unlink } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { writeFileAtomic } from "../../checkpoint/index.js";
import { dottedPath } from "../../errors/index.js";
import {
  ConfigError,
  type PresetFile,
  parseVerificationConfig,
  presetContent,
  savePreset,
  type VerificationConfig,
} from "../../pipeline/index.js";
import { ApiError } from "../core/index.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The presets directory of a server: `KARENINA_PRESETS_DIR` (relative to the work directory), else `presets`. */
export function presetsDirectory(workDir: string, env: Env): string {
  return resolve(workDir, env.KARENINA_PRESETS_DIR ?? "presets");
}

/** What a preset list shows of a config (spec 07 §2.2). */
export interface PresetConfigSummary {
  answering_model_count: number;
  parsing_model_count: number;
  total_model_count: number;
  replicate_count: number;
  enabled_features: string[];
  interfaces: string[];
}

/** A readable preset file. */
export interface StoredPreset extends PresetFile {
  readonly file: string;
  readonly summary: PresetConfigSummary;
}

/** The summary of a config: model counts, replicates, features on, interfaces used. */
export function presetSummary(config: VerificationConfig): PresetConfigSummary {
  const models = [...config.answering_models, ...config.parsing_models];
  const features: [string, boolean][] = [
    ["rubric", config.evaluation_mode !== "template_only"],
    ["abstention", config.abstention_enabled],
    ["sufficiency", config.sufficiency_enabled],
    ["deep_judgment", config.deep_judgment_mode !== "disabled"],
    ["deep_judgment_search", config.deep_judgment_search_enabled],
    ["few_shot", config.few_shot_config !== null && config.few_shot_config.source !== "disabled"],
  ];
  return {
    answering_model_count: config.answering_models.length,
    parsing_model_count: config.parsing_models.length,
    total_model_count: models.length,
    replicate_count: config.replicate_count,
    enabled_features: features.filter(([, on]) => on).map(([name]) => name),
    interfaces: [...new Set(models.map((model) => model.interface))].sort(),
  };
}

/** A config from a client; a bad one is a 422 naming each field (`body.config.replicate_count: ...`). */
export function configFromClient(config: unknown): VerificationConfig {
  try {
    return parseVerificationConfig(config, { env: {} });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const problems = error.problems.map((p) => ({
      field: ["body", "config", dottedPath(p.path)].filter((part) => part !== "").join("."),
      message: p.message,
    }));
    throw new ApiError(
      422,
      "invalid_request",
      problems.map((p) => `${p.field}: ${p.message}`).join("; "),
      problems,
    );
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Reads one preset file; a file that is not a usable preset throws with the reason. */
async function readPreset(file: string): Promise<StoredPreset> {
  const data: unknown = JSON.parse(await readFile(file, "utf8"));
  if (!isObject(data) || !isObject(data.config)) throw new Error("not a preset (no `config` object)");
  const config = configFromClient(data.config);
  const text = (key: string) => (typeof data[key] === "string" ? (data[key] as string) : null);
  return {
    file,
    id: text("id") ?? basename(file, ".json"),
    name: text("name") ?? basename(file, ".json"),
    description: text("description"),
    config: data.config,
    created_at: text("created_at") ?? "",
    updated_at: text("updated_at") ?? "",
    summary: presetSummary(config),
  };
}

/** Every readable preset of `dir`, by name, and a warning per file skipped (spec 07 §2.2). */
export async function readPresets(dir: string): Promise<{ presets: StoredPreset[]; warnings: string[] }> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter(
    (name) => name.endsWith(".json") && !name.startsWith("."),
  );
  const presets: StoredPreset[] = [];
  const warnings: string[] = [];
  for (const name of names.sort()) {
    try {
      presets.push(await readPreset(join(dir, name)));
    } catch (error) {
      warnings.push(`${name} skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  presets.sort((a, b) => a.name.localeCompare(b.name));
  return { presets, warnings };
}

/** The preset with id `id`. @throws {ApiError} 404. */
export async function findPreset(dir: string, id: string): Promise<StoredPreset> {
  const found = (await readPresets(dir)).presets.find((preset) => preset.id === id);
  if (!found) throw ApiError.notFound(`preset ${JSON.stringify(id)}`);
  return found;
}

async function refuseTakenName(dir: string, name: string, exceptId: string | null): Promise<void> {
  const wanted = name.trim().toLowerCase();
  const { presets } = await readPresets(dir);
  const taken = presets.find((p) => p.id !== exceptId && p.name.trim().toLowerCase() === wanted);
  if (taken) throw ApiError.conflict(`a preset named ${JSON.stringify(taken.name)} exists`);
}

/** Saves a new preset (secrets masked, models sanitised as `karenina preset save` does). @throws {ApiError} 409. */
export async function createPreset(
  dir: string,
  input: { name: string; description?: string | undefined; config: unknown },
): Promise<StoredPreset> {
  const config = configFromClient(input.config);
  await refuseTakenName(dir, input.name, null);
  const file = await savePreset(config, input.name, { dir, description: input.description ?? null }).catch(
    (error: Error) => {
      throw ApiError.conflict(error.message);
    },
  );
  return readPreset(file);
}

/** Changes a preset's name, description or config, keeping its id, file and creation time. */
export async function updatePreset(
  dir: string,
  id: string,
  changes: { name?: string | undefined; description?: string | undefined; config?: unknown },
): Promise<StoredPreset> {
  const current = await findPreset(dir, id);
  if (changes.name !== undefined) await refuseTakenName(dir, changes.name, id);
  const config = configFromClient(changes.config ?? current.config);
  const content = presetContent(config, {
    id: current.id,
    name: (changes.name ?? current.name).trim(),
    description: changes.description ?? current.description,
  });
  await writeFileAtomic(
    current.file,
    `${JSON.stringify({ ...content, created_at: current.created_at || content.created_at }, null, 2)}\n`,
  );
  return readPreset(current.file);
}

/** Deletes a preset file. @throws {ApiError} 404. */
export async function deletePreset(dir: string, id: string): Promise<void> {
  await unlink((await findPreset(dir, id)).file);
}
