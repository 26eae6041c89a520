import { expect, test } from "vitest";
import { extractJsonText, repairJson } from "./index.js";

test("JSON is taken as is, from the first fence, or from the last balanced object", () => {
  expect(extractJsonText(' {"a": 1} ')).toBe('{"a": 1}');
  expect(extractJsonText('Sure:\n```json\n{"a": 2}\n```\nand ```{"a": 3}```')).toBe('{"a": 2}');
  expect(extractJsonText('first {"a": 1} then {"b": "}"} done')).toBe('{"b": "}"}');
  expect(extractJsonText("```json\n{broken")).toBe("{broken");
});

test("repair fixes quotes, Python literals, trailing commas and truncation", () => {
  expect(JSON.parse(repairJson("{'ok': True, 'none': None, 'list': [1, 2,],}") ?? "")).toEqual({
    ok: true,
    none: null,
    list: [1, 2],
  });
  expect(JSON.parse(repairJson('{\u201Csaid\u201D: "it\'s \u201Cfine\u201D", "items": [1, 2') ?? "")).toEqual(
    {
      said: "it's \u201Cfine\u201D",
      items: [1, 2],
    },
  );
  expect(repairJson("no json here")).toBeNull();
});
