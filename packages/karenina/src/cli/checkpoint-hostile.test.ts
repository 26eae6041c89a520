import { access, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runKarenina } from "../test-support/cli.js";
import {
  deepArrayJson,
  deepObjectJson,
  hostileCheckpointText,
  propertyJson,
  regexRatingJson,
} from "../test-support/hostile-checkpoints.js";
import { EXIT } from "./cli-io.js";

async function checkpointFile(name: string, text: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), "karenina-cli-hostile-"));
  const file = join(dir, name);
  await writeFile(file, text);
  return { dir, file };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe("karenina checkpoint convert / validate on a checkpoint nested 10,000 levels deep", () => {
  test.each([
    ["[[[…]]]", deepArrayJson(10_000)],
    ['{"a":{"a":…}}', deepObjectJson(10_000)],
  ])(
    "convert of a custom property %s: a clear error and exit 2, no stack trace, nothing written",
    async (_shape, deep) => {
      const { dir, file } = await checkpointFile(
        "deep.jsonld",
        hostileCheckpointText({ questionProperties: [propertyJson("custom_deep", deep)] }),
      );
      const output = join(dir, "out.jsonld");
      const { code, out, err } = await runKarenina("checkpoint", "convert", file, output);
      expect(code).toBe(EXIT.usage);
      expect(out).toBe("");
      expect(err).toMatch(
        new RegExp(
          `^error: ${file}: \\$\\.dataFeedElement\\[0\\]\\.item\\.additionalProperty\\[1\\]\\.value.*: cannot load: objects and arrays nested 10,006 levels deep; a checkpoint may nest at most 200 levels`,
        ),
      );
      expect(err).not.toMatch(/RangeError|\n\s+at /);
      expect(await exists(output)).toBe(false);
    },
  );

  test("validate: the same clear error and exit 2", async () => {
    const { file } = await checkpointFile(
      "deep.jsonld",
      hostileCheckpointText({ questionProperties: [propertyJson("custom_deep", deepArrayJson(10_000))] }),
    );
    const { code, err } = await runKarenina("checkpoint", "validate", file);
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("cannot load: objects and arrays nested 10,006 levels deep");
  });
});

describe("karenina checkpoint convert / validate with names that are Object.prototype names", () => {
  test("custom properties named __proto__, constructor and prototype convert, and convert again byte for byte", async () => {
    const { dir, file } = await checkpointFile(
      "names.jsonld",
      hostileCheckpointText({
        questionProperties: [
          propertyJson("custom___proto__", '{"polluted": true}'),
          propertyJson("custom_constructor", '"a builder"'),
          propertyJson("custom_prototype", '{"__proto__": 1}'),
        ],
      }),
    );
    const first = join(dir, "first.jsonld");
    const second = join(dir, "second.jsonld");
    expect((await runKarenina("checkpoint", "convert", file, first)).code).toBe(EXIT.ok);
    expect((await runKarenina("checkpoint", "convert", first, second)).code).toBe(EXIT.ok);
    const withoutDates = (text: string) => text.replace(/"dateModified": "[^"]*"/g, "");
    const converted = await readFile(first, "utf8");
    expect(withoutDates(await readFile(second, "utf8"))).toBe(withoutDates(converted));
    expect(converted).toMatch(/"name": "custom___proto__",\s+"value": \{\s+"polluted": true\s+\}/);
    expect(converted).toMatch(/"name": "custom_prototype",\s+"value": \{\s+"__proto__": 1\s+\}/);
  });

  test("validate refuses a trait named __proto__ instead of calling the rubric complete", async () => {
    const { file } = await checkpointFile(
      "trait.jsonld",
      hostileCheckpointText({ questionRatings: [regexRatingJson("__proto__")] }),
    );
    const { code, out, err } = await runKarenina("checkpoint", "validate", file);
    expect(code).toBe(EXIT.usage);
    expect(out).not.toContain("rubric traits are complete");
    expect(err).toMatch(
      new RegExp(
        `^error: ${file}: \\$\\.dataFeedElement\\[0\\]\\.item\\.rating\\[0\\]\\.name: .*"__proto__" cannot be a trait name`,
      ),
    );
  });
});
