/**
 * `karenina verify --interactive [--mode basic|advanced]` (spec 06 §5.1.3): a guided prompt for the
 * questions, the models and the run's options. Basic asks what most runs need; advanced adds the rubric
 * trait filter, deep-judgment parameters, rubric deep judgment, few-shot examples, async settings and MCP
 * servers. The answers become the same config the flags build (verify-command.ts applies them).
 */
import { type Readable, Writable } from "node:stream";
import { DEFAULT_ANSWERING_SYSTEM_PROMPT, DEFAULT_PARSING_SYSTEM_PROMPT } from "../pipeline/index.js";
import type { WizardMode } from "./original-flags.js";

/** Where the wizard asks and reads: a terminal, or streams a test drives. */
export interface PromptStreams {
  input: Readable;
  output: Writable;
}

/** A model as the wizard asked for it. */
export interface WizardModel {
  /** `interface:model[@base_url]`, as `-a` / `-p` take it; `manual` for the manual interface. */
  spec: string;
  provider: string | null;
  temperature: number;
  systemPrompt: string | null;
}

/** What the wizard found out. */
export interface WizardAnswers {
  questionIds: string[];
  answering: WizardModel[];
  parsing: WizardModel[];
  /** Config fields other than the models (snake_case, as in a preset). */
  config: Record<string, unknown>;
  /** MCP servers of the answering models, as `--mcp` takes them. */
  mcp: string[];
  /** The results file, or null for none. */
  output: string | null;
  progress: boolean;
  /** Save the config as a preset of this name first, or null. */
  presetName: string | null;
}

/** What the wizard needs to know. */
export interface WizardRequest {
  mode: WizardMode;
  /** The questions it may verify (the finished ones, in order). */
  questions: readonly { id: string; text: string }[];
  /** Names of the rubric traits the benchmark has (advanced: the trait filter). */
  traitNames: readonly string[];
  /** `--manual-traces` was given: the manual interface is offered for answering. */
  manualTraces: boolean;
  streams: PromptStreams;
}

const INTERFACE_CHOICES = [
  {
    value: "openai_endpoint",
    name: "openai_endpoint (any OpenAI-compatible server: Ollama, vLLM, llama.cpp)",
  },
  { value: "openai", name: "openai (OPENAI_API_KEY)" },
  { value: "anthropic", name: "anthropic (ANTHROPIC_API_KEY)" },
  { value: "google", name: "google (GOOGLE_GENERATIVE_AI_API_KEY)" },
  { value: "openrouter", name: "openrouter (OPENROUTER_API_KEY)" },
  { value: "langchain", name: "langchain (with a provider)" },
  { value: "claude_tool", name: "claude_tool" },
  { value: "claude_agent_sdk", name: "claude_agent_sdk" },
];

/** The prompts, bound to the wizard's streams. Loaded on first use: `verify` without `--interactive` never loads them. */
async function prompter(streams: PromptStreams) {
  const prompts = await import("@inquirer/prompts");
  // Each prompt ends the output it is given when it is done: give it one of its own, forwarding to ours.
  const output = () =>
    new Writable({
      write: (chunk, encoding, callback) => {
        streams.output.write(chunk, encoding, callback);
      },
    });
  const context = () => ({ input: streams.input, output: output(), clearPromptOnDone: false });
  return {
    select: <T>(message: string, choices: readonly { value: T; name?: string }[], fallback?: T) =>
      prompts.select<T>(
        { message, choices, ...(fallback === undefined ? {} : { default: fallback }) },
        context(),
      ),
    confirm: (message: string, fallback: boolean) =>
      prompts.confirm({ message, default: fallback }, context()),
    input: (message: string, fallback = "", validate?: (value: string) => true | string) =>
      prompts.input(
        { message, default: fallback, ...(validate === undefined ? {} : { validate }) },
        context(),
      ),
    number: async (message: string, fallback: number, min: number, max: number, integer = true) =>
      (await prompts.number(
        { message, default: fallback, min, max, required: true, step: integer ? 1 : "any" },
        context(),
      )) as number,
    checkbox: <T>(
      message: string,
      choices: readonly { value: T; name: string; short?: string; checked: boolean }[],
    ) =>
      prompts.checkbox<T>(
        {
          message,
          choices,
          pageSize: 12,
          required: true,
        },
        context(),
      ),
  };
}

type Prompter = Awaited<ReturnType<typeof prompter>>;

const clip = (text: string, width: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
};

const isUrl = (value: string) => (/^https?:\/\/\S+$/.test(value.trim()) ? true : "give an http(s):// URL");
const notBlank = (value: string) => (value.trim() === "" ? "give a value" : true);

async function askModel(ask: Prompter, role: "answering" | "parsing", n: number, manual: boolean) {
  const choices = [
    ...INTERFACE_CHOICES,
    ...(role === "answering" && manual ? [{ value: "manual", name: "manual (--manual-traces)" }] : []),
  ];
  const chosen = await ask.select(`${role} model ${n}: interface`, choices);
  if (chosen === "manual") return { spec: "manual", provider: null, temperature: 0, systemPrompt: null };
  const provider =
    chosen === "langchain"
      ? await ask.select(`${role} model ${n}: provider`, [
          { value: "openai" },
          { value: "anthropic" },
          { value: "google_genai" },
        ])
      : null;
  const name = (await ask.input(`${role} model ${n}: model name`, "", notBlank)).trim();
  const baseUrl =
    chosen === "openai_endpoint"
      ? (await ask.input(`${role} model ${n}: base URL`, "http://127.0.0.1:11434/v1", isUrl)).trim()
      : null;
  const temperature = await ask.number(`${role} model ${n}: temperature`, 0.1, 0, 2, false);
  const suggested = role === "answering" ? DEFAULT_ANSWERING_SYSTEM_PROMPT : DEFAULT_PARSING_SYSTEM_PROMPT;
  const systemPrompt = (await ask.input(`${role} model ${n}: system prompt`, suggested)).trim();
  return {
    spec: `${chosen}:${name}${baseUrl === null ? "" : `@${baseUrl}`}`,
    provider,
    temperature,
    systemPrompt: systemPrompt === "" ? null : systemPrompt,
  };
}

async function askModels(ask: Prompter, role: "answering" | "parsing", manual: boolean) {
  const models: WizardModel[] = [await askModel(ask, role, 1, manual)];
  while (await ask.confirm(`Add another ${role} model?`, false))
    models.push(await askModel(ask, role, models.length + 1, manual));
  return models;
}

async function askQuestions(ask: Prompter, questions: WizardRequest["questions"]): Promise<string[]> {
  const width = String(questions.length - 1).length;
  return ask.checkbox(
    "Questions to verify (space toggles, a toggles all, enter confirms)",
    questions.map((question, index) => ({
      value: question.id,
      name: `${String(index).padStart(width)}  ${clip(question.text, 70)}`,
      short: String(index),
      checked: true,
    })),
  );
}

async function askChecks(ask: Prompter, config: Record<string, unknown>): Promise<void> {
  config.replicate_count = await ask.number("Replicates per question and model pair", 1, 1, 1000);
  config.evaluation_mode = await ask.select("Evaluation mode", [
    { value: "template_only", name: "template_only: the answer template's verdict" },
    { value: "template_and_rubric", name: "template_and_rubric: the template and the rubric traits" },
    { value: "rubric_only", name: "rubric_only: the rubric traits only" },
  ]);
  config.abstention_enabled = await ask.confirm("Detect refusals (abstention) before parsing?", false);
  config.sufficiency_enabled = await ask.confirm("Check that answers are sufficient before parsing?", false);
  config.embedding_check_enabled = await ask.confirm(
    "Embedding check (second look at answers the template says are wrong)?",
    false,
  );
  config.deep_judgment_mode = await ask.select("Template deep judgment", [
    { value: "disabled" },
    { value: "reasoning_only" },
    { value: "full" },
  ]);
}

/** The config fields of one kind of deep judgment's excerpt settings, and the defaults offered. */
interface ExcerptSettings {
  label: string;
  per: string;
  fields: { excerpts: string; fuzzy: string; retries: string };
  excerpts: number;
}

async function askExcerptSettings(ask: Prompter, config: Record<string, unknown>, settings: ExcerptSettings) {
  const { label, fields } = settings;
  config[fields.excerpts] = await ask.number(
    `${label}: excerpts per ${settings.per}`,
    settings.excerpts,
    1,
    100,
  );
  config[fields.fuzzy] = await ask.number(`${label}: fuzzy match threshold`, 0.8, 0, 1, false);
  config[fields.retries] = await ask.number(`${label}: excerpt retries`, 2, 0, 10);
}

async function askDeepJudgment(ask: Prompter, config: Record<string, unknown>): Promise<void> {
  if (config.deep_judgment_mode !== "disabled")
    await askExcerptSettings(ask, config, {
      label: "Deep judgment",
      per: "attribute",
      excerpts: 3,
      fields: {
        excerpts: "deep_judgment_max_excerpts_per_attribute",
        fuzzy: "deep_judgment_fuzzy_match_threshold",
        retries: "deep_judgment_excerpt_retry_attempts",
      },
    });
  if (config.evaluation_mode === "template_only") return;
  config.deep_judgment_rubric_mode = await ask.select("Rubric deep judgment", [
    { value: "disabled" },
    { value: "enable_all", name: "enable_all: every LLM trait" },
    { value: "use_checkpoint", name: "use_checkpoint: the traits the checkpoint enables" },
  ]);
  if (config.deep_judgment_rubric_mode === "disabled") return;
  await askExcerptSettings(ask, config, {
    label: "Rubric deep judgment",
    per: "trait",
    excerpts: 7,
    fields: {
      excerpts: "deep_judgment_rubric_max_excerpts_default",
      fuzzy: "deep_judgment_rubric_fuzzy_match_threshold_default",
      retries: "deep_judgment_rubric_excerpt_retry_attempts_default",
    },
  });
}

async function askAdvanced(
  ask: Prompter,
  request: WizardRequest,
  config: Record<string, unknown>,
): Promise<void> {
  if (config.evaluation_mode !== "template_only" && request.traitNames.length > 0) {
    const traits = await ask.checkbox(
      "Rubric traits to evaluate",
      request.traitNames.map((name) => ({ value: name, name, checked: true })),
    );
    if (traits.length < request.traitNames.length) config.rubric_trait_names = traits;
  }
  await askDeepJudgment(ask, config);
  const fewShot = await ask.select("Few-shot examples in the answering prompt", [
    { value: "none", name: "none" },
    { value: "all", name: "all of each question's examples" },
    { value: "k-shot", name: "k of each question's examples" },
  ]);
  if (fewShot !== "none") {
    config.few_shot_config = {
      source: "question_pool",
      pool_mode: fewShot,
      ...(fewShot === "k-shot"
        ? { pool_k: await ask.number("Few-shot: examples per question (k)", 3, 1, 100) }
        : {}),
    };
  }
  config.async_enabled = await ask.confirm("Run tasks in parallel?", true);
  if (config.async_enabled) config.async_max_workers = await ask.number("Tasks at once", 2, 1, 256);
}

async function askMcp(ask: Prompter): Promise<string[]> {
  const servers: string[] = [];
  for (;;) {
    const server = (
      await ask.input(
        "MCP server for the answering models (name=url_or_command; empty: no more)",
        "",
        (value) =>
          value.trim() === "" || /^[^=\s]+=\S/.test(value.trim()) ? true : "write name=url_or_command",
      )
    ).trim();
    if (server === "") return servers;
    servers.push(server);
  }
}

async function askOutput(ask: Prompter): Promise<string | null> {
  if (!(await ask.confirm("Save the results to a file?", true))) return null;
  const format = await ask.select("Results format", [
    { value: "json", name: "json: the original's export (format 2.2)" },
    { value: "csv", name: "csv" },
    { value: "jsonl", name: "jsonl: one result per line, appended as each finishes" },
  ]);
  return (await ask.input("Results file", `verification_results.${format}`, notBlank)).trim();
}

/**
 * Asks for a run, step by step, on `request.streams`.
 * @throws {Error} the prompts' `ExitPromptError` when the person closes the prompt (Ctrl-C).
 */
export async function runVerifyWizard(request: WizardRequest): Promise<WizardAnswers> {
  const ask = await prompter(request.streams);
  const questionIds = await askQuestions(ask, request.questions);
  const config: Record<string, unknown> = {};
  await askChecks(ask, config);
  if (request.mode === "advanced") await askAdvanced(ask, request, config);
  const answering = await askModels(ask, "answering", request.manualTraces);
  const parsing = await askModels(ask, "parsing", false);
  const mcp =
    request.mode === "advanced" && answering.some((model) => model.spec !== "manual")
      ? await askMcp(ask)
      : [];
  const presetName = (await ask.confirm("Save these settings as a preset?", false))
    ? (await ask.input("Preset name", "", notBlank)).trim()
    : null;
  const progress = await ask.confirm("Show a progress bar?", true);
  const output = await askOutput(ask);
  return { questionIds, answering, parsing, config, mcp, output, progress, presetName };
}
