/** The template builder's routes (spec 02 §9.5) as the editor calls them. */
import { apiFetch } from "../api/index.js";
import type {
  BuilderGenerateResult,
  BuilderParseResult,
  BuilderPrimitives,
  BuilderTemplateRemainder,
  BuilderTemplateSpec,
  BuilderTestRequest,
  BuilderTestResult,
  BuilderValidation,
  ModelDefaults,
  ModelInterfaces,
} from "../library-types/index.js";

const BASE = "/api/v2/templates/builder";

export type TemplateLanguage = "Python" | "JavaScript";

/** The TemplateSpec of Python code, without running it. */
export const parseTemplate = (code: string, signal?: AbortSignal) =>
  apiFetch<BuilderParseResult>(`${BASE}/parse`, {
    method: "POST",
    body: { code },
    ...(signal ? { signal } : {}),
  });

/**
 * The code of a spec, written into a mixed template's hand-written `remainder` when there is one; an invalid
 * spec is an `ApiRequestError` whose `details` lists each problem.
 */
export const generateTemplate = (
  spec: BuilderTemplateSpec,
  remainder: BuilderTemplateRemainder | undefined,
  signal?: AbortSignal,
) =>
  apiFetch<BuilderGenerateResult>(`${BASE}/generate`, {
    method: "POST",
    body: remainder === undefined ? { spec } : { spec, remainder },
    ...(signal ? { signal } : {}),
  });

/** Quick Check: loads the template as a verification would, in a sandbox of its own. */
export const validateTemplate = (code: string, language: TemplateLanguage, signal?: AbortSignal) =>
  apiFetch<BuilderValidation>(`${BASE}/validate`, {
    method: "POST",
    body: { code, language },
    ...(signal ? { signal } : {}),
  });

/** A sample answer parsed by the judge and verified by the template. */
export const testTemplate = (request: BuilderTestRequest, signal?: AbortSignal) =>
  apiFetch<BuilderTestResult>(`${BASE}/test`, {
    method: "POST",
    body: request,
    ...(signal ? { signal } : {}),
  });

export const fetchPrimitives = (signal?: AbortSignal) =>
  apiFetch<BuilderPrimitives>(`${BASE}/primitives`, signal ? { signal } : {});

export const fetchModelDefaults = (signal?: AbortSignal) =>
  apiFetch<ModelDefaults>("/api/v2/config/defaults", signal ? { signal } : {});

export const fetchInterfaces = (signal?: AbortSignal) =>
  apiFetch<ModelInterfaces>("/api/v2/interfaces", signal ? { signal } : {});
