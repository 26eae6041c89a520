import { KareninaError } from "../../errors/index.js";
import { type Message, ParseError, prepareEvaluationInput } from "../../llm/index.js";
import {
  type DynamicRubric,
  type Rubric,
  type RubricTrait,
  rubricFromTraits,
  rubricTraits,
  type TraitType,
} from "../../model/index.js";
import type { VerificationContext } from "../context.js";
import {
  classifyDynamicTraits,
  presenceCheckPrompt,
  presenceReplySchema,
  promptMessages,
  readPresenceReply,
  traitConcept,
} from "../prompts/index.js";
import { anyObjectSchema } from "./judge.js";

/** The usage bucket of the presence check (spec 04 §12.6). */
export const PRESENCE_USAGE_STAGE = "dynamic_rubric_presence_check";

const TRAIT_CLASSES: Record<TraitType, string> = {
  llm: "LLMRubricTrait",
  regex: "RegexRubricTrait",
  callable: "CallableRubricTrait",
  metric: "MetricRubricTrait",
  agentic: "AgenticRubricTrait",
};

/**
 * A dynamic-rubric trait has the name of a trait of the task's (static) rubric. The original raises for a
 * same-type clash (`Dynamic LLMRubricTrait trait 'x' conflicts with static rubric`); we also refuse a clash
 * across types, which would leave two traits of one name in the evaluated rubric.
 */
export class DynamicRubricConflictError extends KareninaError {
  override readonly name = "DynamicRubricConflictError";

  constructor(
    readonly traitName: string,
    readonly dynamicType: TraitType,
    readonly staticType: TraitType,
  ) {
    super(
      dynamicType === staticType
        ? `Dynamic ${TRAIT_CLASSES[dynamicType]} trait '${traitName}' conflicts with static rubric`
        : `Dynamic ${TRAIT_CLASSES[dynamicType]} trait '${traitName}' conflicts with static ${TRAIT_CLASSES[staticType]} trait of the same name`,
    );
  }
}

/** The rubric to evaluate once dynamic traits are resolved, and what became of each dynamic trait. */
export interface DynamicResolution {
  /** The static rubric with the promoted traits appended to their lists; null when there is no trait at all. */
  rubric: Rubric | null;
  /** Names of the promoted traits, in the dynamic rubric's order. */
  promoted: string[];
  /** Dynamic trait name → why it was not promoted. */
  skipped: Record<string, string>;
  /** False when the dynamic rubric had no trait to check (the result fields then stay null). */
  checked: boolean;
}

function checkConflicts(staticRubric: Rubric | null, dynamicTraits: readonly RubricTrait[]): void {
  const owners = new Map(rubricTraits(staticRubric).map((trait) => [trait.name, trait.type]));
  for (const trait of dynamicTraits) {
    const owner = owners.get(trait.name);
    if (owner !== undefined) throw new DynamicRubricConflictError(trait.name, trait.type, owner);
  }
}

/**
 * Asks the parsing model at temperature 0 which dynamic traits' concepts the response covers. An unusable
 * reply makes every trait absent; a provider error propagates.
 */
async function presence(
  ctx: VerificationContext,
  traits: readonly RubricTrait[],
  response: string,
): Promise<Record<string, boolean>> {
  const names = traits.map((trait) => trait.name);
  const model = { ...ctx.task.parsing, temperature: 0 };
  const prompt = presenceCheckPrompt({
    concepts: traits.map(traitConcept),
    response,
    interface: model.interface,
    promptConfig: ctx.config.prompt_config,
  });
  try {
    const result = await ctx.calls.parse({
      stage: PRESENCE_USAGE_STAGE,
      model,
      messages: promptMessages(prompt),
      schema: anyObjectSchema(presenceReplySchema.name, presenceReplySchema.jsonSchema),
    });
    return readPresenceReply(result.parsed, names);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return readPresenceReply(null, names);
  }
}

/**
 * Dynamic rubric resolution (spec 04 §12.6, spec 03 §8): the dynamic rubric's non-agentic traits are checked
 * for presence in the response in one call (parsing model, temperature 0, usage `dynamic_rubric_presence_check`);
 * present traits that pass `rubric_trait_names` are appended to the rubric, the others are skipped with a
 * reason. When the response text cannot be prepared, every trait is absent and no call is made.
 * @throws {DynamicRubricConflictError} when a dynamic trait has the name of a static trait (a task error, as in
 *   the original).
 * @throws the presence call's provider error (a task error, as in the original).
 */
export async function resolveDynamicRubric(
  ctx: VerificationContext,
  staticRubric: Rubric | null,
  dynamicRubric: DynamicRubric | null,
  trace: readonly Message[] | string,
): Promise<DynamicResolution> {
  const traits = rubricTraits(dynamicRubric).filter((trait) => trait.type !== "agentic");
  if (traits.length === 0) return { rubric: staticRubric, promoted: [], skipped: {}, checked: false };
  checkConflicts(staticRubric, traits);
  const names = traits.map((trait) => trait.name);
  const input = prepareEvaluationInput(trace, ctx.config.use_full_trace_for_rubric);
  const present =
    input.error === null ? await presence(ctx, traits, input.text) : readPresenceReply(null, names);
  const { promoted, skipped } = classifyDynamicTraits(names, present, ctx.config.rubric_trait_names);
  const promotedTraits = traits.filter((trait) => promoted.includes(trait.name));
  const rubric =
    promotedTraits.length === 0
      ? staticRubric
      : rubricFromTraits([...rubricTraits(staticRubric), ...promotedTraits]);
  return { rubric, promoted, skipped, checked: true };
}
