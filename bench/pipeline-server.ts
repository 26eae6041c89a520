/**
 * The scripted OpenAI-compatible server of `bench/pipeline.ts`, run in its own process so its CPU time is
 * not counted as the pipeline's. Prints its base URL on stdout, then serves until killed.
 * Every reply is hand-written benchmark data, not the output of any model.
 */
import { parseArgs } from "node:util";
import { startOpenAiServer } from "../packages/karenina/src/test-support/openai-server/index.js";

const { values } = parseArgs({ options: { latency: { type: "string", default: "0" } } });
const delayMs = Number(values.latency);
const server = await startOpenAiServer([
  { match: { model: "answerer" }, reply: { text: "Venetoclax inhibits BCL2.", delayMs }, repeat: true },
  { match: { model: "judge" }, reply: { json: { drug: "venetoclax" }, delayMs }, repeat: true },
]);
process.stdout.write(`${server.baseURL}\n`);
