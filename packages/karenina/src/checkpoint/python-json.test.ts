import { expect, test } from "vitest";
import { pythonFloatRepr, pythonJsonDumps } from "./python-json.js";

test("pythonJsonDumps writes what Python's json.dumps writes", () => {
  expect(pythonJsonDumps({ name: "Zoë", tags: ["a", 1, true, null] })).toBe(
    '{"name": "Zo\\u00eb", "tags": ["a", 1, true, null]}',
  );
  expect(pythonJsonDumps([{ question: "Q?", answer: 'say "hi"\n' }])).toBe(
    '[{"question": "Q?", "answer": "say \\"hi\\"\\n"}]',
  );
  expect(pythonJsonDumps("🧪")).toBe('"\\ud83e\\uddea"');
  expect(pythonJsonDumps({})).toBe("{}");
});

test("pythonFloatRepr gives floats their .0", () => {
  expect(pythonFloatRepr(5)).toBe("5.0");
  expect(pythonFloatRepr(0)).toBe("0.0");
  expect(pythonFloatRepr(-1)).toBe("-1.0");
  expect(pythonFloatRepr(0.5)).toBe("0.5");
});
