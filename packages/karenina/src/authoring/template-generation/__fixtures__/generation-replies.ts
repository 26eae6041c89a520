/**
 * Template-generation test data: questions and the generator model's replies for the three phases.
 * Every reply here is hand-written for the tests; none was produced by a model.
 */
import { type ModelConfig, ModelConfigSchema } from "../../../pipeline/index.js";
import type { RecordedRequest, ScriptRule } from "../../../test-support/openai-server/index.js";
import { endpointModel } from "../../../test-support/pipeline-context.js";
import type { TemplateQuestion } from "../prompts.js";

/** The generator model on the scripted server at `baseURL`: temperature 0, `maxRetries` retries. */
export function writerModel(baseURL: string, maxRetries = 2): ModelConfig {
  return ModelConfigSchema.parse({ ...endpointModel(baseURL, "writer"), temperature: 0, max_retries: maxRetries });
}

/** A question whose template uses every attribute type. */
export const CLL_QUESTION: TemplateQuestion = {
  question: "Which BCL-2 inhibitor is approved for CLL, at what daily dose, and is it taken orally?",
  raw_answer: "Venetoclax, 400 mg once daily after a 5-week ramp-up; an oral tablet (phase III MURANO).",
  answer_notes: "Accept ABT-199 as a synonym of venetoclax.",
};

/** Hand-written phase-0 reply. */
export const CLL_PLAN =
  "Extract the drug name (str), whether it is oral (bool), the daily dose in mg (int), the ramp-up in weeks (float), the trial phase (Literal) and the drug's targets (List[str]).";

/** Hand-written phase-1 reply. */
export const CLL_SPEC = {
  attributes: [
    { name: "drug", type: "str", ground_truth: "venetoclax" },
    { name: "oral", type: "bool", ground_truth: true },
    { name: "daily_dose_mg", type: "int", ground_truth: 400 },
    { name: "ramp_up_weeks", type: "float", ground_truth: 5 },
    { name: "trial_phase", type: "Literal['I', 'II', 'III']", ground_truth: "III" },
    { name: "targets", type: "List[str]", ground_truth: ["BCL2"] },
  ],
};

/** Hand-written phase-2 reply. */
export const CLL_DESCRIPTIONS = {
  field_descriptions: [
    { name: "drug", description: "The generic name of the BCL-2 inhibitor the response recommends, lowercase." },
    { name: "oral", description: "True when the response says the drug is taken by mouth." },
    { name: "daily_dose_mg", description: "The maintenance daily dose in milligrams, as an integer." },
    { name: "ramp_up_weeks", description: "The length of the dose ramp-up in weeks." },
    { name: "trial_phase", description: "The phase of the pivotal trial cited: I, II or III." },
    { name: "targets", description: "The gene symbols of the proteins the drug inhibits." },
  ],
};

/** The values a judge would extract from a correct answer. */
export const CLL_CORRECT = {
  drug: "Venetoclax ",
  oral: true,
  daily_dose_mg: 400,
  ramp_up_weeks: 5.002,
  trial_phase: "III",
  targets: ["BCL2"],
};

/** A one-attribute reply set for a question `text` whose expected drug is `drug`. */
export function drugReplies(drug: string) {
  return {
    plan: `Plan: one str attribute for the drug (${drug}).`,
    spec: { attributes: [{ name: "drug", type: "str", ground_truth: drug }] },
    descriptions: { field_descriptions: [{ name: "drug", description: "The drug the response names." }] },
  };
}

/**
 * The rules answering one question's generation: each phase's request carries the question text, so the
 * rules (used once, in order) follow the phases; phase 1 is told apart by the plan it carries.
 */
export function generationRules(
  questionText: string,
  replies: { plan: string | null; spec: unknown; descriptions: unknown },
): ScriptRule[] {
  return [
    ...(replies.plan === null ? [] : [{ match: { lastUserIncludes: questionText }, reply: { text: replies.plan } }]),
    { match: { lastUserIncludes: replies.plan ?? questionText }, reply: { json: replies.spec } },
    { match: { lastUserIncludes: questionText }, reply: { json: replies.descriptions } },
  ];
}

/** The last user message of a recorded chat request. */
export function lastUserText(request: RecordedRequest | undefined): string {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? "").join("") : "";
}

/** Every message of a recorded chat request, as text. */
export function allText(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body.messages ?? []);
}
