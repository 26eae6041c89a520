import { describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import type { VerificationResult } from "../results/index.js";
import { richResult } from "./__fixtures__/results.js";
import { TurnQuestions } from "./turn-questions.js";

const FIXTURE = new URL("../scenario/__fixtures__/capital-scenarios.jsonld", import.meta.url).pathname;

/** A turn row of node `node` of the fixture's `capital-pushback` scenario, asked as `asked`. */
function turnRow(node: string, asked: string): VerificationResult {
  const row = richResult({
    questionId: `urn:karenina:scenario:capital-pushback:${node}`,
    questionText: asked,
  });
  return { ...row, metadata: { ...row.metadata, scenario_id: "capital-pushback", scenario_node: node } };
}

describe("TurnQuestions", () => {
  test("stores each node once, with the node's own text and answer, not the transcript a handover turn was asked with", async () => {
    const benchmark = await Benchmark.load(FIXTURE);
    const saved: Benchmark[] = [];
    const questions = new TurnQuestions({ saveQuestions: async (bench) => saved.push(bench) }, benchmark);
    const handover =
      "<conversation>\nuser: What is the capital of Australia?\n</conversation>\n\nWhat is the capital of Australia?";
    await questions.store([turnRow("ask", handover), turnRow("ask", "What is the capital of Australia?")]);
    await questions.store([turnRow("ask", "again")]);
    expect(saved).toHaveLength(1);
    const stored = saved[0]?.get("urn:karenina:scenario:capital-pushback:ask");
    expect(stored?.text).toBe("What is the capital of Australia?");
    expect(stored?.acceptedAnswer.text).toBe("Canberra");
  });

  test("a row whose node the benchmark lacks keeps the text it was asked with", async () => {
    const benchmark = await Benchmark.load(FIXTURE);
    const saved: Benchmark[] = [];
    const questions = new TurnQuestions({ saveQuestions: async (bench) => saved.push(bench) }, benchmark);
    await questions.store([turnRow("gone", "Which node?")]);
    expect(saved[0]?.get("urn:karenina:scenario:capital-pushback:gone").text).toBe("Which node?");
    expect(saved[0]?.get("urn:karenina:scenario:capital-pushback:gone").acceptedAnswer.text).toBe(
      "(scenario turn)",
    );
  });
});
