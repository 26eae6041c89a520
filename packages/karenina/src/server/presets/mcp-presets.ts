import { mkdir, readdir, readFile, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../../checkpoint/index.js";
import { ApiError } from "../core/index.js";

/** An MCP server a user keeps for reuse: its name, streamable-HTTP URL and (optionally) the tools to offer. */
export const McpPresetSchema = z
  .object({
    name: z.string().min(1).max(100),
    url: z
      .string()
      .max(2000)
      .regex(/^https?:\/\/[^\s]+$/i, "expected an http:// or https:// URL"),
    tools: z.array(z.string().min(1).max(200)).max(500).optional(),
  })
  .meta({ id: "McpPreset" });
export type McpPreset = z.infer<typeof McpPresetSchema>;

/** The MCP presets directory: `KARENINA_MCP_PRESETS_DIR` (relative to the work directory), else `mcp_presets`. */
export function mcpPresetsDirectory(
  workDir: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return resolve(workDir, env.KARENINA_MCP_PRESETS_DIR ?? "mcp_presets");
}

/**
 * The file stem of a preset name: lower-case, every character but `a-z0-9` as `_`, at most 100 characters
 * (spec 07 §2.2), so no name reaches outside the directory.
 */
export function mcpPresetStem(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "_")
      .slice(0, 100) || "_"
  );
}

/** Every readable MCP preset by name, and a warning per file skipped. */
export async function readMcpPresets(
  dir: string,
): Promise<{ presets: Record<string, McpPreset>; warnings: string[] }> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter(
    (name) => name.endsWith(".json") && !name.startsWith("."),
  );
  const presets: Record<string, McpPreset> = {};
  const warnings: string[] = [];
  for (const name of names.sort()) {
    try {
      const parsed = McpPresetSchema.safeParse(JSON.parse(await readFile(join(dir, name), "utf8")));
      if (!parsed.success)
        throw new Error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      presets[parsed.data.name] = parsed.data;
    } catch (error) {
      warnings.push(`${name} skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { presets, warnings };
}

/** Writes (or replaces) the preset, in the file its sanitised name gives. */
export async function saveMcpPreset(dir: string, preset: McpPreset): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(
    join(dir, `${mcpPresetStem(preset.name)}.json`),
    `${JSON.stringify(preset, null, 2)}\n`,
  );
}

/** Deletes the preset of that name. @throws {ApiError} 404. */
export async function deleteMcpPreset(dir: string, name: string): Promise<void> {
  await unlink(join(dir, `${mcpPresetStem(name)}.json`)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") throw ApiError.notFound(`MCP preset ${JSON.stringify(name)}`);
    throw error;
  });
}
