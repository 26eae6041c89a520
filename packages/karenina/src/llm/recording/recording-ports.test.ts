/** Recording over the scripted OpenAI-compatible server (hand-written replies), then replaying offline. */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { z } from "zod";
import { GENE_QUESTION, GeneAnswer } from "../../test-support/gene-question.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import {
  openAiEndpointLlm,
  openAiEndpointParser,
  PortError,
  ReplayFileError,
  ReplayMissError,
  recordingKey,
  recordingLlmPort,
  recordingParserPort,
  userMessage,
  zodStructuredSchema,
} from "../index.js";

const identity = { modelIdentity: "openai_endpoint:judge-1", parameters: { temperature: 0 } };

let server: OpenAiTestServer;
let dir: string;
beforeEach(async () => {
  server = await startOpenAiServer();
  dir = await mkdtemp(join(tmpdir(), "karenina-recording-"));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const real = () => ({ baseURL: server.url, apiKey: "sk-rec", modelName: "judge-1", temperature: 0 });

test("responses recorded from a live server replay identically after the server is gone", async () => {
  server.script(
    { reply: { text: "BCL2", usage: { prompt_tokens: 20, completion_tokens: 3 } } },
    { reply: { json: { gene: "BCL2", confidence: 0.9 } } },
  );
  const llm = recordingLlmPort(openAiEndpointLlm(real()), { dir, mode: "record", ...identity });
  const parser = recordingParserPort(openAiEndpointParser(real()), { dir, mode: "record", ...identity });
  const liveText = await llm.invoke(GENE_QUESTION);
  const liveParse = await parser.parse(GENE_QUESTION, GeneAnswer);
  await server.close();

  const offlineLlm = recordingLlmPort(null, { dir, mode: "replay", ...identity });
  const offlineParser = recordingParserPort(null, { dir, mode: "replay", ...identity });
  expect(await offlineLlm.invoke(GENE_QUESTION)).toEqual(liveText);
  expect(await offlineParser.parse(GENE_QUESTION, GeneAnswer)).toEqual(liveParse);
  expect(server.requests).toHaveLength(2);
  server = await startOpenAiServer();
});

test("one file per request key, holding the request for people to read", async () => {
  server.script({ reply: { text: "BCL2" } });
  await recordingLlmPort(openAiEndpointLlm(real()), { dir, mode: "record", ...identity }).invoke(
    GENE_QUESTION,
  );
  const key = recordingKey("llm", identity, GENE_QUESTION);
  expect(await readdir(dir)).toEqual([`${key}.json`]);
  const file = JSON.parse(await readFile(join(dir, `${key}.json`), "utf8"));
  expect(file).toMatchObject({
    format: "karenina-recording/1",
    kind: "llm",
    key,
    model_identity: "openai_endpoint:judge-1",
    request: { parameters: { temperature: 0 }, schema: null },
    response: { content: "BCL2" },
  });
  expect(file.request.messages).toEqual(GENE_QUESTION);
});

test("a request never recorded is a ReplayMissError with its key and a hint to re-record", async () => {
  const offline = recordingLlmPort(null, { dir, mode: "replay", ...identity });
  const error = (await offline
    .invoke([userMessage("never asked")])
    .catch((e: unknown) => e)) as ReplayMissError;
  expect(error).toBeInstanceOf(ReplayMissError);
  expect(error.key).toBe(recordingKey("llm", identity, [userMessage("never asked")]));
  expect(error.message).toContain(error.key as string);
  expect(error.message).toMatch(/re-record it by running with mode "record"/);
});

test("the key changes with the model, the parameters, the messages and the schema", () => {
  const base = recordingKey("parse", identity, GENE_QUESTION, GeneAnswer);
  expect(
    recordingKey(
      "parse",
      { ...identity, modelIdentity: "openai_endpoint:judge-2" },
      GENE_QUESTION,
      GeneAnswer,
    ),
  ).not.toBe(base);
  expect(
    recordingKey("parse", { ...identity, parameters: { temperature: 1 } }, GENE_QUESTION, GeneAnswer),
  ).not.toBe(base);
  expect(recordingKey("parse", identity, [userMessage("other")], GeneAnswer)).not.toBe(base);
  const Other = zodStructuredSchema("Answer", z.object({ gene: z.string() }));
  expect(recordingKey("parse", identity, GENE_QUESTION, Other)).not.toBe(base);
  expect(recordingKey("llm", identity, GENE_QUESTION)).not.toBe(
    recordingKey("parse", identity, GENE_QUESTION),
  );
  expect(recordingKey("parse", identity, GENE_QUESTION, GeneAnswer)).toBe(base);
});

test("failed calls are not recorded", async () => {
  server.script({ reply: { status: 500 } });
  const llm = recordingLlmPort(openAiEndpointLlm(real()), { dir, mode: "record", ...identity });
  await expect(llm.invoke(GENE_QUESTION)).rejects.toMatchObject({ category: "server_error" });
  expect(await readdir(dir)).toEqual([]);
});

test("a damaged recording is reported with its file and JSON path", async () => {
  const key = recordingKey("llm", identity, GENE_QUESTION);
  await writeFile(
    join(dir, `${key}.json`),
    JSON.stringify({
      format: "karenina-recording/1",
      kind: "llm",
      key,
      model_identity: "x",
      recorded_at: "t",
      request: { messages: [], parameters: {}, schema: null },
      response: { content: 3 },
    }),
  );
  const error = (await recordingLlmPort(null, { dir, mode: "replay", ...identity })
    .invoke(GENE_QUESTION)
    .catch((e: unknown) => e)) as ReplayFileError;
  expect(error).toBeInstanceOf(ReplayFileError);
  expect(error.jsonPath).toBe("$.response.content");
});

test("record mode needs the real port", () => {
  expect(() => recordingLlmPort(null, { dir, mode: "record", ...identity })).toThrow(PortError);
});
