/**
 * What `karenina init` writes, as pure functions of the project directory and the provider: the config files,
 * the project README, a sample spreadsheet, and the example benchmark (built with the library, never written
 * by hand, so it always loads). The example's questions and answers are hand-written teaching material.
 */
import { basename } from "node:path";
import { stringify } from "csv-stringify/sync";
import { Benchmark } from "../benchmark/index.js";
import { type TemplateSpecInput, TemplateSpecSchema } from "../templates/index.js";

/** The providers `init --provider` offers. */
export const INIT_PROVIDERS = ["openai", "anthropic", "google", "ollama"] as const;
export type InitProvider = (typeof INIT_PROVIDERS)[number];

/** How a provider's models are reached here. */
interface ProviderDefaults {
  /** Our interface name: the first part of a model SPEC. */
  interface: string;
  /** The provider as the original's `defaults.json` names it. */
  provider: string;
  model: string;
  baseUrl: string;
  /** The environment variable holding the API key, or null when none is needed. */
  keyVariable: string | null;
}

const PROVIDER_DEFAULTS: Readonly<Record<InitProvider, ProviderDefaults>> = {
  openai: {
    interface: "openai",
    provider: "openai",
    model: "gpt-4.1-mini",
    baseUrl: "",
    keyVariable: "OPENAI_API_KEY",
  },
  anthropic: {
    interface: "anthropic",
    provider: "anthropic",
    model: "claude-haiku-4-5",
    baseUrl: "",
    keyVariable: "ANTHROPIC_API_KEY",
  },
  google: {
    interface: "google",
    provider: "google_genai",
    model: "gemini-2.5-flash",
    baseUrl: "",
    keyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
  },
  ollama: {
    interface: "openai_endpoint",
    provider: "ollama",
    model: "llama3.1",
    baseUrl: "http://127.0.0.1:11434/v1",
    keyVariable: null,
  },
};

const KEY_VARIABLES = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "OPENROUTER_API_KEY",
];

/** The directories `init` makes (an existing one is kept as it is). */
export const INIT_DIRS = ["dbs", "presets", "mcp_presets", "checkpoints"] as const;

/** The files `init` writes, relative to the project directory. */
export const INIT_FILES = {
  defaults: "defaults.json",
  env: ".env",
  example: "checkpoints/example.jsonld",
  questions: "questions.csv",
  readme: "README.md",
} as const;

/** The `.gitignore` of a project, which `init` writes or completes (never replacing a line already there). */
export const INIT_GITIGNORE = ".gitignore";

/** What a project keeps out of git: API keys, and the files runs leave beside their results. */
const GITIGNORE_ENTRIES = [
  [".env", "API keys"],
  ["*.state.json", "run state files beside run logs (karenina status reads them)"],
  ["*.db-wal", "SQLite's working files beside a database"],
  ["*.db-shm", null],
  [".karenina-cache/", "response caches (verify --cache .karenina-cache)"],
] as const;

/**
 * The `.gitignore` text after `init`: `existing` (null when there is none) with the entries it lacks
 * appended, or null when it has them all.
 */
export function gitignoreText(existing: string | null): string | null {
  const present = new Set((existing ?? "").split(/\r?\n/).map((line) => line.trim()));
  const missing = GITIGNORE_ENTRIES.filter(([pattern]) => !present.has(pattern));
  if (missing.length === 0) return null;
  const lines = missing.flatMap(([pattern, why]) => (why === null ? [pattern] : [`# ${why}`, pattern]));
  const before = existing === null || existing.trim() === "" ? "" : `${existing.replace(/\n*$/, "")}\n\n`;
  return `${before}# added by karenina init\n${lines.join("\n")}\n`;
}

/** The model SPEC (`interface:model[@base_url]`) of a provider's default model, as `verify -a/-p` take it. */
export function defaultModelSpec(provider: InitProvider): string {
  const p = PROVIDER_DEFAULTS[provider];
  return `${p.interface}:${p.model}${p.baseUrl === "" ? "" : `@${p.baseUrl}`}`;
}

/** `defaults.json`, with the original's keys (spec 06 §5.6). */
export function defaultsJson(provider: InitProvider): string {
  const p = PROVIDER_DEFAULTS[provider];
  const defaults = {
    default_interface: p.interface,
    default_provider: p.provider,
    default_model: p.model,
    default_endpoint_base_url: p.baseUrl,
  };
  return `${JSON.stringify(defaults, null, 2)}\n`;
}

/** A value as a POSIX shell word, so `. ./.env` reads paths with spaces or quotes as they are. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `.env`: the project's directories and run settings, and API-key placeholders, commented out. */
export function envFile(dir: string, provider: InitProvider): string {
  const key = PROVIDER_DEFAULTS[provider].keyVariable;
  const keys = key === null ? KEY_VARIABLES : [key, ...KEY_VARIABLES.filter((name) => name !== key)];
  const lines = [
    "# karenina settings for this project, written by `karenina init`.",
    "# Only you can read this file (mode 600): keep it that way, and keep it out of version control.",
    "# Load it into your shell before running karenina:  set -a; . ./.env; set +a",
    "",
    `DB_PATH=${shellWord(`${dir}/dbs`)}`,
    `KARENINA_PRESETS_DIR=${shellWord(`${dir}/presets`)}`,
    `MCP_PRESETS_DIR=${shellWord(`${dir}/mcp_presets`)}`,
    "KARENINA_ASYNC_ENABLED=true",
    "KARENINA_ASYNC_MAX_WORKERS=2",
    "",
    "# API keys: uncomment and fill in the one(s) you use.",
    ...(key === null
      ? [`# (${provider} needs none: its models are served at ${PROVIDER_DEFAULTS[provider].baseUrl})`]
      : []),
    ...keys.map((name) => `# ${name}=`),
  ];
  return `${lines.join("\n")}\n`;
}

/** Hand-written sample rows for `karenina import`: none of them is in the example checkpoint. */
const SAMPLE_ROWS = [
  ["Question", "Answer", "Author", "Keywords", "Notes", "Difficulty", "Source"],
  [
    "Which enzyme does aspirin irreversibly inhibit?",
    "Cyclooxygenase (COX-1 and COX-2)",
    "A. Curator",
    "pharmacology; enzymes",
    "Either isoform, or COX, counts as correct",
    "2",
    "https://example.org/aspirin",
  ],
  ["How many bones are in the adult human body?", "206", "A. Curator", "anatomy", "", "1", ""],
  ["What is the chemical symbol of gold?", "Au", "B. Reviewer", "chemistry; elements", "", "1", ""],
  [
    "Which vitamin does human skin make in sunlight, and in which form?",
    "Vitamin D, as cholecalciferol (D3)",
    "B. Reviewer",
    "physiology; vitamins",
    "Both the vitamin and the form are needed",
    "3",
    "",
  ],
];

/** `questions.csv`: a sample spreadsheet, written with a real CSV writer so quoted commas stay valid. */
export function sampleQuestionsCsv(): string {
  return stringify(SAMPLE_ROWS);
}

/** The import command the README shows for `questions.csv`. */
const IMPORT_COMMAND =
  'karenina import questions.csv -q Question -a Answer --keywords-column "Keywords:;" \\\n' +
  "    --author-name-column Author --notes-column Notes --metadata-column Difficulty --url-column Source \\\n" +
  '    --finished -o checkpoints/my-benchmark.jsonld --name "My benchmark"';

/** The project's `README.md`: what is there and the next commands. */
export function projectReadme(dir: string, provider: InitProvider): string {
  const model = defaultModelSpec(provider);
  const key = PROVIDER_DEFAULTS[provider].keyVariable;
  const models = `-a ${model} -p ${model}`;
  return `# ${basename(dir)}: a karenina project

Made by \`karenina init\`. What is here:

| path | what |
| --- | --- |
| \`defaults.json\` | the default model: \`${model}\` |
| \`.env\` | directories, run settings and API keys (mode 600; keep it out of version control) |
| \`checkpoints/example.jsonld\` | an example benchmark: 4 questions with answer templates, and one rubric trait |
| \`questions.csv\` | sample questions to import |
| \`dbs/\`, \`presets/\`, \`mcp_presets/\` | results databases, verification presets, MCP server presets |

## 1. Load the settings
${key === null ? "Start Ollama and pull the model (`ollama pull llama3.1`); no API key is needed." : `Put your key in \`.env\` (uncomment \`${key}=\`), then:`}

    set -a; . ./.env; set +a

## 2. Look at the example
    karenina checkpoint inspect checkpoints/example.jsonld
    karenina checkpoint validate checkpoints/example.jsonld

## 3. Import your questions from a spreadsheet (.xlsx, .csv, .tsv)
    karenina import questions.csv --preview
    ${IMPORT_COMMAND}

Only finished questions are verified: \`--finished\` marks them so (leave it out to import drafts, and mark
them finished after review with \`karenina checkpoint finish checkpoints/my-benchmark.jsonld\`).

## 4. Write their answer templates with an LLM
    karenina generate-templates checkpoints/my-benchmark.jsonld -m ${model}

Check a template without any LLM with \`karenina template check\`.

## 5. See what a run would cost, then run it
    karenina verify checkpoints/example.jsonld ${models} --dry-run
    karenina verify checkpoints/example.jsonld ${models} --mode template_and_rubric -o runs/example.jsonl

## 6. Read the results
    karenina results runs/example.jsonl
    karenina results runs/example.jsonl --by question
`;
}

/** One example question: hand-written, with its template as a declarative spec. */
interface ExampleQuestion {
  question: string;
  answer: string;
  keywords: string[];
  template: TemplateSpecInput;
}

const field = (spec: TemplateSpecInput["fields"][number]): TemplateSpecInput => ({ fields: [spec] });

const EXAMPLE_QUESTIONS: readonly ExampleQuestion[] = [
  {
    question: "What is the putative target of venetoclax?",
    answer: "BCL2 (B-cell lymphoma 2)",
    keywords: ["oncology", "pharmacology"],
    template: field({
      name: "target",
      type: "str",
      description: "The protein target of venetoclax named in the response, as a gene symbol (e.g. BCL2)",
      ground_truth: "BCL2",
      verify_with: {
        type: "ExactMatch",
        normalize: ["lowercase", "strip", { mapping: { "bcl-2": "bcl2" } }],
      },
    }),
  },
  {
    question: "How many chromosomes are in a human somatic cell?",
    answer: "46",
    keywords: ["genetics"],
    template: field({
      name: "count",
      type: "int",
      description: "The number of chromosomes the response gives for a human somatic cell",
      ground_truth: 46,
      verify_with: { type: "NumericExact" },
    }),
  },
  {
    question: "Is imatinib a tyrosine kinase inhibitor?",
    answer: "Yes",
    keywords: ["oncology", "pharmacology"],
    template: field({
      name: "is_tki",
      type: "bool",
      description: "True if the response says imatinib is a tyrosine kinase inhibitor, false otherwise",
      ground_truth: true,
      verify_with: { type: "BooleanMatch" },
    }),
  },
  {
    question: "Which two organelles of a human cell hold their own DNA?",
    answer: "The nucleus and the mitochondria",
    keywords: ["cell biology"],
    template: field({
      name: "organelles",
      type: "list_str",
      description:
        "The organelles the response names, each as one lowercase word: nucleus, mitochondria, ...",
      ground_truth: ["mitochondria", "nucleus"],
      verify_with: { type: "SetContainment", mode: "exact" },
    }),
  },
];

/**
 * The example benchmark: finished questions with declarative templates (saved as the original's VerifiedField
 * Python, so the Python Karenina loads them too) and a global LLM rubric trait.
 */
export async function exampleBenchmark(): Promise<Benchmark> {
  const bench = Benchmark.create({
    name: "Example benchmark",
    description: "Four example questions with answer templates, made by `karenina init`",
    version: "0.1.0",
    creator: "karenina init",
  });
  for (const { question, answer, keywords, template } of EXAMPLE_QUESTIONS) {
    const id = bench.addQuestion(question, answer, { keywords, finished: true });
    await bench.addAnswerTemplate(id, TemplateSpecSchema.parse(template));
  }
  bench.addGlobalRubricTrait({
    type: "llm",
    name: "conciseness",
    description: "True if the response answers directly, without preamble or filler.",
    kind: "boolean",
    higher_is_better: true,
  });
  return bench;
}
