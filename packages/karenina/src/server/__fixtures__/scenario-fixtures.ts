/**
 * Helpers of the acceptance scenarios (spec 07 §4, A1–A14): a checkpoint of hand-written questions and
 * templates, a config on the scripted OpenAI-compatible server, and a client that starts a job and waits for
 * its end. Every template, question and scripted reply here is hand-written test data, not model output.
 */
import { Benchmark } from "../../benchmark/index.js";
import type { RubricTraitInput } from "../../model/index.js";
import { apiClient, drugConfig, json } from "./verification-jobs.js";

export { json };

/** A question of a scenario checkpoint: its id, text, expected answer and Python template. */
export interface ScenarioQuestion {
  readonly id: string;
  readonly question: string;
  readonly answer: string;
  readonly template: string;
  readonly rubric?: readonly RubricTraitInput[];
}

/** The JSON-LD of a benchmark holding `questions` (finished), with an optional global rubric. */
export function scenarioCheckpoint(
  name: string,
  questions: readonly ScenarioQuestion[],
  globalRubric: readonly RubricTraitInput[] = [],
): Record<string, unknown> {
  const bench = Benchmark.create({ name });
  for (const q of questions) {
    bench.addQuestion(q.question, q.answer, { questionId: q.id, answerTemplate: q.template });
    for (const trait of q.rubric ?? []) bench.addQuestionRubricTrait(q.id, trait);
  }
  if (globalRubric.length > 0) bench.setGlobalRubric(globalRubric);
  return JSON.parse(bench.serialize());
}

/** The scripted models' config (answerer "answerer", judge "judge") at `baseURL`, with `extra` fields. */
export const scenarioConfig = (baseURL: string, extra: Record<string, unknown> = {}) =>
  drugConfig(baseURL, extra);

/** A client of the test server that also runs a job to its end. */
export function scenarioClient(url: string, token: string) {
  const client = apiClient(url, token);

  /** Posts a verification job of `checkpoint`; returns the response status and body. */
  async function start(
    checkpoint: Record<string, unknown>,
    config: unknown,
    extra: Record<string, unknown> = {},
  ) {
    const res = await client.post("/api/v2/verifications", { config, checkpoint, ...extra });
    return { status: res.status, body: await json(res) };
  }

  /** Starts a job (202 expected), waits until it is completed and returns its full result rows. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read result rows loosely and assert on them.
  async function runToEnd(checkpoint: Record<string, unknown>, config: unknown, extra = {}): Promise<any[]> {
    const started = await start(checkpoint, config, extra);
    if (started.status !== 202)
      throw new Error(`start answered ${started.status}: ${JSON.stringify(started.body)}`);
    await client.waitForStatus(started.body.job_id, "completed");
    const page = await json(
      await client.get(`/api/v2/verifications/${started.body.job_id}/results?limit=500`),
    );
    return page.items;
  }

  /** The status and body of a request with `method`, `path` and an optional JSON `body`. */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely and assert on them.
    let parsed: any = text;
    try {
      parsed = text === "" ? null : JSON.parse(text);
    } catch {
      // a download or a page: keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  return { ...client, start, runToEnd, call };
}

/** A classic template: the judge fills `answer` (str), `verify` compares it case-insensitively. */
export const caseInsensitiveTemplate = (expected: string) => `from pydantic import Field
from karenina.schemas.entities import BaseAnswer


class Answer(BaseAnswer):
    answer: str = Field(description="The answer the response gives")

    def ground_truth(self):
        self.correct = {"answer": "${expected}"}

    def verify(self) -> bool:
        return self.answer.strip().lower() == self.correct["answer"].lower()
`;
