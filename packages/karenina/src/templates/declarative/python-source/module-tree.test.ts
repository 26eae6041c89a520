/**
 * The declarative reader accepts exactly the import lines the interpreter resolves (see `module-tree.ts`); the
 * templates are written for these tests from the original's docs (spec 02, spec 08).
 */
import { describe, expect, test } from "vitest";
import { PRIMITIVE_NAMES } from "../primitives/registry.js";
import { isDeclarativePython, pythonToSpec } from "../python-to-spec.js";
import {
  INJECTED_TEMPLATE_NAMES,
  importResolves,
  KARENINA_MODULES,
  TEMPLATE_PRIMITIVES,
} from "./module-tree.js";

const BODY = `

class Answer(BaseAnswer):
    city: str = VerifiedField(description="City named as the capital", ground_truth="Canberra", verify_with=ExactMatch())
`;

describe("the module tree", () => {
  test("its 23 primitives are the declarative runtime's, and spec 02 §1.1's injected names", () => {
    expect([...TEMPLATE_PRIMITIVES].sort()).toEqual([...PRIMITIVE_NAMES]);
    expect(INJECTED_TEMPLATE_NAMES).toHaveLength(23 + 9);
    for (const name of ["AllOf", "AnyOf", "AtLeastN", "FieldCheck", "SynonymMap", "ConditionalGroundTruth"]) {
      expect(INJECTED_TEMPLATE_NAMES).toContain(name);
    }
  });

  test("every package of a listed module is listed, before it", () => {
    const names = Object.keys(KARENINA_MODULES);
    for (const [index, name] of names.entries()) {
      const dot = name.lastIndexOf(".");
      if (dot > 0) {
        const parent = name.slice(0, dot);
        expect(KARENINA_MODULES[parent]?.package).toBe(true);
        expect(names.indexOf(parent)).toBeLessThan(index);
      }
    }
  });

  test("a name resolves from its module, and a submodule from its package", () => {
    expect(importResolves("karenina.schemas.primitives", "ExactMatch")).toBe(true);
    expect(importResolves("karenina.schemas.primitives.trace", "TraceRegex")).toBe(true);
    expect(importResolves("karenina.schemas.primitives.trace", "ExactMatch")).toBe(false);
    expect(importResolves("karenina.schemas", "entities")).toBe(true);
    expect(importResolves("karenina.schemas.entities", "Question")).toBe(false);
    expect(importResolves("karenina.nowhere", "X")).toBe(false);
  });
});

describe("import lines the declarative reader accepts", () => {
  test.each([
    ["the canonical primitives path (spec 08)", "from karenina.schemas.primitives import ExactMatch"],
    ["the flat path", "from karenina.schemas.entities import ExactMatch"],
    ["the comparisons module", "from karenina.schemas.primitives.comparisons import ExactMatch"],
    [
      "the entities submodules",
      "from karenina.schemas.entities.answer import BaseAnswer\nfrom karenina.schemas.entities.verified_field import VerifiedField\nfrom karenina.schemas.entities.composition import AllOf, FieldCheck\nfrom karenina.schemas.entities.conditional import GroundTruthCase",
    ],
    ["a submodule imported from its package", "from karenina.schemas import entities, primitives"],
    ["a dotted module import", "import karenina.schemas.primitives.scope as scope"],
    ["the deprecated domain path", "from karenina.schemas.domain import BaseAnswer"],
    [
      "a parenthesised list",
      "from karenina.schemas.primitives import (\n    ExactMatch,\n    TraceRegex,\n)",
    ],
    ["a star import", "from karenina.schemas.primitives import *"],
    ["typing_extensions", "from typing_extensions import Literal"],
    ["a docstring, then __future__", '"""Capital."""\nfrom __future__ import annotations\nimport typing'],
  ])("%s", (_label, imports) => {
    const { spec, lossy } = pythonToSpec(
      `${imports}\nfrom karenina.schemas.entities import BaseAnswer, VerifiedField${BODY}`,
    );
    expect(lossy).toEqual([]);
    expect(spec.fields[0]?.verify_with).toEqual({ normalize: ["lowercase", "strip"], type: "ExactMatch" });
  });
});

describe("import lines it leaves to the interpreter, which decides (an import that fails makes the template invalid)", () => {
  test.each([
    [
      "a name the module does not export",
      "from karenina.schemas.primitives import Nonexistent",
      /'Nonexistent' cannot be imported/,
    ],
    [
      "a name of another module",
      "from karenina.schemas.primitives.trace import ExactMatch",
      /cannot be imported/,
    ],
    [
      "a module outside the tree",
      "from karenina.schemas.question import Question",
      /import of 'karenina.schemas.question'/,
    ],
    [
      "a __future__ import after another statement",
      "import typing\nfrom __future__ import annotations",
      /__future__ import after/,
    ],
    ["an unknown future feature", "from __future__ import braces", /'braces' cannot be imported/],
    ["the standard library", "import re", /import of 're'/],
  ])("%s", (_label, imports, reason) => {
    const code = `${imports}\nfrom karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch${BODY}`;
    expect(() => pythonToSpec(code)).toThrow(reason);
    expect(isDeclarativePython(code)).toBe(false);
  });
});
