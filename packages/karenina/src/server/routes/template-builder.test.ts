import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CLASSIC_TEMPLATE } from "../../test-support/classic-template.js";
import {
  MIXED_TEMPLATE,
  MIXED_TEMPLATE_REMAINDER,
  MIXED_TEMPLATE_SPEC,
} from "../../test-support/mixed-template.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { BCL2_TARGET_FIELD } from "../../test-support/template-specs.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let server: TestServer;
let llm: OpenAiTestServer;

beforeAll(async () => {
  [server, llm] = await Promise.all([startTestServer(), startOpenAiServer()]);
});
afterAll(async () => {
  await Promise.all([server.close(), llm.close()]);
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}/api/v2/templates/builder${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const VERIFIED = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    target: str = VerifiedField(
        description="Target protein named in the response",
        ground_truth='BCL2',
        verify_with=ExactMatch(normalize=['lowercase', 'strip']),
    )
`;

const SPEC = {
  class_name: "Answer",
  verify_strategy: null,
  fields: [BCL2_TARGET_FIELD],
};

describe("template builder: primitives, parse, generate", () => {
  test("GET …/primitives lists every primitive with its parameter schema", async () => {
    const res = await fetch(`${server.url}/api/v2/templates/builder/primitives`);
    expect(res.status).toBe(200);
    const { primitives } = (await res.json()) as {
      primitives: {
        name: string;
        applies_to: string[] | null;
        is_trace: boolean;
        parameters: { type: string };
      }[];
    };
    const exact = primitives.find((p) => p.name === "ExactMatch");
    expect(exact).toMatchObject({
      applies_to: ["str", "int", "float"],
      is_trace: false,
      parameters: { type: "object" },
    });
    expect(primitives.find((p) => p.name === "TraceRegex")?.is_trace).toBe(true);
    expect(primitives.map((p) => p.name)).toEqual([...primitives.map((p) => p.name)].sort());
  });

  test("POST …/parse reads a VerifiedField template into its spec", async () => {
    const res = await post("/parse", { code: VERIFIED });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ mode: "verified", spec: SPEC, lossy: [], reason: null });
  });

  test("POST …/parse says classic for a template with methods, without running it", async () => {
    const res = await post("/parse", { code: CLASSIC_TEMPLATE });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { mode: string; spec: unknown; reason: string };
    expect(body.mode).toBe("classic");
    expect(body.spec).toBeNull();
    expect(body.reason).toMatch(/\S/);
  });

  test("POST …/generate writes the spec's code, which parses back to the same spec", async () => {
    const res = await post("/generate", { spec: SPEC });
    expect(res.status).toBe(200);
    const { code } = (await res.json()) as { code: string };
    expect(code).toContain("class Answer(BaseAnswer):");
    const back = (await (await post("/parse", { code })).json()) as { spec: unknown };
    expect(back.spec).toEqual(SPEC);
  });

  test("POST …/generate refuses an invalid spec with 422 listing each problem", async () => {
    const bad = { ...SPEC, fields: [{ ...SPEC.fields[0], type: "text" }] };
    const res = await post("/generate", { spec: bad });
    expect(res.status).toBe(422);
    const problems = [
      "Field 'target': invalid field type 'text'. Must be one of: ['bool', 'date', 'float', 'int', 'list_str', 'literal', 'str']",
      "Field 'target': primitive 'ExactMatch' is not compatible with field type 'text'. Compatible types: ['float', 'int', 'str']",
    ];
    expect(await res.json()).toEqual({
      error: { code: "invalid_spec", message: problems.join("; "), details: problems },
    });
  });

  test("POST …/parse gives a mixed template's spec and its hand-written remainder", async () => {
    const res = await post("/parse", { code: MIXED_TEMPLATE });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      mode: "mixed",
      spec: MIXED_TEMPLATE_SPEC,
      remainder: MIXED_TEMPLATE_REMAINDER,
      lossy: [],
      reason: null,
    });
  });

  test("POST …/generate with the remainder writes the edited field into the hand-written code", async () => {
    const spec = structuredClone(MIXED_TEMPLATE_SPEC);
    (spec.fields[0] as { ground_truth: unknown }).ground_truth = "MCL1";
    const res = await post("/generate", { spec, remainder: MIXED_TEMPLATE_REMAINDER });
    expect(res.status).toBe(200);
    const { code } = (await res.json()) as { code: string };
    expect(code.startsWith(MIXED_TEMPLATE_REMAINDER.module_head)).toBe(true);
    expect(code.endsWith(MIXED_TEMPLATE_REMAINDER.class_body_tail)).toBe(true);
    const back = (await (await post("/parse", { code })).json()) as Record<string, unknown>;
    expect(back).toEqual({
      mode: "mixed",
      spec,
      remainder: MIXED_TEMPLATE_REMAINDER,
      lossy: [],
      reason: null,
    });
  });

  test("POST …/generate refuses a remainder that does not fit around the fields, with the reason", async () => {
    const res = await post("/generate", {
      spec: MIXED_TEMPLATE_SPEC,
      remainder: { ...MIXED_TEMPLATE_REMAINDER, class_body_tail: "x = 'unterminated\n" },
    });
    expect(res.status).toBe(422);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("invalid_spec");
    expect(error.message).toMatch(/hand-written part does not fit .*unterminated string literal/);
  });

  test("a spec that fails its schema is a 422 naming the field", async () => {
    const res = await post("/generate", { spec: { fields: [{ name: "x" }] } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^body\.spec\.fields\[0\]\./,
    );
  });
});

describe("template builder: validate and test run client code only in a sandbox of the request's own", () => {
  test("a valid VerifiedField template validates with its ground truth", async () => {
    const res = await post("/validate", { code: VERIFIED });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      valid: true,
      errors: [],
      class_name: "Answer",
      mode: "verified",
      runtime: "declarative",
      ground_truth: { target: "BCL2" },
    });
  });

  test("a classic Python template validates in Pyodide", async () => {
    const res = await post("/validate", { code: CLASSIC_TEMPLATE });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      valid: true,
      class_name: "Answer",
      mode: "classic",
      runtime: "python",
    });
  }, 60_000);

  test("a template with a syntax error is invalid, with the reason", async () => {
    const code = "from karenina.schemas.entities import BaseAnswer\nclass Answer(BaseAnswer)\n    pass\n";
    const res = await post("/validate", { code });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { valid: boolean; errors: string[] };
    expect(body.valid).toBe(false);
    expect(body.errors).toHaveLength(1);
  }, 60_000);

  test("a hostile template cannot read the server's files: the sandbox has none of them", async () => {
    const hostile = `${CLASSIC_TEMPLATE}\nleaked = open("/etc/hostname").read()\n`;
    const res = await post("/validate", { code: hostile });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      valid: false,
      errors: ["Error executing template code: [Errno 44] No such file or directory: '/etc/hostname'"],
    });
  }, 60_000);

  test("a hostile template cannot read the server's environment: its ground truth shows an empty one", async () => {
    const hostile = CLASSIC_TEMPLATE.replace(
      'self.correct = {"target": "BCL2"}',
      'import os\n        self.correct = {"target": repr(sorted(os.environ.items()))}',
    );
    const res = await post("/validate", { code: hostile });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { valid: boolean; ground_truth: { target: string } };
    expect(body.valid).toBe(true);
    expect(process.env.PATH).toBeTruthy();
    expect(body.ground_truth.target).not.toContain(String(process.env.PATH));
  }, 60_000);

  test("POST …/test parses the sample answer with the judge and verifies it", async () => {
    llm.script({ match: { model: "judge" }, reply: { json: { target: " bcl2 " } } });
    const res = await post("/test", {
      code: VERIFIED,
      question_text: "Which protein does venetoclax inhibit?",
      sample_response: "It inhibits BCL-2, that is BCL2.",
      parsing_model: {
        id: "judge",
        model_provider: "openai",
        model_name: "judge",
        interface: "openai_endpoint",
        endpoint_base_url: llm.baseURL,
        endpoint_api_key: "sk-test",
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      parsed_fields: { target: " bcl2 " },
      verify_result: true,
      verify_granular: 1,
      field_results: { target: true },
      failure: null,
    });
    const judged = llm.requests.at(-1);
    expect(JSON.stringify(judged?.body)).toContain("It inhibits BCL-2, that is BCL2.");
  }, 60_000);

  test("POST …/test with an invalid judge config is a 422 naming the field", async () => {
    const res = await post("/test", {
      code: VERIFIED,
      question_text: "q",
      sample_response: "a",
      parsing_model: { model_name: "judge", interface: "no_such_interface" },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^body\.parsing_model/,
    );
  });
});
