/**
 * The agentic tests' workspace task (hand-written test data): `sum-project/` holds `sum.js` with an
 * off-by-one bug and `sum.test.js`, which fails until it is fixed; the template asks whether the test passes.
 */
import { fileURLToPath } from "node:url";
import type { OpenAiTestServer } from "../../test-support/openai-server/index.js";

/** The original `sum-project` directory (tests copy it; never run agents in it directly). */
export const SUM_PROJECT = fileURLToPath(new URL("./sum-project/", import.meta.url));

/** The answer template of the task: `tests_pass`, ground truth true. */
export const TESTS_PASS_TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, BooleanMatch


class Answer(BaseAnswer):
    tests_pass: bool = VerifiedField(description="Whether node sum.test.js passes in the workspace", ground_truth=True, verify_with=BooleanMatch())
`;

/** The task's question. */
export const SUM_QUESTION = "Fix the bug in sum.js so that `node sum.test.js` passes.";

/** sum.js as the answering agent rewrites it (hand-written). */
export const FIXED_SUM = `// Fixed by the answering agent.
function sum(numbers) {
  let total = 0;
  for (let i = 0; i < numbers.length; i++) total += numbers[i];
  return total;
}

module.exports = { sum };
`;

/** The answering agent's last message (hand-written). */
export const FINAL_ANSWER = "I fixed the loop in sum.js: it skipped the first number. sum.test.js passes now.";

/** Scripts the answering agent's turns (hand-written) on `server`: look, read, fix, report. */
export function scriptAnswerer(server: OpenAiTestServer, model = "answerer"): void {
  server.script(
    { match: { model }, reply: { toolCalls: [{ name: "list_files", arguments: {} }] } },
    { match: { model }, reply: { toolCalls: [{ name: "read_file", arguments: { path: "sum.js" } }] } },
    {
      match: { model },
      reply: { toolCalls: [{ name: "write_file", arguments: { path: "sum.js", content: FIXED_SUM } }] },
    },
    { match: { model }, reply: { text: FINAL_ANSWER } },
  );
}

/**
 * Scripts the agentic judge's turns (hand-written) on `server`: read sum.js (unless `readsFiles` is false),
 * report, then the extraction call.
 */
export function scriptJudge(server: OpenAiTestServer, model = "judge", readsFiles = true): void {
  if (readsFiles) {
    server.script({
      match: { model },
      reply: { toolCalls: [{ name: "read_file", arguments: { path: "sum.js" } }] },
    });
  }
  server.script(
    {
      match: { model },
      reply: { text: 'The loop now starts at 0, so every case of sum.test.js holds.\n{"tests_pass": true}' },
    },
    { match: { model }, reply: { json: { tests_pass: true } } },
  );
}
