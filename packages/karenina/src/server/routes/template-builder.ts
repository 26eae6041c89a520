import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  builderPrimitives,
  generateTemplateSource,
  parseTemplateSource,
  testTemplate,
  validateTemplateSource,
} from "../../authoring/index.js";
import { TEMPLATE_LANGUAGES } from "../../checkpoint/index.js";
import { ModelConfigSchema } from "../../pipeline/index.js";
import type { PythonSandbox } from "../../sandbox/index.js";
import { createTemplateSandbox, TemplateRemainderSchema, TemplateSpecSchema } from "../../templates/index.js";
import { ApiError, errorResponses, jsonContent, type RouteGroup } from "../core/index.js";
import { SpareSandboxes } from "../spare-sandboxes/index.js";

const TAGS = ["template builder"];
const BASE = "/api/v2/templates/builder";

/** Template code as the builder sends it (a checkpoint stores the same pair). */
const CodeField = z.string().min(1, "must be non-empty template code").max(200_000);
const LanguageField = z.enum(TEMPLATE_LANGUAGES).default("Python");

const PrimitiveSchema = z.object({
  name: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()).describe("The parameters as a JSON Schema"),
  applies_to: z.array(z.string()).nullable().describe("Field types it applies to; null = any"),
  is_trace: z.boolean(),
});
export const PrimitivesSchema = z
  .object({ primitives: z.array(PrimitiveSchema) })
  .meta({ id: "BuilderPrimitives" });

export const ParseRequest = z.object({ code: CodeField }).meta({ id: "BuilderParseRequest" });
export const ParseResponse = z
  .object({
    mode: z.enum(["verified", "classic", "mixed"]),
    spec: TemplateSpecSchema.nullable(),
    lossy: z.array(z.string()).describe("What the spec cannot express; empty when it reproduces the code"),
    reason: z.string().nullable().describe("Why there is no spec, when there is none"),
    remainder: TemplateRemainderSchema.optional().describe(
      "A mixed template's hand-written part (classic fields, methods, imports), kept verbatim by generate",
    ),
  })
  .meta({ id: "BuilderParseResult" });

export const GenerateRequest = z
  .object({
    spec: TemplateSpecSchema,
    remainder: TemplateRemainderSchema.optional().describe(
      "The hand-written part parse gave for a mixed template: the fields are written into it, byte for byte",
    ),
  })
  .meta({ id: "BuilderGenerateRequest" });
export const GenerateResponse = z.object({ code: z.string() }).meta({ id: "BuilderGenerateResult" });

export const ValidateRequest = z
  .object({ code: CodeField, language: LanguageField })
  .meta({ id: "BuilderValidateRequest" });
export const ValidateResponse = z
  .object({
    valid: z.boolean(),
    errors: z.array(z.string()),
    class_name: z.string().nullable(),
    mode: z.enum(["classic", "verified", "mixed"]).nullable(),
    runtime: z.enum(["declarative", "javascript", "python"]).nullable(),
    ground_truth: z.record(z.string(), z.unknown()).nullable(),
    judge_schema: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "BuilderValidation" });

export const TestRequest = z
  .object({
    code: CodeField,
    language: LanguageField,
    question_text: z.string().min(1, "must be the question's text"),
    sample_response: z.string().min(1, "must be the answer to test"),
    parsing_model: ModelConfigSchema.describe("The judge that parses the sample answer"),
  })
  .meta({ id: "BuilderTestRequest" });
export const TestResponse = z
  .object({
    parsed_fields: z.record(z.string(), z.unknown()).nullable(),
    verify_result: z.boolean().nullable(),
    verify_granular: z.unknown(),
    field_results: z.record(z.string(), z.boolean().nullable()).nullable(),
    failure: z.unknown().describe("The result's failure (spec 06 §1.7), or null"),
  })
  .meta({ id: "BuilderTestResult" });

const primitives = createRoute({
  method: "get",
  path: `${BASE}/primitives`,
  tags: TAGS,
  summary: "The verification primitives a VerifiedField can use (spec 02 §6, §9.5)",
  responses: { 200: jsonContent(PrimitivesSchema, "Every primitive") },
});

const parse = createRoute({
  method: "post",
  path: `${BASE}/parse`,
  tags: TAGS,
  summary:
    "Read Python template code into a TemplateSpec (and a mixed template's kept part), without running it",
  request: { body: { ...jsonContent(ParseRequest, "The code"), required: true } },
  responses: { 200: jsonContent(ParseResponse, "What was read"), ...errorResponses(422) },
});

const generate = createRoute({
  method: "post",
  path: `${BASE}/generate`,
  tags: TAGS,
  summary:
    "The VerifiedField Python code of a TemplateSpec (spec 02 §9.4), inside a mixed template's kept part",
  request: { body: { ...jsonContent(GenerateRequest, "The spec"), required: true } },
  responses: { 200: jsonContent(GenerateResponse, "The code"), ...errorResponses(422) },
});

const validate = createRoute({
  method: "post",
  path: `${BASE}/validate`,
  tags: TAGS,
  summary: "Load template code as a verification would (in a sandbox of its own) and say whether it is valid",
  request: { body: { ...jsonContent(ValidateRequest, "The code"), required: true } },
  responses: { 200: jsonContent(ValidateResponse, "Valid or not, and why"), ...errorResponses(422) },
});

const test = createRoute({
  method: "post",
  path: `${BASE}/test`,
  tags: TAGS,
  summary: "Parse a sample answer with a judge model and verify it with the template",
  request: { body: { ...jsonContent(TestRequest, "The template, sample answer and judge"), required: true } },
  responses: {
    200: jsonContent(TestResponse, "What the judge extracted and the verdict"),
    ...errorResponses(422),
  },
});

/** Runs `work` with a Python sandbox of its own (the request's trust domain), closed afterwards. */
async function withOwnSandbox<T>(work: (sandbox: PythonSandbox) => Promise<T>): Promise<T> {
  const sandbox = createTemplateSandbox("strict");
  try {
    return await work(sandbox);
  } finally {
    await sandbox.close();
  }
}

/**
 * The visual template builder (spec 02 §9.5, spec 07 §1.3.6): primitives, parse, generate, validate, test.
 * Client code only ever runs through the sandboxes, in one of its own per request (never shared with a
 * benchmark or another request); parse and generate never run it.
 */
export const templateBuilderRoutes: RouteGroup = (app, _deps, hooks) => {
  // A Python template's check waits for no process start: it takes a started, never-used sandbox.
  const spares = new SpareSandboxes(() => createTemplateSandbox("strict"));
  hooks.onShutdown(() => spares.close());
  const sandboxFor = (language: string) => (language === "Python" ? spares : { use: withOwnSandbox });

  app.openapi(primitives, (c) => c.json({ primitives: builderPrimitives() }, 200));

  app.openapi(parse, (c) => c.json(parseTemplateSource(c.req.valid("json").code), 200));

  app.openapi(generate, (c) => {
    const { spec, remainder } = c.req.valid("json");
    const { code, problems } = generateTemplateSource(spec, remainder);
    if (code === null) throw new ApiError(422, "invalid_spec", problems.join("; "), problems);
    return c.json({ code }, 200);
  });

  app.openapi(validate, async (c) => {
    const { code, language } = c.req.valid("json");
    const outcome = await sandboxFor(language).use((sandbox) =>
      validateTemplateSource(code, language, sandbox),
    );
    return c.json(outcome, 200);
  });

  app.openapi(test, async (c) => {
    const body = c.req.valid("json");
    const outcome = await sandboxFor(body.language).use((pythonSandbox) =>
      testTemplate({
        template: { code: body.code, language: body.language },
        questionText: body.question_text,
        sampleResponse: body.sample_response,
        parsingModel: body.parsing_model,
        pythonSandbox,
        signal: c.req.raw.signal,
      }),
    );
    return c.json(outcome, 200);
  });
};
