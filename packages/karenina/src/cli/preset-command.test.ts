import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { KareninaError } from "../errors/index.js";
import { loadPreset, SECRET_MASK } from "../pipeline/index.js";
import { type CliIo, CliUsageError, EXIT } from "./cli-io.js";
import { registerPresetCommand } from "./preset-command.js";

/** The preset commands on a bare program, with `runCli`'s mapping of errors to exit codes. */
async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = "";
  let err = "";
  const io: CliIo = { out: (t) => (out += t), err: (t) => (err += t) };
  const program = new Command("karenina")
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride();
  registerPresetCommand(program, io, env);
  let code: number = EXIT.ok;
  try {
    await program.parseAsync(args, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) code = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    else if (error instanceof CliUsageError || KareninaError.isInstance(error)) {
      io.err(`error: ${(error as Error).message}\n`);
      code = EXIT.usage;
    } else throw error;
  }
  return { code, out, err };
}

const LOCAL = "openai_endpoint:qwen@http://127.0.0.1:8000/v1";
const JUDGE = "openai:gpt-4.1-mini";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-presets-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Saves "Local Qwen" (answered by a local server whose key is in $LOCAL_KEY, judged by gpt-4.1-mini) in `dir`. */
const saveLocalQwen = (...extra: string[]) =>
  run(
    [
      "preset",
      "save",
      "Local Qwen",
      "--dir",
      dir,
      "--description",
      "nightly smoke run",
      "-a",
      LOCAL,
      "-p",
      JUDGE,
      "--endpoint-key-env",
      "LOCAL_KEY",
      ...extra,
    ],
    { LOCAL_KEY: "sk-live-secret-123" },
  );

describe("karenina preset save", () => {
  test("writes a preset that loads back with its models and flags, and never the API key", async () => {
    const { code, out, err } = await saveLocalQwen(
      "--replicates",
      "3",
      "--abstention",
      "-m",
      "template_and_rubric",
    );
    const file = join(dir, "local-qwen.json");
    expect(code).toBe(EXIT.ok);
    expect(out).toBe(`Saved preset "Local Qwen" to ${file}\n`);
    expect(err).toContain("API keys are not stored");

    const text = await readFile(file, "utf8");
    expect(text).not.toContain("sk-live-secret-123");
    const saved = JSON.parse(text);
    expect(saved).toMatchObject({ name: "Local Qwen", description: "nightly smoke run" });
    expect(saved.config.answering_models[0].endpoint_api_key).toBe(SECRET_MASK);

    const preset = await loadPreset("local-qwen", { dir });
    expect(
      preset.config.answering_models.map((m) => [m.interface, m.model_name, m.endpoint_base_url]),
    ).toEqual([["openai_endpoint", "qwen", "http://127.0.0.1:8000/v1"]]);
    expect(preset.config.parsing_models.map((m) => [m.interface, m.model_name])).toEqual([
      ["openai", "gpt-4.1-mini"],
    ]);
    expect(preset.config).toMatchObject({
      replicate_count: 3,
      abstention_enabled: true,
      evaluation_mode: "template_and_rubric",
    });
  });

  test("refuses to overwrite an existing preset and says how to delete it", async () => {
    await saveLocalQwen();
    const before = await readFile(join(dir, "local-qwen.json"), "utf8");
    const { code, err } = await saveLocalQwen("--replicates", "5");
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("already exists");
    expect(err).toContain(`karenina preset delete local-qwen --dir ${dir}`);
    expect(await readFile(join(dir, "local-qwen.json"), "utf8")).toBe(before);
  });

  test("a blank or too long name, or a too long description, is refused and nothing is written", async () => {
    const save = (name: string, ...extra: string[]) =>
      run(["preset", "save", name, "--dir", dir, "-a", JUDGE, "-p", JUDGE, ...extra]);
    const blank = await save("   ");
    expect(blank.code).toBe(EXIT.usage);
    expect(blank.err).toContain("preset name must be 1 to 100 characters");
    expect((await save("x".repeat(101))).code).toBe(EXIT.usage);
    const long = await save("ok", "--description", "d".repeat(501));
    expect(long.code).toBe(EXIT.usage);
    expect(long.err).toContain("--description must be at most 500 characters (got 501)");
    expect(await readdir(dir)).toEqual([]);
  });

  test("without a parsing model, or with the manual interface, nothing is saved", async () => {
    const noJudge = await run(["preset", "save", "half", "--dir", dir, "-a", JUDGE]);
    expect(noJudge.code).toBe(EXIT.usage);
    expect(noJudge.err).toContain("give at least one --parsing model");
    const manual = await run(["preset", "save", "manual", "--dir", dir, "-a", "manual", "-p", JUDGE]);
    expect(manual.code).toBe(EXIT.usage);
    expect(manual.err).toContain("the manual interface cannot be saved");
    expect(await readdir(dir)).toEqual([]);
  });

  test("warns about a model setting that presets do not keep", async () => {
    const { code, err } = await run([
      "preset",
      "save",
      "proxied",
      "--dir",
      dir,
      "-a",
      "anthropic:claude-haiku-4-5@http://127.0.0.1:9000",
      "-p",
      JUDGE,
    ]);
    expect(code).toBe(EXIT.ok);
    expect(err).toContain(
      "warning: not kept in presets (spec 04 §2.7): answering model claude-haiku-4-5: anthropic_base_url",
    );
  });
});

describe("karenina preset list", () => {
  test("a table of name, description, models and update time, then the total", async () => {
    await saveLocalQwen();
    await run(["preset", "save", "judge only", "--dir", dir, "-a", JUDGE, "-p", JUDGE]);
    const { code, out } = await run(["preset", "list", "--dir", dir]);
    expect(code).toBe(EXIT.ok);
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/^NAME\s+DESCRIPTION\s+MODELS \(answering → parsing\)\s+UPDATED \(UTC\)$/);
    expect(lines[1]).toMatch(
      /^judge-only\s+openai:gpt-4\.1-mini → openai:gpt-4\.1-mini\s+\d{4}-\d\d-\d\d \d\d:\d\d$/,
    );
    expect(lines[2]).toMatch(
      /^local-qwen\s+nightly smoke run\s+openai_endpoint:qwen → openai:gpt-4\.1-mini\s+\d{4}-/,
    );
    expect(out).toContain(`2 presets in ${dir}\n`);
  });

  test("--json gives the directory and each preset's models", async () => {
    await saveLocalQwen();
    const { code, out } = await run(["preset", "list", "--dir", dir, "--json"]);
    expect(code).toBe(EXIT.ok);
    const report = JSON.parse(out);
    expect(report.dir).toBe(dir);
    expect(report.presets).toEqual([
      {
        name: "local-qwen",
        display_name: "Local Qwen",
        description: "nightly smoke run",
        answering_models: ["openai_endpoint:qwen"],
        parsing_models: ["openai:gpt-4.1-mini"],
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        file: join(dir, "local-qwen.json"),
        problem: null,
      },
    ]);
  });

  test("an empty or missing directory gives a friendly line", async () => {
    const empty = await run(["preset", "list", "--dir", dir]);
    expect(empty.code).toBe(EXIT.ok);
    expect(empty.out).toContain(`No presets in ${dir}.`);
    expect(empty.out).toContain("karenina preset save NAME");
    const missing = await run(["preset", "list", "--dir", join(dir, "nope"), "--json"]);
    expect(JSON.parse(missing.out)).toEqual({ dir: join(dir, "nope"), presets: [] });
  });

  test("the directory defaults to KARENINA_PRESETS_DIR", async () => {
    await saveLocalQwen();
    const { out } = await run(["preset", "list"], { KARENINA_PRESETS_DIR: dir });
    expect(out).toContain("local-qwen");
    expect(out).toContain(`1 preset in ${dir}`);
  });

  test("a file that is not a usable preset is listed and explained on stderr", async () => {
    await saveLocalQwen();
    await writeFile(join(dir, "broken.json"), "{ not json");
    const { code, out, err } = await run(["preset", "list", "--dir", dir]);
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/^broken\s+\(not a usable preset\)\s+-/m);
    expect(err).toContain("warning: broken:");
    expect(err).toContain("not readable as JSON");
  });
});

describe("karenina preset show", () => {
  test("prints name, file, the config without nulls, and a summary", async () => {
    await saveLocalQwen("--sufficiency", "--deep-judgment", "full");
    const { code, out } = await run(["preset", "show", "local-qwen", "--dir", dir]);
    expect(code).toBe(EXIT.ok);
    expect(out).toContain("name:        Local Qwen\n");
    expect(out).toContain(`file:        ${join(dir, "local-qwen.json")}\n`);
    expect(out).toContain("description: nightly smoke run\n");
    expect(out).toContain('"endpoint_base_url": "http://127.0.0.1:8000/v1"');
    expect(out).not.toContain("null");
    expect(out).toContain("answering models: 1 (openai_endpoint:qwen)");
    expect(out).toContain("sufficiency:      on");
    expect(out).toContain("deep judgment:    full");
  });

  test("finds a preset by the name it was saved under, and --json prints the config", async () => {
    await saveLocalQwen();
    const { code, out } = await run(["preset", "show", "Local Qwen", "--dir", dir, "--json"]);
    expect(code).toBe(EXIT.ok);
    const shown = JSON.parse(out);
    expect(shown).toMatchObject({ name: "Local Qwen", file: join(dir, "local-qwen.json") });
    expect(shown.config.parsing_models[0]).toMatchObject({ interface: "openai", model_name: "gpt-4.1-mini" });
  });

  test("masks an API key written into the file by hand", async () => {
    const file = join(dir, "hand.json");
    const model = {
      id: "m",
      model_name: "m",
      interface: "openai_endpoint",
      endpoint_base_url: "http://h/v1",
    };
    await writeFile(
      file,
      JSON.stringify({
        name: "hand",
        config: {
          answering_models: [{ ...model, endpoint_api_key: "sk-handwritten" }],
          parsing_models: [model],
        },
      }),
    );
    const { code, out } = await run(["preset", "show", file]);
    expect(code).toBe(EXIT.ok);
    expect(out).not.toContain("sk-handwritten");
    expect(out).toContain(`"endpoint_api_key": "${SECRET_MASK}"`);
  });

  test("a missing preset points to the listing; an invalid one names the field", async () => {
    const missing = await run(["preset", "show", "nope", "--dir", dir]);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain(`preset "nope" not found in ${dir}`);
    expect(missing.err).toContain("karenina preset list");
    await writeFile(join(dir, "bad.json"), JSON.stringify({ name: "bad", config: { replicate_count: 0 } }));
    const bad = await run(["preset", "show", "bad", "--dir", dir]);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain(`error: ${join(dir, "bad.json")}: config.`);
    expect(bad.err).toContain("config.replicate_count: Too small");
  });

  test("a preset naming an unknown interface names the file, the field and the interfaces there are", async () => {
    const models = (name: string) => [{ id: name, model_name: "m", interface: name }];
    const config = { answering_models: models("magic"), parsing_models: models("openai") };
    await writeFile(join(dir, "magic.json"), JSON.stringify({ name: "magic", config }));
    const { code, err } = await run(["preset", "show", "magic", "--dir", dir]);
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(
      `${join(dir, "magic.json")}: config.answering_models[0].interface: unknown interface "magic"`,
    );
    expect(err).toMatch(/known: langchain, .*openai_endpoint/);
  });
});

describe("karenina preset delete", () => {
  test("removes the preset file, by name or by path", async () => {
    await saveLocalQwen();
    await run(["preset", "save", "other", "--dir", dir, "-a", JUDGE, "-p", JUDGE]);
    const byName = await run(["preset", "delete", "local-qwen", "--dir", dir]);
    expect(byName.code).toBe(EXIT.ok);
    expect(byName.out).toBe(`Deleted preset local-qwen (${join(dir, "local-qwen.json")})\n`);
    const byPath = await run(["preset", "delete", join(dir, "other.json")]);
    expect(byPath.code).toBe(EXIT.ok);
    expect(await readdir(dir)).toEqual([]);
  });

  test("not found suggests `karenina preset list`", async () => {
    const { code, err } = await run(["preset", "delete", "ghost", "--dir", dir]);
    expect(code).toBe(EXIT.usage);
    expect(err).toContain('preset "ghost" not found');
    expect(err).toContain("karenina preset list");
  });

  test("a file outside the presets directory that is not a preset is left alone", async () => {
    const other = await mkdtemp(join(tmpdir(), "karenina-cli-not-presets-"));
    try {
      const file = join(other, "package.json");
      await writeFile(file, JSON.stringify({ name: "not-a-preset" }));
      const { code, err } = await run(["preset", "delete", file, "--dir", dir]);
      expect(code).toBe(EXIT.usage);
      expect(err).toContain('does not read as a preset (no "config" object); not deleted');
      expect(await readdir(other)).toEqual(["package.json"]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});

test.each(["list", "show", "save", "delete"])("`preset %s --help` has an example", async (sub) => {
  const { code, out } = await run(["preset", sub, "--help"]);
  expect(code).toBe(EXIT.ok);
  expect(out).toContain("Examples:");
  expect(out).toContain(`karenina preset ${sub}`);
});
