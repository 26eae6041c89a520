/**
 * Builds the agentic example (`agentic.jsonld`) and re-records its agent runs into `recordings/`, for
 * `karenina demo --agentic` and `karenina verify ... --replay-recordings`. Recordings are keyed by the exact
 * request, so run it after any change to a question, the template, the trait, a prompt or a workspace tool:
 *
 *   npm run example:agentic
 *
 * Every agent turn and judge reply below was WRITTEN BY HAND for this example; none is the output of a model.
 * A local HTTP server (127.0.0.1) serves them to the real pipeline: the answering agent's tool calls really
 * run in a copy of each workspace (its `write_file` changes the file), the agentic judge's `read_file` really
 * reads what it left, and the recording layer saves each agent run (turns, tool calls, tool results) and each
 * extraction call. Before recording, the script checks the hand-written verdicts against the truth: it runs
 * `node run-tests.mjs` on each project with the agent's edit applied.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AGENTIC_DEMO_CHECKPOINT,
  AGENTIC_DEMO_OFFLINE_CONFIG,
  AGENTIC_DEMO_RECORDINGS,
  AGENTIC_DEMO_WORKSPACES,
  withDemoWorkspaces,
} from "../../src/cli/agentic-demo.js";
import { Benchmark, parseVerificationConfig, trait } from "../../src/index.js";
import { startScriptedHttp } from "../../src/test-support/scripted-http.js";

const TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, BooleanMatch


class Answer(BaseAnswer):
    tests_pass: bool = VerifiedField(description="Whether \`node run-tests.mjs\` passes in the workspace after the agent's changes", ground_truth=True, verify_with=BooleanMatch())
`;

const FIX_QUALITY = trait.agentic({
  name: "fix_quality",
  description:
    "Read the source file the task is about in the workspace, and run-tests.mjs. Rate the agent's fix: 5 when the bug is fixed cleanly and the tests are untouched, 1 when the bug is still there.",
  kind: "score",
  minScore: 1,
  maxScore: 5,
  contextMode: "workspace_only",
  maxTurns: 6,
});

/** One task: its question, what the agent writes and says, and what the judge finds (all hand-written). */
interface Task {
  id: string;
  project: string;
  file: string;
  edited: string;
  finalAnswer: string;
  judgeReport: string;
  testsPass: boolean;
  qualityReport: string;
  quality: number;
}

const TASKS: Task[] = [
  {
    id: "fix-sum",
    project: "sum-project",
    file: "sum.mjs",
    edited: `// Fixed by the answering agent: the loop starts at the first number.
export function sum(numbers) {
  let total = 0;
  for (let i = 0; i < numbers.length; i++) total += numbers[i];
  return total;
}
`,
    finalAnswer:
      "I fixed the loop in sum.mjs: it started at index 1, so it skipped the first number. `node run-tests.mjs` passes now.",
    judgeReport:
      "sum.mjs now loops from index 0 over every number, so sum([1, 2, 3]) is 6, sum([5]) is 5 and sum([]) is 0: every case of run-tests.mjs holds, and the tests pass.",
    testsPass: true,
    qualityReport:
      "The fix changes only the loop's start index in sum.mjs, which was the bug; run-tests.mjs still checks its three original cases. A clean, minimal fix.",
    quality: 5,
  },
  {
    id: "fix-median",
    project: "median-project",
    file: "median.mjs",
    edited: `// Fixed by the answering agent: sort numerically.
export function median(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
`,
    finalAnswer:
      "I fixed median.mjs: it sorted the numbers as text, so 10 came before 9. It sorts them numerically now, so `node run-tests.mjs` passes.",
    judgeReport:
      "median.mjs now sorts numerically, but for an even count it still returns one middle value: median([4, 1, 3, 2]) is 3, and run-tests.mjs expects 2.5. The tests still fail.",
    testsPass: false,
    qualityReport:
      "The numeric sort fixes one of the two bugs, but the even-count case still returns one middle value instead of the mean of the two; run-tests.mjs is untouched and still fails on [4, 1, 3, 2].",
    quality: 2,
  },
];

const question = (task: Task) => `Fix the bug in ${task.file} so that \`node run-tests.mjs\` passes.`;

function buildBenchmark(): Benchmark {
  const benchmark = Benchmark.create({
    name: "Agentic example: fix the bug",
    description:
      "Two small JavaScript projects with a bug each. An agent edits the files in a copy of the project; an agentic judge reads what it left to say whether the tests pass, and an agentic trait rates the fix.",
  });
  for (const task of TASKS) {
    benchmark.addQuestion(question(task), "node run-tests.mjs passes", {
      questionId: task.id,
      answerTemplate: TEMPLATE,
      workspacePath: task.project,
      keywords: ["agentic"],
    });
  }
  benchmark.setGlobalRubric([FIX_QUALITY]);
  return benchmark;
}

/** Whether `node run-tests.mjs` passes in a copy of the task's project with the agent's edit applied. */
async function testsPassAfterEdit(task: Task): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), "karenina-agentic-check-"));
  try {
    await cp(join(AGENTIC_DEMO_WORKSPACES, task.project), dir, { recursive: true });
    await writeFile(join(dir, task.file), task.edited);
    execFileSync(process.execPath, ["run-tests.mjs"], { cwd: dir, stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type Json = Record<string, unknown>;
type Reply = { text: string } | { tool: string; arguments: Json };

interface ChatMessage {
  role?: string;
  content?: unknown;
}

const messagesOf = (body: Json) => (Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : []);
const textOf = (message: ChatMessage | undefined) =>
  typeof message?.content === "string" ? message.content : "";

/** The task a request is about: its question, or (for an extraction call) the report it quotes. */
function taskOf(body: Json): Task {
  const text = messagesOf(body).map(textOf).join("\n");
  const mentions = (task: Task) => [question(task), task.judgeReport, task.qualityReport];
  const task = TASKS.find((candidate) => mentions(candidate).some((part) => text.includes(part)));
  if (task === undefined) throw new Error(`no hand-written task for the request: ${text.slice(0, 200)}`);
  return task;
}

/** The hand-written reply to one request: by model, by kind of call (system prompt, schema), by turn. */
function scriptedReply(body: Json): Reply {
  const task = taskOf(body);
  const turn = messagesOf(body).filter((message) => message.role === "tool").length;
  const system = textOf(messagesOf(body)[0]);
  const schema = JSON.stringify(body.response_format ?? null);
  const steps = (...replies: Reply[]) => {
    const reply = replies[turn];
    if (reply === undefined) throw new Error(`no hand-written turn ${turn} for ${task.id}`);
    return reply;
  };
  if (body.model === "handwritten-agent") {
    return steps(
      { tool: "list_files", arguments: {} },
      { tool: "read_file", arguments: { path: task.file } },
      { tool: "write_file", arguments: { path: task.file, content: task.edited } },
      { text: task.finalAnswer },
    );
  }
  if (schema.includes('"tests_pass"')) return { text: JSON.stringify({ tests_pass: task.testsPass }) };
  if (schema.includes('"score"')) return { text: JSON.stringify({ score: task.quality }) };
  if (system.startsWith("You are a verification agent")) {
    return steps({ tool: "read_file", arguments: { path: task.file } }, { text: task.judgeReport });
  }
  if (system.startsWith("You are an evaluation agent")) {
    return steps(
      { tool: "read_file", arguments: { path: task.file } },
      { tool: "read_file", arguments: { path: "run-tests.mjs" } },
      { text: task.qualityReport },
    );
  }
  throw new Error(`no hand-written reply for this ${String(body.model)} request: ${system.slice(0, 120)}`);
}

function chatCompletion(body: Json, reply: Reply): Json {
  const message =
    "text" in reply
      ? { role: "assistant", content: reply.text }
      : {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `call_${reply.tool}`,
              type: "function",
              function: { name: reply.tool, arguments: JSON.stringify(reply.arguments) },
            },
          ],
        };
  return {
    id: "chatcmpl-handwritten-agentic-example",
    object: "chat.completion",
    created: 0,
    model: body.model,
    system_fingerprint: "hand-written-example-data",
    choices: [{ index: 0, message, finish_reason: "text" in reply ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

for (const task of TASKS) {
  if ((await testsPassAfterEdit(task)) !== task.testsPass) {
    throw new Error(
      `${task.id}: the hand-written judge says tests_pass ${task.testsPass}, run-tests.mjs disagrees`,
    );
  }
}

const server = await startScriptedHttp(({ path, body }) => {
  if (!path.endsWith("/chat/completions")) return undefined;
  try {
    return { status: 200, payload: chatCompletion(body, scriptedReply(body)) };
  } catch (error) {
    return { status: 500, payload: { error: { message: (error as Error).message } } };
  }
});

try {
  const benchmark = buildBenchmark();
  await benchmark.save(AGENTIC_DEMO_CHECKPOINT);
  const atServer = (models: VerificationModels) =>
    models.map((model) => ({ ...model, endpoint_base_url: `${server.url}/v1` }));
  const config = parseVerificationConfig({
    ...AGENTIC_DEMO_OFFLINE_CONFIG,
    answering_models: atServer(AGENTIC_DEMO_OFFLINE_CONFIG.answering_models ?? []),
    parsing_models: atServer(AGENTIC_DEMO_OFFLINE_CONFIG.parsing_models ?? []),
  });
  await rm(AGENTIC_DEMO_RECORDINGS, { recursive: true, force: true });
  const run = await withDemoWorkspaces(async (workspaceRoot) =>
    (await Benchmark.load(AGENTIC_DEMO_CHECKPOINT)).runVerification(config, {
      workspaceRoot,
      recording: { dir: AGENTIC_DEMO_RECORDINGS, mode: "record" },
    }),
  );
  for (const failure of run.failures) throw failure.error;
  for (const result of run.results) {
    const { question_id: id, failure, warnings } = result.metadata;
    const task = TASKS.find((candidate) => candidate.id === id) as Task;
    if (failure !== null && failure.category !== "content") throw new Error(`${id}: ${failure.reason}`);
    if (warnings.length > 0) throw new Error(`${id}: ${warnings[0]}`);
    if (result.template?.verify_result !== task.testsPass) throw new Error(`${id}: unexpected verdict`);
    if (result.rubric?.agentic_trait_scores?.fix_quality !== task.quality) throw new Error(`${id}: no score`);
  }
  await writeFile(
    join(AGENTIC_DEMO_RECORDINGS, "README.md"),
    [
      "# The recorded agent runs of the agentic example",
      "",
      "Every turn in this folder was **written by hand** for `karenina demo --agentic`: the runs of",
      "`handwritten-agent` (it lists, reads and rewrites a file of each project) and of `handwritten-judge` (the",
      "agentic judge and the agentic trait `fix_quality`, which read what the agent left, and their extraction",
      "calls). None of them is the output of a language model. The tool calls ran for real when they were",
      "recorded, so the tool results in these files are what the tools returned; `<workspace>` stands for the",
      "working copy's directory.",
      "",
      "`karenina demo --agentic` replays them offline, keyed by the exact request. After changing a question, the",
      "template, the trait, a prompt or a tool, rebuild and re-record with `npm run example:agentic`",
      "(`record-agentic.ts`).",
      "",
    ].join("\n"),
  );
  console.log(
    `recorded ${run.summary.calls} model calls for ${run.results.length} results in ${AGENTIC_DEMO_RECORDINGS}`,
  );
} finally {
  await server.close();
}

type VerificationModels = NonNullable<typeof AGENTIC_DEMO_OFFLINE_CONFIG.answering_models>;
