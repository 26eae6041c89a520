import { describe, expect, test } from "vitest";
import { cyclicSchema } from "../../test-support/hostile-schemas.js";
import { thrown } from "../../test-support/thrown.js";
import { RubricError } from "./errors.js";
import { parseRubricTrait, type TraitType } from "./rubric-trait.js";
import { TemplateKindSchema } from "./trait-fields.js";

describe("a template kind whose schema would not stay small once expanded is refused", () => {
  test.each(["llm", "agentic"] satisfies TraitType[])(
    "by the %s trait, naming the trait, the field and the path in the schema",
    (type) => {
      const kind = { type: "template", schema: cyclicSchema("anyOf") };
      const trait = { name: "steps", description: "Steps taken", kind, higher_is_better: null };
      expect(thrown(RubricError, () => parseRubricTrait(trait, type)).message).toBe(
        `${type} trait "steps": field "kind": schema.properties.head.anyOf[0]: the template trait schema refers to itself through $ref (#/$defs/A → #/$defs/A); a recursive schema cannot be expanded for the judge: refused`,
      );
    },
  );

  test("by TemplateKindSchema itself, while an acyclic schema with the same definition passes", () => {
    expect(TemplateKindSchema.safeParse({ type: "template", schema: cyclicSchema("property") }).success).toBe(
      false,
    );
    const acyclic = {
      type: "object",
      properties: { head: { $ref: "#/$defs/A" } },
      $defs: { A: { type: "integer" } },
    };
    expect(TemplateKindSchema.parse({ type: "template", schema: acyclic }).schema).toEqual(acyclic);
  });
});
