import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { INTERFACES, isKnownInterface } from "../../pipeline/config/index.js";
import { serialised } from "./file-lock.js";
import { isMissing, removeWithBackup, writePrivateFile } from "./private-file.js";

/** The project's default model settings (`karenina init` writes it), in the server's work directory. */
export const DEFAULTS_FILE = "defaults.json";

const httpUrl = (what: string) =>
  z.string().refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.host !== "";
    } catch {
      return false;
    }
  }, `${what}: an http(s) URL with a host, e.g. http://127.0.0.1:11434/v1`);

/** `defaults.json` (spec 07 §2.2, the original's keys); interfaces are the adapter registry's (spec 07 §1.8). */
export const ModelDefaultsSchema = z
  .object({
    default_interface: z
      .string()
      .refine(isKnownInterface, { message: `one of ${Object.keys(INTERFACES).join(", ")}` }),
    default_provider: z.string().trim().min(1, "a provider, e.g. anthropic"),
    default_model: z.string().trim().min(1, "a model name, e.g. claude-haiku-4-5"),
    default_endpoint_base_url: z.union([z.literal(""), httpUrl("the endpoint base URL")]).optional(),
    default_anthropic_base_url: z.union([z.literal(""), httpUrl("the Anthropic base URL")]).optional(),
    default_anthropic_opus_model: z.string().optional(),
    default_anthropic_sonnet_model: z.string().optional(),
    default_anthropic_haiku_model: z.string().optional(),
  })
  .superRefine((defaults, ctx) => {
    if (defaults.default_interface === "openai_endpoint" && !defaults.default_endpoint_base_url) {
      ctx.addIssue({
        code: "custom",
        path: ["default_endpoint_base_url"],
        message: "openai_endpoint needs the endpoint's base URL (scheme and host)",
      });
    }
  })
  .transform((defaults) =>
    defaults.default_interface.startsWith("claude_")
      ? { ...defaults, default_provider: "anthropic" }
      : defaults,
  )
  .meta({ id: "ModelDefaults" });
export type ModelDefaults = z.output<typeof ModelDefaultsSchema>;

/** What the server uses when there is no valid `defaults.json` (the original's fallback). */
export const FALLBACK_DEFAULTS: ModelDefaults = {
  default_interface: "langchain",
  default_provider: "anthropic",
  default_model: "claude-haiku-4-5",
  default_endpoint_base_url: "",
};

/** Whether `defaults.json` exists and holds valid defaults, and where it is. */
export const DefaultsStatusSchema = z
  .object({
    path: z.string(),
    exists: z.boolean(),
    valid: z.boolean(),
    modified_at: z.string().nullable().describe("ISO time of the last change, null when absent"),
    problem: z.string().nullable().describe("Why the file is not used, when it is not"),
    using_fallback: z.boolean(),
  })
  .meta({ id: "DefaultsStatus" });
export type DefaultsStatus = z.infer<typeof DefaultsStatusSchema>;

/** The `defaults.json` of a work directory. */
export class DefaultsFile {
  readonly path: string;

  constructor(workDir: string) {
    this.path = join(workDir, DEFAULTS_FILE);
  }

  /** The file's defaults, or the problem that keeps them from being used. */
  async read(): Promise<{ defaults: ModelDefaults | null; problem: string | null; exists: boolean }> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if (isMissing(error)) return { defaults: null, problem: null, exists: false };
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return { defaults: null, problem: `not JSON: ${(error as Error).message}`, exists: true };
    }
    const parsed = ModelDefaultsSchema.safeParse(json);
    if (!parsed.success) {
      const problem = parsed.error.issues
        .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
        .join("; ");
      return { defaults: null, problem, exists: true };
    }
    return { defaults: parsed.data, problem: null, exists: true };
  }

  /** The defaults in use: the file's, or {@link FALLBACK_DEFAULTS}. */
  async current(): Promise<ModelDefaults> {
    return (await this.read()).defaults ?? FALLBACK_DEFAULTS;
  }

  async status(): Promise<DefaultsStatus> {
    const { defaults, problem, exists } = await this.read();
    const modified = exists ? (await stat(this.path)).mtime.toISOString() : null;
    return {
      path: this.path,
      exists,
      valid: defaults !== null,
      modified_at: modified,
      problem,
      using_fallback: defaults === null,
    };
  }

  /** Writes validated defaults (0600, previous file kept as `defaults.json.bak`). */
  async write(defaults: ModelDefaults): Promise<void> {
    await serialised(this.path, () => writePrivateFile(this.path, `${JSON.stringify(defaults, null, 2)}\n`));
  }

  /** Removes the file (kept as `defaults.json.bak`), so the fallback applies. */
  async reset(): Promise<void> {
    await serialised(this.path, () => removeWithBackup(this.path));
  }
}
