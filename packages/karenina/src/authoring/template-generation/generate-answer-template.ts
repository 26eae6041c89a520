import {
  assistantMessage,
  LlmAbortedError,
  type Message,
  ParseError,
  type StructuredSchema,
  userMessage,
} from "../../llm/index.js";
import { type CallServices, ModelCalls, type ModelConfig } from "../../pipeline/index.js";
import { loadDeclarativeTemplate, specToPython, type TemplateSpec } from "../../templates/index.js";
import { type GenerationPhase, TemplateGenerationError } from "./errors.js";
import { generatedTemplateSpec } from "./generated-spec.js";
import { generationServices, statsRecorder } from "./generation-services.js";
import { descriptionMessages, groundTruthMessages, planMessages, type TemplateQuestion } from "./prompts.js";
import {
  fieldDescriptionsReply,
  type GroundTruthAttribute,
  groundTruthAttributes,
  groundTruthSpecReply,
} from "./replies.js";

/** Options of {@link generateAnswerTemplate}. */
export interface GenerateAnswerTemplateOptions {
  /** The model that writes the template (its temperature, `max_retries` and retry policy apply). */
  model: ModelConfig;
  /** Start with a free-text plan (phase 0) that guides the ground-truth spec. Default true. */
  plan?: boolean;
  /** Ports, scheduler, response cache and counters to call through; default: fresh ones, closed at the end. */
  services?: CallServices;
  /** Aborts the calls in flight; the generation then throws `LlmAbortedError`. */
  signal?: AbortSignal;
}

/** A generated template: the original's VerifiedField Python, its TemplateSpec, the plan and what to review. */
export interface GeneratedTemplate {
  /** Python source of class `Answer` (spec 02 §9.4), loadable by the original and by this library. */
  code: string;
  spec: TemplateSpec;
  /** Phase 0's plan, or null when planning was off. */
  plan: string | null;
  /** Things a reviewer should look at: free-text `str` fields, an instruction naming its value, a failed smoke test. */
  warnings: string[];
}

const STAGES: Record<GenerationPhase, string> = {
  plan: "template_generation_plan",
  "ground-truth spec": "template_generation_spec",
  "field descriptions": "template_generation_descriptions",
};

interface Phase {
  calls: ModelCalls;
  model: ModelConfig;
  question: TemplateQuestion;
}

/** Port errors other than an abort, with the question and the phase named. */
function inPhase(error: unknown, { question }: Phase, phase: GenerationPhase): unknown {
  if (error instanceof LlmAbortedError || error instanceof TemplateGenerationError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TemplateGenerationError(question.question, phase, message, { cause: error });
}

/**
 * A structured call; a reply the parser cannot turn into a valid object is shown back to the model with its
 * problems, up to `max_retries` more times.
 */
async function structured<T>(
  context: Phase,
  phase: GenerationPhase,
  messages: readonly Message[],
  schema: StructuredSchema<T>,
): Promise<T> {
  const attempts = 1 + Math.max(0, context.model.max_retries);
  let conversation = messages;
  let problem = "";
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      const request = { stage: STAGES[phase], model: context.model, messages: conversation, schema };
      return (await context.calls.parse(request)).parsed;
    } catch (error) {
      if (!(error instanceof ParseError)) throw inPhase(error, context, phase);
      problem = error.validationError ?? error.message;
      conversation = [
        ...messages,
        assistantMessage(error.rawResponse ?? ""),
        userMessage(`Your reply could not be used: ${problem}. Reply again with only the JSON object.`),
      ];
    }
  }
  throw new TemplateGenerationError(
    context.question.question,
    phase,
    `no usable reply after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${problem}`,
  );
}

async function writePlan(context: Phase): Promise<string> {
  try {
    const messages = planMessages(context.question);
    const response = await context.calls.invoke({ stage: STAGES.plan, model: context.model, messages });
    return response.content.trim();
  } catch (error) {
    throw inPhase(error, context, "plan");
  }
}

/** Review notes on the attributes and their judge instructions (the template is kept either way). */
function reviewWarnings(
  attributes: readonly GroundTruthAttribute[],
  descriptions: Record<string, string>,
): string[] {
  const warnings: string[] = [];
  for (const attribute of attributes) {
    if (attribute.type.kind === "str") {
      warnings.push(
        `${JSON.stringify(attribute.name)} is a free-text str field, checked by exact match after lowercasing and stripping: review it, or use bool, Literal or List[str] where answers may be worded differently`,
      );
    }
    if (attribute.type.kind !== "str" && attribute.type.kind !== "list_str") continue;
    const description = (descriptions[attribute.name] ?? "").toLowerCase();
    const values = Array.isArray(attribute.groundTruth)
      ? attribute.groundTruth
      : [String(attribute.groundTruth)];
    const named = values.filter(
      (value) => value.trim().length >= 3 && description.includes(value.trim().toLowerCase()),
    );
    if (named.length > 0) {
      warnings.push(
        `the judge instruction of ${JSON.stringify(attribute.name)} names its expected value ${named.map((v) => JSON.stringify(v)).join(", ")}: the judge would see it; reword the description`,
      );
    }
  }
  return warnings;
}

/** Spec 06 §7 step 5: the template, filled with its own ground truths, must verify. Null when it does. */
async function smokeTestProblem(
  code: string,
  attributes: readonly GroundTruthAttribute[],
): Promise<string | null> {
  try {
    const template = loadDeclarativeTemplate(code);
    const evaluation = await template.evaluate(
      Object.fromEntries(attributes.map((a) => [a.name, a.groundTruth])),
    );
    if (evaluation.verify) return null;
    return `smoke test: verify() is false for the ground-truth values${evaluation.error === null ? "" : ` (${evaluation.error})`}`;
  } catch (error) {
    return `smoke test: the generated template does not load: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Writes a declarative answer template for a question with an LLM (spec 06 §7): a free-text plan (phase 0,
 * unless `plan: false`), the attributes with their types and ground truths taken from the reference answer
 * (phase 1), a judge instruction per attribute (phase 2), then VerifiedField Python with the primitive each
 * type calls for. The ground truth is only in the template: the judge schema built from it strips it. The
 * template is smoke-tested with its own ground truths; a failure is a warning, not an error.
 * @throws {TemplateGenerationError} when a phase gets no usable reply (after `max_retries` retries for the
 *   structured phases) or its call fails; `LlmAbortedError` when `signal` aborts.
 */
export async function generateAnswerTemplate(
  question: TemplateQuestion,
  options: GenerateAnswerTemplateOptions,
): Promise<GeneratedTemplate> {
  const { services, close } = generationServices(options.services, options.signal);
  try {
    const context: Phase = {
      calls: new ModelCalls(services, statsRecorder(services)),
      model: options.model,
      question,
    };
    const warnings: string[] = [];
    let plan: string | null = null;
    if (options.plan !== false) {
      plan = await writePlan(context);
      if (plan === "") {
        warnings.push("the plan came back empty; the template was written without one");
        plan = null;
      }
    }
    const spec = await structured(
      context,
      "ground-truth spec",
      groundTruthMessages(question, plan),
      groundTruthSpecReply,
    );
    const attributes = groundTruthAttributes(spec);
    const names = attributes.map((attribute) => attribute.name);
    const reply = await structured(
      context,
      "field descriptions",
      descriptionMessages(question, attributes),
      fieldDescriptionsReply(names),
    );
    const descriptions = Object.fromEntries(
      reply.field_descriptions.map((entry) => [entry.name, entry.description.trim()]),
    );
    const templateSpec = generatedTemplateSpec(attributes, descriptions);
    const code = specToPython(templateSpec);
    warnings.push(...reviewWarnings(attributes, descriptions));
    const smoke = await smokeTestProblem(code, attributes);
    if (smoke !== null) warnings.push(smoke);
    return { code, spec: templateSpec, plan, warnings };
  } finally {
    await close();
  }
}
