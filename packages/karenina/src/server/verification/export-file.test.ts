import { expect, test } from "vitest";
import { exportFilename } from "./export-file.js";

const model = (provider: string | null, name: string) => ({
  provider,
  name,
  temperature: 0,
  interface: "openai_endpoint",
});
const NOON = new Date(Date.UTC(2026, 3, 21, 12, 0, 5));

test("the 06 name: UTC timestamp, first answering and parsing model, / replaced, a missing provider unknown", () => {
  expect(
    exportFilename(
      { answering_models: [model("openai", "meta/llama-3")], parsing_models: [model(null, "judge")] },
      "csv",
      NOON,
    ),
  ).toBe("verification_results_20260421_120005_openai_meta_llama-3_to_unknown_judge.csv");
  expect(exportFilename(undefined, "json", NOON)).toBe(
    "verification_results_20260421_120005_unknown_unknown_to_unknown_unknown.json",
  );
});

test("attack: a client's model name cannot break out of the quoted Content-Disposition value", () => {
  const name = exportFilename(
    {
      answering_models: [model("openai", 'x"\r\nSet-Cookie: a=b\\é')],
      parsing_models: [model("openai", "j")],
    },
    "json",
    NOON,
  );
  expect(name).toBe("verification_results_20260421_120005_openai_x___Set-Cookie: a=b___to_openai_j.json");
  // the header Node would refuse (or split) without the cleaning is accepted as one value
  expect(() => new Headers({ "content-disposition": `attachment; filename="${name}"` })).not.toThrow();
});
