/** The analyst prompt and the rubric guide are shipped as files: the build copies them beside the compiled module. */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { substitutePlaceholders } from "./index.js";

const SRC = fileURLToPath(new URL("../", import.meta.url));
const COPY_SCRIPT = fileURLToPath(new URL("../../scripts/copy-python-files.mjs", import.meta.url));

test("the build copies PROMPT.md and RUBRIC_GUIDE.md into dist/error-analysis/assets", async () => {
  const out = await mkdtemp(join(tmpdir(), "karenina-assets-copy-"));
  try {
    await promisify(execFile)(process.execPath, [COPY_SCRIPT, SRC, out]);
    for (const name of ["PROMPT.md", "RUBRIC_GUIDE.md"]) {
      const file = join("error-analysis", "assets", name);
      expect(await readFile(join(out, file), "utf8")).toBe(await readFile(join(SRC, file), "utf8"));
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test("placeholders are substituted leniently, as Python's Template.safe_substitute", () => {
  const values = { TOTAL: "3", PASSED: "2" };
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the prompt's own ${NAME} placeholder syntax
  expect(substitutePlaceholders("$TOTAL, ${PASSED}, $OTHER, ${OTHER}, $$TOTAL, $ alone, $1", values)).toBe(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the prompt's own ${NAME} placeholder syntax
    "3, 2, $OTHER, ${OTHER}, $TOTAL, $ alone, $1",
  );
});
