import { describe, expect, test } from "vitest";
import { endpointModel, pipelineQuestion } from "../test-support/pipeline-context.js";
import { parseVerificationConfig } from "./config/index.js";
import { answerGroups, answerGroupTasks, planTasks, taskPlan } from "./planning.js";
import { type PipelineQuestion, taskKey } from "./task.js";

const model = (id: string) => endpointModel("http://h", id);
const question = (id: string): PipelineQuestion => pipelineQuestion({ id, text: `${id}?` });
const questions = [question("q2"), question("q1")];

function config(extra: Record<string, unknown>) {
  return parseVerificationConfig({
    answering_models: [model("b-answerer"), model("a-answerer")],
    parsing_models: [model("judge2"), model("judge1")],
    ...extra,
  });
}

const shape = (tasks: ReturnType<typeof planTasks>) =>
  tasks.map((t) => `${t.answering.id}/${t.question.id}/${t.parsing.id}/${t.replicate ?? "-"}`);

describe("task planning (spec 04 §15.1–15.2)", () => {
  test("questions × answering × parsing × replicates; replicate is null for a single run", () => {
    expect(planTasks(questions, config({ task_ordering: "generation_order" }))).toHaveLength(8);
    const replicated = planTasks(questions, config({ replicate_count: 3 }));
    expect(replicated).toHaveLength(24);
    expect(new Set(replicated.map((t) => t.replicate))).toEqual(new Set([1, 2, 3]));
    expect(planTasks(questions, config({})).every((t) => t.answerSharers === 2)).toBe(true);
  });

  test("generation_order keeps the input order: question, answerer, parser", () => {
    expect(shape(planTasks(questions, config({ task_ordering: "generation_order" })))).toEqual([
      "b-answerer/q2/judge2/-",
      "b-answerer/q2/judge1/-",
      "a-answerer/q2/judge2/-",
      "a-answerer/q2/judge1/-",
      "b-answerer/q1/judge2/-",
      "b-answerer/q1/judge1/-",
      "a-answerer/q1/judge2/-",
      "a-answerer/q1/judge1/-",
    ]);
  });

  test("prefix_cache groups by answerer, then question, then parser, sorted", () => {
    expect(shape(planTasks(questions, config({ task_ordering: "prefix_cache" })))).toEqual([
      "a-answerer/q1/judge1/-",
      "a-answerer/q1/judge2/-",
      "a-answerer/q2/judge1/-",
      "a-answerer/q2/judge2/-",
      "b-answerer/q1/judge1/-",
      "b-answerer/q1/judge2/-",
      "b-answerer/q2/judge1/-",
      "b-answerer/q2/judge2/-",
    ]);
  });

  test("auto with several answerers distributes them round-robin", () => {
    expect(shape(planTasks(questions, config({})).slice(0, 4))).toEqual([
      "a-answerer/q1/judge1/-",
      "b-answerer/q1/judge1/-",
      "a-answerer/q1/judge2/-",
      "b-answerer/q1/judge2/-",
    ]);
  });

  test("skipped tasks (a resumed run's finished ones) are left out of the queue and of the total", () => {
    const parsed = config({});
    const skip = new Set([taskKey("q1", "openai_endpoint:a-answerer:", "openai_endpoint:judge1:", null)]);
    const plan = taskPlan(questions, parsed, { skipKeys: skip });
    expect(plan.total).toBe(7);
    const tasks = [...plan];
    expect(tasks).toHaveLength(7);
    expect(tasks.some((t) => skip.has(t.key))).toBe(false);
    const sibling = tasks.find((t) => t.question.id === "q1" && t.answering.id === "a-answerer");
    expect(sibling?.answerSharers).toBe(1);
  });

  test("random ordering holds the same tasks", () => {
    const random = planTasks(questions, config({ task_ordering: "random" }));
    expect(shape(random).sort()).toEqual(shape(planTasks(questions, config({}))).sort());
  });
});

describe("answer groups: the unit a fleet worker takes", () => {
  test("each group is one answer (question × answerer × replicate) with its judges, and rebuilds the same tasks (answerers interleaved by the ordering included)", () => {
    const run = config({ replicate_count: 2 });
    const plan = planTasks(questions, run, { runName: "run_groups" });
    const groups = [...answerGroups(plan, run)];
    expect(groups).toHaveLength(2 * 2 * 2);
    expect(groups.every((g) => g.parsers.length === 2)).toBe(true);
    expect(new Set(groups.map((g) => g.key)).size).toBe(groups.length);
    const rebuilt = groups.flatMap((group) =>
      answerGroupTasks(questions.find((q) => q.id === group.questionId) as PipelineQuestion, run, group, {
        runName: "run_groups",
      }),
    );
    const keys = (tasks: typeof plan) =>
      tasks.map((t) => [t.key, t.answerKey, t.answerSharers, t.runName].join("|")).sort();
    expect(keys(rebuilt)).toEqual(keys(plan));
  });

  test("a resumed plan groups only the judges still to run", () => {
    const run = config({});
    const first = planTasks(questions, run);
    const skip = new Set([first[0]?.key as string]);
    const groups = [...answerGroups(taskPlan(questions, run, { skipKeys: skip }), run)];
    expect(groups).toHaveLength(4);
    expect(groups.map((g) => g.parsers.length).sort()).toEqual([1, 2, 2, 2]);
  });

  test("a group naming a model the config does not have is refused", () => {
    expect(() =>
      answerGroupTasks(
        question("q1"),
        config({}),
        { answerer: 5, parsers: [0], replicate: null },
        { runName: "r" },
      ),
    ).toThrow(/answering model 5 is not in the config \(2 models\)/);
  });
});
