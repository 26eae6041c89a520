/**
 * generateTemplates (the batch) over real HTTP against the scripted OpenAI-compatible server. Every model
 * reply is hand-written test data (see __fixtures__/generation-replies.ts).
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark, QuestionNotFoundError } from "../../benchmark/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { drugReplies, generationRules, writerModel } from "./__fixtures__/generation-replies.js";
import { TemplateBackupError } from "./errors.js";
import { generateTemplates, type TemplateGenerationEvent } from "./generate-templates.js";

const server = serverPerTest(startOpenAiServer);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-gentemplates-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (i: number) => `Which drug inhibits BCL2? (${i})`;

/** Questions q0… without templates, unfinished unless listed in `finished`. */
function bench(count: number, finished: readonly number[] = []): Benchmark {
  const b = Benchmark.create({ name: "gen test" });
  for (let i = 0; i < count; i++) {
    b.addQuestion(text(i), `drug-${i}, a BCL2 inhibitor`, {
      questionId: `q${i}`,
      finished: finished.includes(i),
    });
  }
  return b;
}

/** Scripts the replies of question `i`: one str attribute whose ground truth is `drug-<i>`. */
const scriptQuestion = (i: number) => server.script(...generationRules(text(i), drugReplies(`drug-${i}`)));

const mentions = (i: number) => server.requests.filter((r) => JSON.stringify(r.body).includes(text(i)));

describe("generateTemplates", () => {
  test("sets a verifying template on each question without one and leaves the finished flags alone", async () => {
    const b = bench(2, [1]);
    scriptQuestion(0);
    scriptQuestion(1);
    const outcomes = await generateTemplates(b, { model: writerModel(server.baseURL) });

    expect(Object.keys(outcomes)).toEqual(["q0", "q1"]);
    expect(outcomes.q0).toMatchObject({ success: true });
    expect(outcomes.q0?.template_code).toBe(b.getTemplate("q0"));
    expect(b.isFinished("q0")).toBe(false);
    expect(b.isFinished("q1")).toBe(true);
    const template = await b.getAnswerTemplate("q1");
    expect((await template.evaluate({ drug: "DRUG-1" })).verify).toBe(true);
    expect((await template.evaluate({ drug: "drug-0" })).verify).toBe(false);
  });

  test("emits the job and task events with running counts", async () => {
    const b = bench(2);
    scriptQuestion(0);
    server.script({
      match: { lastUserIncludes: text(1) },
      reply: { status: 404, message: "gone" },
      repeat: true,
    });
    const events: TemplateGenerationEvent[] = [];
    await generateTemplates(b, { model: writerModel(server.baseURL), onProgress: (e) => events.push(e) });

    expect(
      events.map((e) => [e.event, e.question_id, e.processed_count, e.successful_count, e.failed_count]),
    ).toEqual([
      ["job_started", null, 0, 0, 0],
      ["task_started", "q0", 0, 0, 0],
      ["task_completed", "q0", 1, 1, 0],
      ["task_started", "q1", 1, 1, 0],
      ["task_failed", "q1", 2, 1, 1],
      ["job_completed", null, 2, 1, 1],
    ]);
    expect(events.every((e) => e.total_count === 2)).toBe(true);
    expect(events[2]?.percentage).toBe(50);
    expect(events[2]?.template_code).toContain("class Answer(BaseAnswer):");
    expect(events[4]?.error).toMatch(/gone/);
    expect(events[4]?.task_duration).toBeGreaterThanOrEqual(0);
  });

  test("a failing question is recorded with its error and the others are still generated", async () => {
    const b = bench(2);
    server.script({
      match: { lastUserIncludes: text(0) },
      reply: { status: 404, message: "no such model" },
      repeat: true,
    });
    scriptQuestion(1);
    const outcomes = await generateTemplates(b, { model: writerModel(server.baseURL) });
    expect(outcomes.q0?.success).toBe(false);
    expect(outcomes.q0?.error).toMatch(
      /template generation for "Which drug inhibits BCL2\? \(0\)": plan: .*no such model/,
    );
    expect(b.hasTemplate("q0")).toBe(false);
    expect(outcomes.q1?.success).toBe(true);
  });

  test("onlyMissing skips questions that hold a real template, without any call about them", async () => {
    const b = bench(2);
    await b.addAnswerTemplate("q0", DRUG_TEMPLATE);
    scriptQuestion(1);
    const outcomes = await generateTemplates(b, { model: writerModel(server.baseURL) });
    expect(outcomes.q0).toEqual({ success: true, skipped: true });
    expect(b.getTemplate("q0")).toBe(DRUG_TEMPLATE);
    expect(mentions(0)).toHaveLength(0);
    expect(mentions(1)).toHaveLength(3);
  });

  test("onlyMissing: false regenerates existing templates", async () => {
    const b = bench(1);
    await b.addAnswerTemplate("q0", DRUG_TEMPLATE);
    scriptQuestion(0);
    const outcomes = await generateTemplates(b, { model: writerModel(server.baseURL), onlyMissing: false });
    expect(outcomes.q0?.success).toBe(true);
    expect(b.getTemplate("q0")).toContain("ground_truth='drug-0'");
  });

  test("questionIds limits the job to those questions, in that order", async () => {
    const b = bench(3);
    scriptQuestion(2);
    scriptQuestion(0);
    const outcomes = await generateTemplates(b, {
      model: writerModel(server.baseURL),
      questionIds: ["q2", "q0"],
    });
    expect(Object.keys(outcomes)).toEqual(["q2", "q0"]);
    expect(mentions(1)).toHaveLength(0);
  });

  test("an unknown question id is refused before any call", async () => {
    await expect(
      generateTemplates(bench(1), { model: writerModel(server.baseURL), questionIds: ["nope"] }),
    ).rejects.toThrow(QuestionNotFoundError);
    expect(server.requests).toHaveLength(0);
  });

  test("with two workers every question is generated from its own replies", async () => {
    const b = bench(3);
    for (const i of [0, 1, 2]) scriptQuestion(i);
    const outcomes = await generateTemplates(b, { model: writerModel(server.baseURL), concurrency: 2 });
    for (const i of [0, 1, 2]) expect(outcomes[`q${i}`]?.template_code).toContain(`ground_truth='drug-${i}'`);
  });

  test("cancelling stops the job: later questions get no outcome and no call", async () => {
    const b = bench(2);
    scriptQuestion(0);
    scriptQuestion(1);
    const controller = new AbortController();
    const events: string[] = [];
    const outcomes = await generateTemplates(b, {
      model: writerModel(server.baseURL),
      signal: controller.signal,
      onProgress: (e) => {
        events.push(e.event);
        if (e.event === "task_completed") controller.abort();
      },
    });
    expect(Object.keys(outcomes)).toEqual(["q0"]);
    expect(events.at(-1)).toBe("job_cancelled");
    expect(mentions(1)).toHaveLength(0);
  });
});

describe("progressive backup", () => {
  test("each success is in the backup file before the next question starts", async () => {
    const b = bench(2);
    const backupPath = join(dir, "backup.json");
    scriptQuestion(0);
    scriptQuestion(1);
    const seen: string[][] = [];
    await generateTemplates(b, {
      model: writerModel(server.baseURL),
      backupPath,
      onProgress: (e) => {
        if (e.event === "task_started" && e.question_id === "q1")
          seen.push(Object.keys(JSON.parse(readFileSync(backupPath, "utf8"))));
      },
    });
    expect(seen).toEqual([["q0"]]);
    const backup = JSON.parse(readFileSync(backupPath, "utf8"));
    expect(Object.keys(backup)).toEqual(["q0", "q1"]);
    expect(backup.q1).toEqual({ success: true, template_code: b.getTemplate("q1") });
  });

  test("a rerun restores the backed-up questions first and makes no call for them", async () => {
    const backupPath = join(dir, "backup.json");
    await writeFile(backupPath, JSON.stringify({ q0: { success: true, template_code: DRUG_TEMPLATE } }));
    const b = bench(2);
    scriptQuestion(1);
    const outcomes = await generateTemplates(b, { model: writerModel(server.baseURL), backupPath });
    expect(outcomes.q0).toEqual({
      success: true,
      template_code: DRUG_TEMPLATE,
      skipped: true,
      restored: true,
    });
    expect(b.getTemplate("q0")).toBe(DRUG_TEMPLATE);
    expect(mentions(0)).toHaveLength(0);
    expect(outcomes.q1?.success).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(backupPath, "utf8")))).toEqual(["q0", "q1"]);
  });

  test("force ignores the backup and regenerates", async () => {
    const backupPath = join(dir, "backup.json");
    await writeFile(backupPath, JSON.stringify({ q0: { success: true, template_code: DRUG_TEMPLATE } }));
    const b = bench(1);
    scriptQuestion(0);
    const outcomes = await generateTemplates(b, {
      model: writerModel(server.baseURL),
      backupPath,
      force: true,
    });
    expect(outcomes.q0?.restored).toBeUndefined();
    expect(b.getTemplate("q0")).toContain("ground_truth='drug-0'");
  });

  test("an invalid backed-up template is generated again, with a warning saying so", async () => {
    const backupPath = join(dir, "backup.json");
    // A VerifiedField template whose primitive does not fit its field type.
    const invalid =
      "from karenina.schemas.entities import BaseAnswer, VerifiedField, NumericExact\n\n\nclass Answer(BaseAnswer):\n" +
      "    ok: bool = VerifiedField(description='d', ground_truth=True, verify_with=NumericExact())\n";
    await writeFile(backupPath, JSON.stringify({ q0: { success: true, template_code: invalid } }));
    const b = bench(1);
    scriptQuestion(0);
    const outcomes = await generateTemplates(b, { model: writerModel(server.baseURL), backupPath });
    expect(outcomes.q0?.success).toBe(true);
    expect(outcomes.q0?.warnings?.[0]).toMatch(
      /the backed-up template was invalid \(.*not compatible with field type 'bool'/s,
    );
  });

  test("a backup file that is not a backup is refused, naming the file", async () => {
    const backupPath = join(dir, "backup.json");
    await writeFile(backupPath, JSON.stringify({ q0: "not a template" }));
    const generation = generateTemplates(bench(1), { model: writerModel(server.baseURL), backupPath });
    await expect(generation).rejects.toThrow(TemplateBackupError);
    await expect(generation).rejects.toThrow(`${backupPath}: expected a template backup`);
    expect(server.requests).toHaveLength(0);
  });
});
