import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { runKarenina } from "../test-support/cli.js";
import { EXIT } from "./cli-io.js";

let parent: string;
let dir: string;
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), "karenina-cli-init-"));
  dir = join(parent, "project");
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

const FILES = [
  ".env",
  ".gitignore",
  "README.md",
  "checkpoints",
  "dbs",
  "defaults.json",
  "mcp_presets",
  "presets",
  "questions.csv",
];

describe("karenina init", () => {
  test("writes a .gitignore that keeps .env and run state files out of git, and completes an existing one", async () => {
    const fresh = await runKarenina("init", dir);
    expect(fresh.code).toBe(EXIT.ok);
    expect(fresh.out).toMatch(/created +\.gitignore/);
    const ignore = (await readFile(join(dir, ".gitignore"), "utf8")).split("\n");
    for (const pattern of [".env", "*.state.json", "*.db-wal", ".karenina-cache/"])
      expect(ignore).toContain(pattern);

    const other = join(parent, "existing");
    await mkdir(other);
    await writeFile(join(other, ".gitignore"), "node_modules/\n.env\n", "utf8");
    const completed = await runKarenina("init", other);
    expect(completed.code).toBe(EXIT.ok);
    expect(completed.out).toMatch(/updated +\.gitignore/);
    const text = await readFile(join(other, ".gitignore"), "utf8");
    expect(text.startsWith("node_modules/\n.env\n\n# added by karenina init\n")).toBe(true);
    expect(text.split("\n").filter((line) => line === ".env")).toHaveLength(1);
    expect(text.split("\n")).toContain("*.state.json");

    const again = await runKarenina("init", other, "--force");
    expect(again.out).toMatch(/kept +\.gitignore/);
    expect(await readFile(join(other, ".gitignore"), "utf8")).toBe(text);
  });

  test("creates the config, the folders and the worked example, and says what it created", async () => {
    const run = await runKarenina("init", dir);
    expect(run.code).toBe(EXIT.ok);
    expect((await readdir(dir)).sort()).toEqual(FILES);
    expect(await readdir(join(dir, "checkpoints"))).toEqual(["example.jsonld"]);
    for (const path of [
      "defaults.json",
      ".env",
      "dbs/",
      "checkpoints/example.jsonld",
      "questions.csv",
      "README.md",
    ])
      expect(run.out).toMatch(new RegExp(`created +${path.replace(".", "\\.")}`));

    expect(JSON.parse(await readFile(join(dir, "defaults.json"), "utf8"))).toEqual({
      default_interface: "openai",
      default_provider: "openai",
      default_model: "gpt-4.1-mini",
      default_endpoint_base_url: "",
    });
    const env = await readFile(join(dir, ".env"), "utf8");
    expect((await stat(join(dir, ".env"))).mode & 0o777).toBe(0o600);
    expect(env).toContain(`DB_PATH=${join(dir, "dbs")}\n`);
    expect(env).toContain(`KARENINA_PRESETS_DIR=${join(dir, "presets")}\n`);
    expect(env).toContain(`MCP_PRESETS_DIR=${join(dir, "mcp_presets")}\n`);
    expect(env).toContain("# OPENAI_API_KEY=\n");
    // Every API-key line is a commented-out placeholder.
    expect(env.split("\n").filter((line) => /^[A-Z_]*API_KEY/.test(line))).toEqual([]);

    const readme = await readFile(join(dir, "README.md"), "utf8");
    for (const command of [
      "karenina import",
      "karenina generate-templates",
      "--dry-run",
      "karenina verify",
      "karenina results",
    ])
      expect(readme).toContain(command);
  });

  test("the example checkpoint loads, has templates and a rubric trait, and passes checkpoint validate", async () => {
    await runKarenina("init", dir);
    const file = join(dir, "checkpoints", "example.jsonld");
    const bench = await Benchmark.load(file);
    expect(bench.size).toBe(4);
    expect(bench.finishedCount).toBe(4);
    expect(bench.getQuestionIds().every((id) => bench.hasTemplate(id))).toBe(true);
    expect(bench.getGlobalRubric()?.llm_traits.map((trait) => trait.name)).toEqual(["conciseness"]);

    // Hand-written parsed answers, as a judge would return them.
    const [venetoclax, chromosomes] = bench.getQuestionIds();
    const target = await bench.getAnswerTemplate(venetoclax ?? "");
    expect((await target.evaluate({ target: "BCL-2" })).verify).toBe(true);
    expect((await target.evaluate({ target: "MCL1" })).verify).toBe(false);
    const count = await bench.getAnswerTemplate(chromosomes ?? "");
    expect((await count.evaluate({ count: 46 })).verify).toBe(true);
    expect((await count.evaluate({ count: 48 })).verify).toBe(false);

    const validate = await runKarenina("checkpoint", "validate", file);
    expect(validate.code).toBe(EXIT.ok);
    expect(validate.out).toContain("ready for verification");
  });

  test("the sample spreadsheet imports with the README's command", async () => {
    await runKarenina("init", dir);
    const readme = await readFile(join(dir, "README.md"), "utf8");
    expect(readme).toContain('-q Question -a Answer --keywords-column "Keywords:;"');
    const out = join(dir, "checkpoints", "mine.jsonld");
    const run = await runKarenina(
      "import",
      join(dir, "questions.csv"),
      ...[
        "-q",
        "Question",
        "-a",
        "Answer",
        "--keywords-column",
        "Keywords:;",
        "--author-name-column",
        "Author",
      ],
      ...[
        "--notes-column",
        "Notes",
        "--metadata-column",
        "Difficulty",
        "--url-column",
        "Source",
        "--finished",
      ],
      ...["-o", out],
    );
    expect(run.code).toBe(EXIT.ok);
    expect(run.err).toBe("");
    const questions = (await Benchmark.load(out)).getAllQuestions();
    expect(questions).toHaveLength(4);
    expect(questions[0]).toMatchObject({
      keywords: ["enzymes", "pharmacology"],
      answer_notes: "Either isoform, or COX, counts as correct",
      custom_metadata: { url: "https://example.org/aspirin", Difficulty: 2 },
    });
  });

  test("refuses to overwrite existing config without --force, changing nothing", async () => {
    await mkdir(dir);
    await writeFile(join(dir, "defaults.json"), '{"mine": true}\n', "utf8");
    await writeFile(join(dir, "README.md"), "my project\n", "utf8");
    const run = await runKarenina("init", dir);
    expect(run.code).toBe(EXIT.usage);
    expect(run.err).toContain(`${dir} already has defaults.json, README.md; nothing was changed`);
    expect(run.err).toContain("Pass --force");
    expect((await readdir(dir)).sort()).toEqual(["README.md", "defaults.json"]);
    expect(await readFile(join(dir, "defaults.json"), "utf8")).toBe('{"mine": true}\n');
    expect(await readFile(join(dir, "README.md"), "utf8")).toBe("my project\n");
  });

  test("--force overwrites the files and keeps existing folders and what is in them", async () => {
    await mkdir(join(dir, "presets"), { recursive: true });
    await writeFile(join(dir, "presets", "nightly.json"), "{}\n", "utf8");
    await writeFile(join(dir, ".env"), "OPENAI_API_KEY=old\n", { mode: 0o644 });
    const run = await runKarenina("init", dir, "--force", "--provider", "ollama");
    expect(run.code).toBe(EXIT.ok);
    expect(run.out).toMatch(/overwrote +\.env/);
    expect(run.out).toMatch(/kept +presets\//);
    expect(await readFile(join(dir, "presets", "nightly.json"), "utf8")).toBe("{}\n");
    expect((await stat(join(dir, ".env"))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir, ".env"), "utf8")).not.toContain("old");
    expect(JSON.parse(await readFile(join(dir, "defaults.json"), "utf8"))).toMatchObject({
      default_interface: "openai_endpoint",
      default_model: "llama3.1",
      default_endpoint_base_url: "http://127.0.0.1:11434/v1",
    });
    expect(await readFile(join(dir, "README.md"), "utf8")).toContain(
      "-a openai_endpoint:llama3.1@http://127.0.0.1:11434/v1",
    );
  });

  test("an unknown provider is a usage error", async () => {
    const run = await runKarenina("init", dir, "--provider", "mistral");
    expect(run.code).toBe(EXIT.usage);
    expect(run.err).toContain("Allowed choices are openai, anthropic, google, ollama");
    await expect(stat(dir)).rejects.toThrow();
  });
});
