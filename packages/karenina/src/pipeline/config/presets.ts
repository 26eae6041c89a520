/** Verification presets (spec 04 §2.7): named JSON files holding a config dump, in a presets directory. */
import { randomUUID } from "node:crypto";
import { link, mkdir, readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { z } from "zod";
import { schemaProblems } from "../../errors/index.js";
import { ConfigError, PresetError, PresetNotFoundError } from "./errors.js";
import {
  dumpVerificationConfig,
  type Env,
  parseVerificationConfig,
  type VerificationConfig,
} from "./verification-config.js";

/** A preset file as written: the config dump and its metadata. */
export interface PresetFile {
  id: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** A preset as loaded: its metadata and its built config. */
export interface Preset {
  file: string;
  id: string | null;
  name: string;
  description: string | null;
  config: VerificationConfig;
}

/** One line of a listing; `problem` says why a file could not be read as a preset. */
export interface PresetSummary {
  file: string;
  name: string;
  description: string | null;
  updated_at: string | null;
  problem: string | null;
}

const PresetEnvelopeSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  updated_at: z.string().optional(),
});

/** The presets directory: `dir` if given, else `KARENINA_PRESETS_DIR`, else `./presets`. */
export function resolvePresetsDir(options: { dir?: string; env?: Env } = {}): string {
  return resolve(options.dir ?? options.env?.KARENINA_PRESETS_DIR ?? "presets");
}

/** The file name of a preset called `name`: lower-case, `-` for spaces, only `[a-z0-9-]`, at most 96 chars. */
export function presetFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/ /g, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
  return `${(slug || "preset").slice(0, 96)}.json`;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function readEnvelope(file: string): Promise<z.output<typeof PresetEnvelopeSchema>> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new PresetError(file, [
      { path: [], message: `not readable as JSON (${(error as Error).message})` },
    ]);
  }
  const envelope = PresetEnvelopeSchema.safeParse(data);
  if (!envelope.success) throw new PresetError(file, schemaProblems(envelope.error, data));
  return envelope.data;
}

/** Lists the presets of a directory (none when it does not exist), sorted by file name. */
export async function listPresets(options: { dir?: string; env?: Env } = {}): Promise<PresetSummary[]> {
  const dir = resolvePresetsDir(options);
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = names.filter((name) => name.endsWith(".json")).sort();
  return Promise.all(
    files.map(async (name): Promise<PresetSummary> => {
      const file = join(dir, name);
      try {
        const envelope = await readEnvelope(file);
        return {
          file,
          name: envelope.name ?? basename(name, ".json"),
          description: envelope.description ?? null,
          updated_at: envelope.updated_at ?? null,
          problem: null,
        };
      } catch (error) {
        return {
          file,
          name: basename(name, ".json"),
          description: null,
          updated_at: null,
          problem: String(error),
        };
      }
    }),
  );
}

/**
 * The file of a preset: an existing file path, else `<dir>/<name>.json` (the file stem), else the file
 * {@link savePreset} writes for that name, so the name it was saved under finds it too: "Local Qwen" finds
 * `<dir>/local-qwen.json`.
 * @throws {PresetNotFoundError} when none of those is a file.
 */
export async function findPresetFile(nameOrPath: string, dir: string): Promise<string> {
  if (await isFile(nameOrPath)) return resolve(nameOrPath);
  const candidates = [
    nameOrPath.endsWith(".json") ? nameOrPath : `${nameOrPath}.json`,
    presetFileName(nameOrPath),
  ];
  for (const candidate of candidates) {
    const file = resolve(dir, candidate);
    if (await isFile(file)) return file;
  }
  throw new PresetNotFoundError(nameOrPath, resolve(dir));
}

/**
 * Loads a preset by file path, by file stem or by the name it was saved under (see {@link findPresetFile})
 * in the presets directory, and builds its config.
 * @throws {PresetNotFoundError} when there is no such file.
 * @throws {PresetError} naming the file and every field at fault.
 */
export async function loadPreset(
  nameOrPath: string,
  options: { dir?: string; env?: Env } = {},
): Promise<Preset> {
  const file = await findPresetFile(nameOrPath, resolvePresetsDir(options));
  const envelope = await readEnvelope(file);
  if (envelope.config === undefined || Object.keys(envelope.config).length === 0) {
    throw new PresetError(file, [{ path: ["config"], message: "missing or empty" }]);
  }
  let config: VerificationConfig;
  try {
    config = parseVerificationConfig(envelope.config, { env: options.env ?? {} });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new PresetError(
      file,
      error.problems.map((p) => ({ path: ["config", ...p.path], message: p.message })),
    );
  }
  return {
    file,
    id: envelope.id ?? null,
    name: envelope.name ?? basename(file, ".json"),
    description: envelope.description ?? null,
    config,
  };
}

const ALWAYS_KEPT = ["id", "model_provider", "model_name", "temperature", "interface", "system_prompt"];
const KEPT_IF_PRESENT = ["max_tokens", "max_retries"];
const KEPT_IF_NOT_NULL = [
  "request_timeout",
  "agent_timeout",
  "mcp_http_timeout",
  "mcp_sse_read_timeout",
  "retry_policy",
  "max_context_tokens",
];
const KEPT_IF_NOT_EMPTY = [
  "mcp_urls_dict",
  "mcp_tool_description_overrides",
  "mcp_tool_filter",
  "extra_kwargs",
  "agent_runtime",
  "agent_middleware",
];
const ANTHROPIC_INTERFACES = new Set(["claude_tool", "claude_agent_sdk"]);

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/** A dumped model reduced to what a preset keeps (spec 04 §2.7); manual traces never are. */
function sanitizeModel(model: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ALWAYS_KEPT) out[key] = model[key] ?? null;
  for (const key of KEPT_IF_PRESENT) if (key in model) out[key] = model[key];
  for (const key of KEPT_IF_NOT_NULL)
    if (model[key] !== null && model[key] !== undefined) out[key] = model[key];
  const keepEndpoint = model.interface === "openai_endpoint";
  const keepAnthropic = ANTHROPIC_INTERFACES.has(String(model.interface));
  const conditional: [string, boolean][] = [
    ["endpoint_base_url", keepEndpoint],
    ["endpoint_api_key", keepEndpoint],
    ["anthropic_base_url", keepAnthropic],
    ["anthropic_api_key", keepAnthropic],
  ];
  for (const [key, keep] of conditional) if (keep && !isEmpty(model[key])) out[key] = model[key];
  for (const key of KEPT_IF_NOT_EMPTY) if (!isEmpty(model[key])) out[key] = model[key];
  return out;
}

/** The preset file content for a config: the JSON dump (secrets masked) with sanitized models. */
export function presetContent(
  config: VerificationConfig,
  meta: { name: string; description?: string | null; now?: Date; id?: string },
): PresetFile {
  const dump = dumpVerificationConfig(config);
  const models = (key: string) => (dump[key] as Record<string, unknown>[]).map(sanitizeModel);
  const stamp = (meta.now ?? new Date()).toISOString();
  return {
    id: meta.id ?? randomUUID(),
    name: meta.name,
    description: meta.description ?? null,
    config: {
      ...dump,
      answering_models: models("answering_models"),
      parsing_models: models("parsing_models"),
    },
    created_at: stamp,
    updated_at: stamp,
  };
}

/**
 * Saves a config as a new preset file and returns its path. The write is atomic (a temporary file, then a
 * hard link that fails if the name is taken), so an existing preset is never overwritten or half-written.
 * @throws {PresetError} for a blank or too long name or description, or an existing file.
 */
export async function savePreset(
  config: VerificationConfig,
  name: string,
  options: { description?: string | null; dir?: string; env?: Env; now?: Date } = {},
): Promise<string> {
  const dir = resolvePresetsDir(options);
  const file = join(dir, presetFileName(name));
  if (name.trim() === "" || name.length > 100) {
    throw new PresetError(file, [{ path: ["name"], message: "must be 1 to 100 characters, not blank" }]);
  }
  if ((options.description ?? "").length > 500) {
    throw new PresetError(file, [{ path: ["description"], message: "must be at most 500 characters" }]);
  }
  const content = presetContent(config, {
    name: name.trim(),
    description: options.description ?? null,
    ...options,
  });
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(file)}.${randomUUID()}.tmp`);
  await writeFile(temp, `${JSON.stringify(content, null, 2)}\n`, { encoding: "utf8", flag: "wx" });
  try {
    await link(temp, file);
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === "EEXIST";
    if (!exists) throw error;
    throw new PresetError(file, [{ path: [], message: "a preset with this file name already exists" }]);
  } finally {
    await unlink(temp);
  }
  return file;
}
