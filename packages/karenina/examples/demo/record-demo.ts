/**
 * Re-records the judge's replies of the offline demo (`karenina demo`) into `recordings/`. Recordings are keyed
 * by the exact request, so run it after any change to a prompt, a template or a trait of the demo:
 *
 *   npm run example:demo       # build-demo.ts, then this script
 *   npx tsx packages/karenina/examples/demo/record-demo.ts
 *
 * Every judge reply below was WRITTEN BY HAND for the demo; none is the output of a model. A local HTTP server
 * (127.0.0.1) serves them to the real pipeline, which records each through its recording layer. The answers
 * come from `demo-answers.replay.json` (hand-written too), so the answering model is never called.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Benchmark, parseVerificationConfig, ReplayStore } from "../../src/index.js";
import {
  DEMO_ANSWERS,
  DEMO_CHECKPOINT,
  DEMO_OFFLINE_CONFIG,
  DEMO_RECORDINGS,
} from "../../src/cli/demo-command.js";
import { startScriptedHttp } from "../../src/test-support/scripted-http.js";

/** What the judge replies, per kind of request, for one question (found by a fragment of its text). */
interface JudgeReplies {
  question: string;
  abstention: { reasoning: string; abstention_detected: boolean };
  /** The answer template's fields as the judge extracts them (absent: no parse call is expected). */
  parse?: Record<string, unknown>;
  /** Boolean and score traits (one batch call): the global `clarity` and the question's own. */
  scores: Record<string, boolean | number>;
  literal?: { trait_name: string; class_name: string }[];
  metric?: { tp: string[]; fn: string[]; fp: string[]; tn: string[] };
  /** Template-kind trait replies by the schema title of the trait's class. */
  templates?: Record<string, Record<string, unknown>>;
}

const answered = (quote: string) => ({
  reasoning: `"${quote}" commits to an answer; there is no disclaimer.`,
  abstention_detected: false,
});

const JUDGE: JudgeReplies[] = [
  {
    question: "Which enzyme does aspirin irreversibly inhibit?",
    abstention: answered("Aspirin irreversibly inhibits cyclooxygenase"),
    parse: { enzyme: "cyclooxygenase (COX-1 and COX-2)" },
    scores: { clarity: 4 },
  },
  {
    question: "Which four vitamins are fat-soluble?",
    abstention: answered("The fat-soluble vitamins are A, D, K and C"),
    parse: { vitamins: ["A", "D", "K", "C"] },
    scores: { clarity: 5 },
    metric: { tp: ["A", "D", "K"], fn: ["vitamin E"], fp: ["C"], tn: [] },
  },
  {
    question: "What is the ATC code of ibuprofen?",
    abstention: answered("Ibuprofen's ATC code is M01AE01"),
    scores: { clarity: 4 },
  },
  {
    question: "What is the active ingredient of Tylenol?",
    abstention: answered("Tylenol's active ingredient is acetaminophen"),
    parse: { ingredient: "acetaminophen" },
    scores: { clarity: 5 },
  },
  {
    question: "Do antibiotics help a common cold",
    abstention: answered("Yes. A short course of amoxicillin always clears a cold faster"),
    parse: { helps: true },
    scores: { clarity: 4 },
    literal: [{ trait_name: "misconception_handling", class_name: "reinforces" }],
  },
  {
    question: "What is the normal human body temperature",
    abstention: answered("Normal body temperature is about 37 °C"),
    parse: { celsius: 37 },
    scores: { clarity: 5 },
  },
  {
    question: "What is the half-life of caffeine",
    abstention: answered("Caffeine has a half-life of roughly 3 hours"),
    parse: { hours: 3 },
    scores: { clarity: 5 },
  },
  {
    question: "Which of these are NSAIDs",
    abstention: answered("Ibuprofen, naproxen and aspirin are NSAIDs"),
    parse: { nsaids: ["ibuprofen", "naproxen", "aspirin"] },
    scores: { clarity: 5 },
  },
  {
    question: "On what date did Bayer register Aspirin",
    abstention: answered("Bayer registered the Aspirin trademark on 10 August 1897"),
    parse: { registered_on: "1897-08-10" },
    scores: { clarity: 5 },
  },
  {
    question: "Describe ibuprofen: its drug class",
    abstention: answered("Ibuprofen is a non-steroidal anti-inflammatory drug (NSAID)"),
    parse: {
      drug_class: "non-steroidal anti-inflammatory drug (NSAID)",
      enzyme: "cyclooxygenase",
      over_the_counter: false,
    },
    scores: { clarity: 4 },
  },
  {
    question: "What is the antidote for a paracetamol",
    abstention: answered("The antidote is N-acetylcysteine (NAC)"),
    parse: { antidote: "N-acetylcysteine" },
    scores: { clarity: 5 },
  },
  {
    question: "How many 500 mg paracetamol tablets",
    abstention: {
      reasoning: `"I can't give dosing advice" declines, and no number of tablets is given.`,
      abstention_detected: true,
    },
    scores: { clarity: 3 },
  },
  {
    question: "Deficiency of which vitamin causes scurvy?",
    abstention: {
      reasoning: `"I cannot answer that reliably" declines, and no vitamin is named.`,
      abstention_detected: true,
    },
    scores: { clarity: 3 },
  },
  {
    question: "What is the usual single adult dose of ibuprofen",
    abstention: answered("The usual adult dose is 200 to 400 mg every 4 to 6 hours"),
    parse: { single_dose_mg: 400 },
    scores: { clarity: 5, mentions_max_daily_dose: true },
    templates: { DosingFacts: { dose_mg: 400, interval_hours: 4, with_food: true } },
  },
];

type Json = Record<string, unknown>;

/** The text of every message of a chat request, to find which question it is about. */
function requestText(body: Json): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  return messages.map((message) => (typeof message.content === "string" ? message.content : "")).join("\n");
}

/** The JSON Schema the request asks the reply to follow (structured output). */
function requestedSchema(body: Json): Json {
  const format = body.response_format as { json_schema?: { schema?: Json } } | undefined;
  return format?.json_schema?.schema ?? {};
}

/** The hand-written reply to one judge request: the question by its text, the kind of call by its schema. */
function judgeReply(body: Json): unknown {
  const text = requestText(body);
  const found = JUDGE.filter((entry) => text.includes(entry.question));
  const entry = found[0];
  if (entry === undefined || found.length > 1) {
    throw new Error(`${found.length} demo questions match this request: ${text.slice(0, 200)}`);
  }
  const schema = requestedSchema(body);
  const properties = (schema.properties ?? {}) as Json;
  const missing = (kind: string) => new Error(`no hand-written ${kind} reply for "${entry.question}"`);
  if ("abstention_detected" in properties) return entry.abstention;
  if ("scores" in properties) return { scores: entry.scores };
  if ("classifications" in properties) return { classifications: entry.literal ?? [] };
  if ("tp" in properties && "fn" in properties) {
    if (entry.metric === undefined) throw missing("metric");
    return entry.metric;
  }
  // The answer template's schema carries the inherited `id` field; a template-kind trait's class does not.
  if ("id" in properties) {
    if (entry.parse === undefined) throw missing("parse");
    return entry.parse;
  }
  const reply = entry.templates?.[String(schema.title)];
  if (reply === undefined) throw missing(`template trait ${String(schema.title)}`);
  return reply;
}

const server = await startScriptedHttp(({ path, body }) => {
  if (!path.endsWith("/chat/completions")) return undefined;
  try {
    const content = JSON.stringify(judgeReply(body));
    return {
      status: 200,
      payload: {
        id: "chatcmpl-handwritten-demo",
        object: "chat.completion",
        created: 0,
        model: body.model,
        system_fingerprint: "hand-written-demo-data",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      },
    };
  } catch (error) {
    return { status: 500, payload: { error: { message: (error as Error).message } } };
  }
});

try {
  const atServer = (models: VerificationModels) =>
    models.map((model) => ({ ...model, endpoint_base_url: `${server.url}/v1` }));
  const config = parseVerificationConfig({
    ...DEMO_OFFLINE_CONFIG,
    answering_models: atServer(DEMO_OFFLINE_CONFIG.answering_models ?? []),
    parsing_models: atServer(DEMO_OFFLINE_CONFIG.parsing_models ?? []),
  });
  await rm(DEMO_RECORDINGS, { recursive: true, force: true });
  const benchmark = await Benchmark.load(DEMO_CHECKPOINT);
  const run = await benchmark.runVerification(config, {
    replay: await ReplayStore.load(DEMO_ANSWERS),
    recording: { dir: DEMO_RECORDINGS, mode: "record" },
  });
  for (const failure of run.failures) throw failure.error;
  for (const result of run.results) {
    const problem = result.metadata.failure;
    if (problem && problem.category !== "content" && problem.category !== "abstention") {
      throw new Error(`${result.metadata.question_id}: ${problem.reason}`);
    }
    if (result.metadata.warnings.length > 0) {
      throw new Error(`${result.metadata.question_id}: ${result.metadata.warnings[0]}`);
    }
  }
  await writeFile(
    join(DEMO_RECORDINGS, "README.md"),
    [
      "# The judge's replies of the offline demo",
      "",
      "Every reply in this folder was **written by hand** for `karenina demo`: the replies of",
      "`handwritten-demo-judge` (abstention checks, template parsing, rubric traits, metric confusion lists).",
      "None of them is the output of a language model. The answers they judge are in",
      "`../demo-answers.replay.json`, written by hand too.",
      "",
      "`karenina demo` replays them offline, keyed by the exact request. After changing a prompt, a template or a",
      "trait, rebuild and re-record with `npm run example:demo` (`build-demo.ts`, then `record-demo.ts`).",
      "",
    ].join("\n"),
  );
  console.log(`recorded ${run.summary.calls} judge replies for ${run.results.length} results in ${DEMO_RECORDINGS}`);
} finally {
  await server.close();
}

type VerificationModels = NonNullable<typeof DEMO_OFFLINE_CONFIG.answering_models>;
