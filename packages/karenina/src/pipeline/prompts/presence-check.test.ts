import { describe, expect, test } from "vitest";
import {
  classifyDynamicTraits,
  presenceCheckPrompt,
  presenceReplySchema,
  readPresenceReply,
  traitConcept,
} from "./index.js";

const concepts = [
  traitConcept({ name: "safety", summary: "Adverse effects", description: "Mentions adverse effects" }),
  traitConcept({ name: "dosing", summary: null, description: "Gives a dose" }),
];

describe("presence check prompt", () => {
  test("a trait's concept is its summary, else its description", () => {
    expect(concepts).toEqual([
      { name: "safety", concept: "Adverse effects" },
      { name: "dosing", concept: "Gives a dose" },
    ]);
  });

  test("lists each concept as a bold name and its concept, then the response", () => {
    const prompt = presenceCheckPrompt({ concepts, response: "Take 400 mg daily." });
    expect(prompt.task).toBe("rubric_dynamic_presence_check");
    expect(prompt.user).toContain("- **safety**: Adverse effects\n- **dosing**: Gives a dose");
    expect(prompt.user.indexOf("<response>\nTake 400 mg daily.\n</response>")).toBeGreaterThan(
      prompt.user.indexOf("- **dosing**"),
    );
    expect(prompt.system).toContain("when in doubt, count the concept as present");
  });

  test("the reply schema is {results: [{trait_name, present}]}", () => {
    expect(presenceReplySchema.validate({ results: [{ trait_name: "safety", present: true }] }).success).toBe(
      true,
    );
    expect(presenceReplySchema.validate({ results: [{ trait_name: "safety" }] }).success).toBe(false);
  });
});

describe("presence reply", () => {
  const names = ["safety", "dosing"];

  test("present traits are read; missing ones and invented names do not count", () => {
    const reply = {
      results: [
        { trait_name: "dosing", present: true },
        { trait_name: "other", present: true },
      ],
    };
    expect(readPresenceReply(reply, names)).toEqual({ safety: false, dosing: true });
  });

  test("fenced JSON text is read; malformed entries are skipped", () => {
    const text =
      '```json\n{"results": [{"trait_name": "safety", "present": "yes"}, null, {"trait_name": "dosing", "present": true}]}\n```';
    expect(readPresenceReply(text, names)).toEqual({ safety: false, dosing: true });
  });

  test("an unusable reply makes every trait absent", () => {
    expect(readPresenceReply("both are present", names)).toEqual({ safety: false, dosing: false });
    expect(readPresenceReply({ results: "all" }, names)).toEqual({ safety: false, dosing: false });
  });

  test("absent traits are skipped, present ones promoted unless the trait-name filter excludes them", () => {
    expect(
      classifyDynamicTraits(["safety", "dosing", "cost"], { safety: true, dosing: true, cost: false }, [
        "safety",
      ]),
    ).toEqual({
      promoted: ["safety"],
      skipped: { dosing: "excluded by rubric_trait_names filter", cost: "concept not present in response" },
    });
    expect(classifyDynamicTraits(["safety"], { safety: true }, null)).toEqual({
      promoted: ["safety"],
      skipped: {},
    });
  });
});
