import { describe, expect, test } from "vitest";
import type { DataFeed } from "../library-types/index.js";
import { questionsOfCheckpoint } from "./checkpoint-questions.js";
import { md5Hex } from "./md5.js";

const checkpointWith = (fewShot: unknown) =>
  ({
    dataFeedElement: [
      {
        "@id": "q1",
        item: {
          text: "Which drug inhibits BCL2?",
          additionalProperty: [
            { name: "finished", value: true },
            { name: "few_shot_examples", value: fewShot },
          ],
        },
      },
    ],
  }) as unknown as DataFeed;

describe("few-shot examples of the custom picker", () => {
  test("each example is referred to by the MD5 of its question, as the library reads selected_examples", () => {
    const examples = [
      { question: "Which drug inhibits EGFR?", answer: "Erlotinib" },
      { question: "Which drug inhibits BRAF?", answer: "Vemurafenib" },
    ];
    for (const stored of [examples, JSON.stringify(examples)])
      expect(questionsOfCheckpoint(checkpointWith(stored))[0]?.fewShotExamples).toEqual([
        { ref: md5Hex("Which drug inhibits EGFR?"), question: "Which drug inhibits EGFR?" },
        { ref: md5Hex("Which drug inhibits BRAF?"), question: "Which drug inhibits BRAF?" },
      ]);
  });

  test("examples without a question text are left out", () => {
    expect(questionsOfCheckpoint(checkpointWith([{ answer: "x" }, null, "y"]))[0]?.fewShotExamples).toEqual(
      [],
    );
  });
});
