// The request and response types of the web app's template editor (the visual builder's routes, spec 02 §9.5),
// inferred from the route schemas.
import type { z } from "zod";
import type {
  GenerateRequest,
  GenerateResponse,
  ParseRequest,
  ParseResponse,
  PrimitivesSchema,
  TestRequest,
  TestResponse,
  ValidateRequest,
  ValidateResponse,
} from "../routes/template-builder.js";

/** `GET /api/v2/templates/builder/primitives` and one primitive of it. */
export type BuilderPrimitives = z.infer<typeof PrimitivesSchema>;
export type BuilderPrimitiveInfo = BuilderPrimitives["primitives"][number];
/** `POST …/parse` body and answer: the TemplateSpec of Python code (`mode` classic/verified/mixed). */
export type BuilderParseRequest = z.input<typeof ParseRequest>;
export type BuilderParseResult = z.infer<typeof ParseResponse>;
/** A mixed template's hand-written part, as parse gives it and generate takes it back. */
export type BuilderTemplateRemainder = NonNullable<BuilderParseResult["remainder"]>;
/** The builder's TemplateSpec, one of its fields and its strategy node, as the routes send and accept them. */
export type BuilderTemplateSpec = z.infer<typeof GenerateRequest>["spec"];
export type BuilderFieldSpec = BuilderTemplateSpec["fields"][number];
export type BuilderStrategySpec = NonNullable<BuilderTemplateSpec["verify_strategy"]>;
/** `POST …/generate` body and answer. */
export type BuilderGenerateRequest = z.input<typeof GenerateRequest>;
export type BuilderGenerateResult = z.infer<typeof GenerateResponse>;
/** `POST …/validate` (Quick Check, spec 02 §8) body and answer. */
export type BuilderValidateRequest = z.input<typeof ValidateRequest>;
export type BuilderValidation = z.infer<typeof ValidateResponse>;
/** `POST …/test` (a sample answer judged and verified) body and answer. */
export type BuilderTestRequest = z.input<typeof TestRequest>;
export type BuilderTestResult = z.infer<typeof TestResponse>;
