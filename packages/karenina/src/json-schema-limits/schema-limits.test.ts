import { describe, expect, test } from "vitest";
import { billionLaughsSchema, cyclicSchema, nestedSchema } from "../test-support/hostile-schemas.js";
import { thrown } from "../test-support/thrown.js";
import { assertSchemaWithinLimits, SchemaLimitError } from "./index.js";

const refusal = (schema: unknown): SchemaLimitError =>
  thrown(SchemaLimitError, () => assertSchemaWithinLimits(schema, "trait", "schema"));

/** `$defs` A0..An, each an `anyOf` of two references to the one before: 2^n branches to try once expanded. */
function nestedAnyOfs(levels: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = { A0: { type: "integer" } };
  for (let level = 1; level <= levels; level++) {
    const previous = { $ref: `#/$defs/A${level - 1}` };
    $defs[`A${level}`] = { anyOf: [previous, previous] };
  }
  return { type: "object", properties: { x: { $ref: `#/$defs/A${levels}` } }, $defs };
}

describe("the label names the schema and the root starts the path", () => {
  test("a cyclic $ref is refused with the full path in the error and the shortened one in the message", () => {
    const error = refusal(cyclicSchema("anyOf"));
    expect(error.path).toEqual(["schema", "properties", "head", "anyOf", 0]);
    expect(error.problem).toBe(
      "the trait schema refers to itself through $ref (#/$defs/A → #/$defs/A); a recursive schema cannot be expanded for the judge",
    );
    expect(error.message).toBe(`schema.properties.head.anyOf[0]: ${error.problem}: refused`);
  });

  test("without a root, the label starts the path", () => {
    const error = thrown(SchemaLimitError, () => assertSchemaWithinLimits(nestedSchema(100), "judge"));
    expect(error.message).toMatch(
      /^judge\.properties\.a\..+: the judge schema nests deeper than 64 levels: refused$/,
    );
    expect(error.path).toHaveLength(1 + 64);
  });
});

describe("what the lax coercion would walk is bounded", () => {
  test("anyOfs nested 40 deep over $refs (2^40 branches to try) are refused for their size", () => {
    expect(refusal(nestedAnyOfs(40)).problem).toMatch(
      /^the trait schema expands to more than 10000 nodes through \$ref \(#\/\$defs\/A40 → .+\)$/,
    );
  });

  test("a billion laughs of $defs is refused for its size", () => {
    expect(refusal(billionLaughsSchema(30)).problem).toContain("expands to more than 10000 nodes");
  });

  test("anyOfs nested a few levels deep pass", () => {
    expect(() => assertSchemaWithinLimits(nestedAnyOfs(8), "trait")).not.toThrow();
  });
});

describe("recursion through data", () => {
  /** A tree: a node holds a list of nodes (Pydantic's schema of a self-referencing model). */
  const tree = {
    $defs: {
      Node: {
        type: "object",
        properties: {
          label: { type: "string" },
          children: { type: "array", items: { $ref: "#/$defs/Node" } },
        },
      },
    },
    type: "object",
    properties: { root: { $ref: "#/$defs/Node" } },
  };
  /** A cycle of references and anyOfs that no data ends. */
  const loop = { $defs: { A: { anyOf: [{ $ref: "#/$defs/A" }, { type: "string" }] } }, $ref: "#/$defs/A" };

  test("a model holding itself is refused by default and accepted with recursion through data", () => {
    expect(refusal(tree).message).toMatch(
      /refers to itself through \$ref \(#\/\$defs\/Node → #\/\$defs\/Node\)/,
    );
    expect(() =>
      assertSchemaWithinLimits(tree, "judge", "judgeSchema", { recursion: "through-data" }),
    ).not.toThrow();
  });

  test("a cycle of $ref and anyOf alone is refused even with recursion through data", () => {
    expect(() =>
      assertSchemaWithinLimits(loop, "judge", "judgeSchema", { recursion: "through-data" }),
    ).toThrow(/refers to itself through \$ref/);
  });
});
