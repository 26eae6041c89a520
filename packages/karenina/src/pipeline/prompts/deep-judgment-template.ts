import type { JsonSchema } from "../../templates/index.js";
import { assemblePrompt, type JudgePrompt, type PromptSettings } from "./assembly.js";
import type { TemplateExcerpt } from "./deep-judgment-template-replies.js";
import { bulletList, taggedBlock } from "./tagged.js";

/** One attribute the template deep judgment reasons about: a field of the judge schema. */
export interface DeepJudgmentAttribute {
  name: string;
  description: string | null;
}

/**
 * The attributes of a judge schema, in field order, with their descriptions. The inherited `id` property is left
 * out: it is no part of the answer (a choice of ours; the original lists every property).
 */
export function deepJudgmentAttributes(judgeSchema: JsonSchema): DeepJudgmentAttribute[] {
  const properties = judgeSchema.properties;
  if (typeof properties !== "object" || properties === null) return [];
  return Object.entries(properties as Record<string, unknown>)
    .filter(([name]) => name !== "id")
    .map(([name, property]) => {
      const description = (property as { description?: unknown } | null)?.description;
      return { name, description: typeof description === "string" ? description : null };
    });
}

/** `- name: description` per attribute (spec 04 §9.1 `attr_guidance`). */
export function attributeGuidance(attributes: readonly DeepJudgmentAttribute[]): string {
  return bulletList(attributes.map((a) => `${a.name}: ${a.description ?? "(no description)"}`));
}

/** What every template deep-judgment prompt starts from. */
export interface DeepJudgmentPromptBase extends PromptSettings {
  /** The parsing system text with its adapter additions and `prompt_config.parsing` (`parsingSystemText`). */
  baseSystem: string;
  judgeSchema: JsonSchema;
  question: string;
}

const join = (...parts: string[]) => parts.join("\n\n");

const questionBlock = (question: string) => taggedBlock("Question", "question", question);
const responseBlock = (response: string) => taggedBlock("Response", "response", response);

/**
 * Reasoning-only deep judgment, call 1 (spec 04 §9.1, task `dj_template_reasoning_only`): the base system text,
 * the attribute guidance and a request for 2–3 sentences of reasoning per attribute as `{attr: reasoning}`; the
 * user text holds the question and the response. Read the reply with `readReasoningReply`.
 */
export function reasoningOnlyPrompt(input: DeepJudgmentPromptBase & { response: string }): JudgePrompt {
  const attributes = deepJudgmentAttributes(input.judgeSchema);
  const system = join(
    input.baseSystem,
    "Before any value is extracted, reason about each attribute below: what the response says about it and which value that supports.",
    `Attributes:\n${attributeGuidance(attributes)}`,
    'For each attribute write 2-3 sentences of reasoning. Reply with a JSON object mapping each attribute name to its reasoning: {"<attribute>": "<reasoning>"}.',
  );
  const user = join(questionBlock(input.question), responseBlock(input.response));
  return assemblePrompt("dj_template_reasoning_only", { system, user }, input, {
    jsonSchema: reasoningReplySchema(attributes),
  });
}

/** The JSON Schema of an excerpt-extraction reply for these attributes. */
export function excerptReplySchema(attributes: readonly DeepJudgmentAttribute[]): JsonSchema {
  const item = {
    type: "object",
    properties: {
      text: { type: "string" },
      confidence: { type: "string", enum: ["high", "medium", "low", "none"] },
      explanation: { type: "string" },
    },
    required: ["text", "confidence"],
  };
  return {
    type: "object",
    properties: Object.fromEntries(attributes.map((a) => [a.name, { type: "array", items: item }])),
    required: attributes.map((a) => a.name),
  };
}

function reasoningReplySchema(attributes: readonly DeepJudgmentAttribute[]): JsonSchema {
  return {
    type: "object",
    properties: Object.fromEntries(attributes.map((a) => [a.name, { type: "string" }])),
    required: attributes.map((a) => a.name),
  };
}

/** Input of the excerpt-extraction call. */
export interface ExcerptPromptInput extends DeepJudgmentPromptBase {
  response: string;
  /** `deep_judgment_max_excerpts_per_attribute`. */
  maxExcerptsPerAttribute: number;
  /** True on a retry after excerpts were not found verbatim: adds a note to the user text. */
  retry?: boolean;
}

/** The note appended to the user text on a retry. */
export const EXCERPT_RETRY_NOTE =
  "Note: some excerpts of your previous reply do not appear verbatim in the response. Copy the response's text exactly, character for character, or return an empty list for an attribute that has no evidence.";

/**
 * Full deep judgment, step 1 (spec 04 §9.1, task `dj_template_excerpt_extraction`): the base system text, the
 * excerpt extractor's role, the attribute guidance, the protocol (at most N excerpts per attribute; confidence
 * high = explicit, medium = implied, low = weak; no evidence ⇒ one entry with empty text, confidence `none` and
 * an explanation) and the verbatim rules. User: the question and the response in tagged blocks, plus
 * {@link EXCERPT_RETRY_NOTE} on a retry. Reply `{attr: [{text, confidence, explanation?}]}`, read with
 * `readExcerptReply` and checked with `checkTemplateExcerpts`.
 */
export function excerptExtractionPrompt(input: ExcerptPromptInput): JudgePrompt {
  const attributes = deepJudgmentAttributes(input.judgeSchema);
  const max = input.maxExcerptsPerAttribute;
  const system = join(
    input.baseSystem,
    "Your task now is to extract verbatim excerpts: for each attribute below, quote the passages of the response that are evidence for its value.",
    `Attributes:\n${attributeGuidance(attributes)}`,
    `Protocol:\n${bulletList([
      `Give at most ${max} excerpt${max === 1 ? "" : "s"} per attribute, the strongest first.`,
      'Rate each excerpt\'s confidence: "high" when the passage states the value explicitly, "medium" when it implies it, "low" when the evidence is weak or indirect.',
      'When the response holds no evidence for an attribute, return a single entry with empty "text", "confidence": "none" and an "explanation" of why there is none.',
    ])}`,
    `Verbatim rules:\n${bulletList([
      "Copy every excerpt exactly as it appears in the response, character for character: no paraphrase, no summary, no corrected typos, no ellipses joining separate passages.",
      "Keep each excerpt to the shortest passage that carries the evidence.",
    ])}`,
    'Reply with a JSON object mapping each attribute name to its list of excerpts: {"<attribute>": [{"text": "...", "confidence": "high|medium|low|none", "explanation": "..."}]}.',
  );
  const blocks = [questionBlock(input.question), responseBlock(input.response)];
  if (input.retry === true) blocks.push(EXCERPT_RETRY_NOTE);
  return assemblePrompt("dj_template_excerpt_extraction", { system, user: join(...blocks) }, input, {
    jsonSchema: excerptReplySchema(attributes),
    parsingNotes: [
      "Each excerpt is checked against the response by fuzzy matching; text that does not occur in the response is rejected.",
    ],
  });
}

/** An excerpt sent to the hallucination judge, under a temporary id. */
export interface AssessedExcerptRef {
  id: string;
  attribute: string;
  /** Index of the excerpt in its attribute's list. */
  index: number;
}

function formatSearchResults(results: unknown): string {
  if (typeof results === "string") return results;
  if (!Array.isArray(results) || results.length === 0) return "(no results)";
  return results
    .map((result, i) => {
      if (typeof result === "string") return `[${i + 1}] ${result}`;
      const { title, content, url } = (result ?? {}) as Record<string, unknown>;
      const head = [title, url].filter((part) => typeof part === "string" && part !== "").join(" — ");
      return `[${i + 1}] ${head}\n${typeof content === "string" ? content : ""}`.trimEnd();
    })
    .join("\n");
}

const HALLUCINATION_SYSTEM = join(
  "You assess whether excerpts quoted from an AI model's response are supported by independent web search results.",
  `For each excerpt give a hallucination risk:\n${bulletList([
    '"none": the search results confirm the excerpt.',
    '"low": the results mostly support it.',
    '"medium": the results are mixed, partial or unclear.',
    '"high": the results contradict it, or nothing in them supports it.',
  ])}`,
  'Assess every excerpt listed. Reply with a JSON object {"excerpt_assessments": [{"excerpt_id": "<id>", "hallucination_risk": "none|low|medium|high", "justification": "<one or two sentences>"}]}.',
);

/**
 * Full deep judgment, step 3 (spec 04 §9.1, task `dj_template_hallucination`), for the excerpts that have search
 * results: each gets a temporary id (`excerpt_1`, … in attribute order) and is listed with its attribute, text,
 * extraction confidence, similarity and search results. Returns the prompt and the ids; read the reply with
 * `readHallucinationReply(reply, ids)`. Null when no excerpt has search results (no call).
 */
export function hallucinationPrompt(
  input: PromptSettings & { excerpts: Readonly<Record<string, readonly TemplateExcerpt[]>> },
): { prompt: JudgePrompt; excerpts: AssessedExcerptRef[] } | null {
  const refs: AssessedExcerptRef[] = [];
  const entries: string[] = [];
  for (const [attribute, excerpts] of Object.entries(input.excerpts)) {
    excerpts.forEach((excerpt, index) => {
      if (excerpt.search_results === undefined) return;
      const id = `excerpt_${refs.length + 1}`;
      refs.push({ id, attribute, index });
      entries.push(
        [
          `Excerpt ${id}`,
          `Attribute: ${attribute}`,
          `Text: "${excerpt.text}"`,
          `Extraction confidence: ${excerpt.confidence}`,
          `Similarity to the response: ${excerpt.similarity_score.toFixed(2)}`,
          `Search results:\n${formatSearchResults(excerpt.search_results)}`,
        ].join("\n"),
      );
    });
  }
  if (refs.length === 0) return null;
  const user = join(...entries, `Assess all ${refs.length} excerpts and reply with the JSON object.`);
  const prompt = assemblePrompt("dj_template_hallucination", { system: HALLUCINATION_SYSTEM, user }, input, {
    jsonSchema: {
      type: "object",
      properties: {
        excerpt_assessments: {
          type: "array",
          items: {
            type: "object",
            properties: {
              excerpt_id: { type: "string" },
              hallucination_risk: { type: "string", enum: ["none", "low", "medium", "high"] },
              justification: { type: "string" },
            },
            required: ["excerpt_id", "hallucination_risk", "justification"],
          },
        },
      },
      required: ["excerpt_assessments"],
    },
  });
  return { prompt, excerpts: refs };
}

/** The excerpts of each attribute as the reasoning prompt shows them. */
export function formatExcerpts(
  attributes: readonly string[],
  excerpts: Readonly<Record<string, readonly TemplateExcerpt[]>>,
): string {
  return attributes
    .map((attribute) => {
      const list = excerpts[attribute] ?? [];
      const lines = list.map((excerpt, i) => {
        if (excerpt.text === "") return `  No evidence found: ${excerpt.explanation ?? ""}`.trimEnd();
        const risk =
          excerpt.hallucination_risk === undefined
            ? ""
            : `\n    Hallucination risk: ${excerpt.hallucination_risk}${excerpt.hallucination_justification ? ` (${excerpt.hallucination_justification})` : ""}`;
        return `  ${i + 1}. "${excerpt.text}" (confidence: ${excerpt.confidence}, similarity: ${excerpt.similarity_score.toFixed(2)})${risk}`;
      });
      return `${attribute}:\n${lines.length > 0 ? lines.join("\n") : "  No excerpts were found in the response."}`;
    })
    .join("\n\n");
}

/**
 * Full deep judgment, step 4 (spec 04 §9.1, task `dj_template_reasoning`): the base system text, the reasoning
 * role, the attribute guidance and the protocol (2–3 sentences per attribute on how the excerpts bear on it, the
 * value they imply and any ambiguity; explain attributes without excerpts; with search, weigh the hallucination
 * risks). User: the question and the formatted excerpts — the raw response is **not** included. Reply
 * `{attr: reasoning}`, read with `readReasoningReply` (which also accepts `{attr: {reasoning}}`).
 */
export function reasoningPrompt(
  input: DeepJudgmentPromptBase & {
    excerpts: Readonly<Record<string, readonly TemplateExcerpt[]>>;
    searchEnabled?: boolean;
  },
): JudgePrompt {
  const attributes = deepJudgmentAttributes(input.judgeSchema);
  const protocol = [
    "Write 2-3 sentences per attribute: how the excerpts relate to it, what value they imply, and any ambiguity or conflict between them.",
    "For an attribute without excerpts, explain what their absence means for its value.",
  ];
  if (input.searchEnabled === true) {
    protocol.push(
      "Weigh each excerpt's hallucination risk: rely less on excerpts that the search results do not support.",
    );
  }
  const system = join(
    input.baseSystem,
    "Your task now is to reason about each attribute from the excerpts extracted from the response.",
    `Attributes:\n${attributeGuidance(attributes)}`,
    `Protocol:\n${bulletList(protocol)}`,
    'Reply with a JSON object mapping each attribute name to its reasoning: {"<attribute>": "<reasoning>"}.',
  );
  const user = join(
    questionBlock(input.question),
    `Excerpts by attribute:\n${formatExcerpts(
      attributes.map((a) => a.name),
      input.excerpts,
    )}`,
  );
  return assemblePrompt("dj_template_reasoning", { system, user }, input, {
    jsonSchema: reasoningReplySchema(attributes),
  });
}

/**
 * The user text of the final parse of deep judgment (spec 04 §9.1, "parameters"): the question and the reasoning
 * per attribute. The response itself is not repeated.
 */
export function parametersUserText(question: string, reasoning: Readonly<Record<string, string>>): string {
  const traces = Object.entries(reasoning).map(([attribute, text]) => `${attribute}: ${text}`);
  return join(
    `Original Question: ${question}`,
    `Reasoning Traces:\n${traces.length > 0 ? traces.join("\n\n") : "(no reasoning available)"}`,
    "Extract the fields of the JSON schema from the reasoning above.",
  );
}

/**
 * The final parse of deep judgment (spec 04 §9.1): system = the base system text as it is (it already carries the
 * parsing additions and instructions), user = {@link parametersUserText}. Sent through the parser port with the
 * answer's schema.
 */
export function parametersPrompt(input: {
  baseSystem: string;
  question: string;
  reasoning: Readonly<Record<string, string>>;
}): JudgePrompt {
  return {
    task: "parsing",
    system: input.baseSystem,
    user: parametersUserText(input.question, input.reasoning),
  };
}
