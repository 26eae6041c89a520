/**
 * `karenina checkpoint convert` never overwrites a file without `--force`, and a file that is not a valid
 * checkpoint gets every one of its problems listed (up to a limit), whatever command reads it.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { runKarenina } from "../test-support/cli.js";
import { BUNDLED_EXAMPLE, EXIT } from "./cli-io.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-convert-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("karenina checkpoint convert", () => {
  test("refuses to overwrite an existing output without --force, and overwrites it with --force", async () => {
    const output = join(dir, "out.jsonld");
    await writeFile(output, "my own notes\n", "utf8");
    const refused = await runKarenina("checkpoint", "convert", BUNDLED_EXAMPLE, output);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.err).toContain(
      `${output} already exists; nothing was written. Pass --force to overwrite it`,
    );
    expect(await readFile(output, "utf8")).toBe("my own notes\n");

    const forced = await runKarenina("checkpoint", "convert", BUNDLED_EXAMPLE, output, "--force");
    expect(forced.code).toBe(EXIT.ok);
    expect(forced.out).toContain(`Wrote ${output}`);
    expect((await Benchmark.load(output)).equals(await Benchmark.load(BUNDLED_EXAMPLE))).toBe(true);
  });

  test("the file checked is the one written: copy.txt is saved as copy.jsonld", async () => {
    await writeFile(join(dir, "copy.jsonld"), "{}", "utf8");
    const refused = await runKarenina("checkpoint", "convert", BUNDLED_EXAMPLE, join(dir, "copy.txt"));
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.err).toContain(`${join(dir, "copy.jsonld")} already exists`);
  });

  test("converting a file onto itself needs --force too", async () => {
    const file = join(dir, "bench.jsonld");
    await (await Benchmark.load(BUNDLED_EXAMPLE)).save(file);
    expect((await runKarenina("checkpoint", "convert", file, file)).code).toBe(EXIT.usage);
    expect((await runKarenina("checkpoint", "convert", file, file, "--force")).code).toBe(EXIT.ok);
  });
});

describe("an invalid checkpoint", () => {
  test("a JSON object that is no checkpoint lists every problem it has", async () => {
    const file = join(dir, "random.json");
    await writeFile(file, JSON.stringify({ hello: "world" }), "utf8");
    const { code, err } = await runKarenina("checkpoint", "inspect", file);
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(`${file}: 5 problems:`);
    for (const path of ['$["@context"]', "$.name", "$.dateCreated", "$.dataFeedElement"])
      expect(err).toContain(`  ${path}: `);
    expect(err).not.toContain("more problem");
  });

  test("past 20 problems the rest are counted", async () => {
    const file = join(dir, "many.jsonld");
    const bench = JSON.parse(await readFile(BUNDLED_EXAMPLE, "utf8"));
    const element = bench.dataFeedElement[0];
    bench.dataFeedElement = Array.from({ length: 30 }, (_, i) => ({
      ...element,
      "@id": `q${i}`,
      item: { ...element.item, text: 42 },
    }));
    await writeFile(file, JSON.stringify(bench), "utf8");
    const { code, err } = await runKarenina("checkpoint", "validate", file);
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(`${file}: 30 problems:`);
    expect(err).toContain("$.dataFeedElement[19].item.text: ");
    expect(err).not.toContain("$.dataFeedElement[20].item.text");
    expect(err).toContain("... and 10 more problems");
  });
});
