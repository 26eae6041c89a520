/**
 * `karenina verify --isolation`: in a real run through the CLI, a template that forges verdicts through the
 * trusted bridge leaves the other questions' verdicts alone, in either mode. The templates and every model reply
 * are written for this test, not output of any model.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { TAMPERING_RUN_SCRIPT, tamperingBenchmark } from "../test-support/tampering-templates.js";
import { EXIT } from "./cli-io.js";

let server: OpenAiTestServer;
let dir: string;
let file: string;

beforeAll(async () => {
  server = await startOpenAiServer();
  dir = await mkdtemp(join(tmpdir(), "karenina-isolation-"));
  file = join(dir, "bench.jsonld");
  const bench = await tamperingBenchmark();
  await bench.save(file);
  await bench.close();
  server.script(...TAMPERING_RUN_SCRIPT);
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test.each(["checkpoint", "strict"])("--isolation %s keeps the honest question's verdict", async (mode) => {
  const output = join(dir, `run-${mode}.jsonl`);
  const run = await runKarenina(
    ...scriptedVerifyArgs(server.baseURL, file, "-r", "2", "--isolation", mode, "-o", output),
  );
  expect(run.code, run.err).toBe(EXIT.ok);
  const verdicts = (await readFile(output, "utf8"))
    .trim()
    .split("\n")
    .map(
      (line) =>
        JSON.parse(line) as { metadata: { question_id: string }; template: { verify_result: boolean } },
    )
    .map((result) => `${result.metadata.question_id}:${result.template.verify_result}`)
    .sort();
  expect(verdicts).toEqual(["honest:false", "honest:false", "hostile:true", "hostile:true"]);
});

test("an unknown --isolation mode is a usage error that lists the modes", async () => {
  const run = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--isolation", "none"));
  expect(run.code).toBe(EXIT.usage);
  expect(run.err).toMatch(/checkpoint, strict/);
});
