import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, test } from "vitest";
import {
  listPresets,
  loadPreset,
  PresetError,
  PresetNotFoundError,
  parseVerificationConfig,
  presetFileName,
  resolvePresetsDir,
  SECRET_MASK,
  savePreset,
} from "./index.js";

const config = parseVerificationConfig({
  answering_models: [
    {
      id: "local",
      model_name: "qwen",
      interface: "openai_endpoint",
      endpoint_base_url: "http://127.0.0.1:8000",
      endpoint_api_key: "sk-preset-secret",
    },
  ],
  parsing_models: [{ id: "judge", model_name: "gpt-4.1-mini", model_provider: "openai" }],
  abstention_enabled: true,
  generation_instructions: "Answer in one word.",
});

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-presets-"));
});

describe("presets", () => {
  test("save then load gives back the same config, without the API key", async () => {
    const file = await savePreset(config, "Local Qwen (fast)", { dir, description: "for tests" });
    expect(file).toBe(join(dir, "local-qwen-fast.json"));
    const text = await readFile(file, "utf8");
    expect(text).not.toContain("sk-preset-secret");
    expect(JSON.parse(text).config.answering_models[0].endpoint_api_key).toBe(SECRET_MASK);

    const preset = await loadPreset("local-qwen-fast", { dir });
    expect(preset).toMatchObject({ name: "Local Qwen (fast)", description: "for tests" });
    expect(preset.config.abstention_enabled).toBe(true);
    expect(preset.config.prompt_config?.generation).toBe("Answer in one word.");
    expect(preset.config.answering_models[0]?.endpoint_base_url).toBe("http://127.0.0.1:8000");
    expect(preset.config.answering_models[0]?.endpoint_api_key).toBeNull();
    expect(await readdir(dir)).toEqual(["local-qwen-fast.json"]);
  });

  test("saving never overwrites an existing preset", async () => {
    await savePreset(config, "same", { dir });
    await expect(savePreset(config, "same", { dir })).rejects.toThrow(
      /same\.json: a preset with this file name already exists/,
    );
    expect(await readdir(dir)).toEqual(["same.json"]);
  });

  test("names are validated and turned into safe file names", async () => {
    await expect(savePreset(config, "   ", { dir })).rejects.toThrow(PresetError);
    expect(presetFileName("  Ünïcode -- Run #2  ")).toBe("ncode-run-2.json");
    expect(presetFileName("???")).toBe("preset.json");
  });

  test("a preset with an invalid config is refused naming the file and the field", async () => {
    const file = join(dir, "broken.json");
    await writeFile(
      file,
      JSON.stringify({ name: "broken", config: { parsing_models: [], replicate_count: 0 } }),
    );
    const error = await loadPreset("broken", { dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PresetError);
    expect((error as PresetError).file).toBe(file);
    expect((error as Error).message).toContain(`${file}: config.replicate_count:`);
  });

  test("a preset without config, or not JSON, is refused", async () => {
    await writeFile(join(dir, "empty.json"), JSON.stringify({ name: "empty", config: {} }));
    await writeFile(join(dir, "garbage.json"), "{ not json");
    await expect(loadPreset("empty", { dir })).rejects.toThrow(/empty\.json: config: missing or empty/);
    await expect(loadPreset("garbage.json", { dir })).rejects.toThrow(/garbage\.json: not readable as JSON/);
  });

  test("a missing preset points to the listing command", async () => {
    await expect(loadPreset("nope", { dir })).rejects.toThrow(PresetNotFoundError);
    await expect(loadPreset("nope", { dir })).rejects.toThrow(/karenina preset list/);
  });

  test("listing reports each preset and the files that are not presets", async () => {
    await savePreset(config, "alpha", { dir, description: "first" });
    await writeFile(join(dir, "zeta.json"), "nope");
    const list = await listPresets({ dir });
    expect(list.map((p) => [p.name, p.description, p.problem === null])).toEqual([
      ["alpha", "first", true],
      ["zeta", null, false],
    ]);
    expect(await listPresets({ dir: join(dir, "missing") })).toEqual([]);
  });

  test("the directory comes from the option, then KARENINA_PRESETS_DIR, then ./presets", () => {
    expect(resolvePresetsDir({ dir, env: { KARENINA_PRESETS_DIR: "/elsewhere" } })).toBe(dir);
    expect(resolvePresetsDir({ env: { KARENINA_PRESETS_DIR: "/elsewhere" } })).toBe("/elsewhere");
    expect(resolvePresetsDir()).toBe(join(process.cwd(), "presets"));
  });
});
