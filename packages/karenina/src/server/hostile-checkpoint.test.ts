/**
 * A hostile checkpoint uploaded through the API is contained (issue 15, point 7). The real `karenina serve`
 * process runs with a secret in its environment; a client saves (PUT) a benchmark whose templates try to read a
 * file outside, read the environment, open a socket and spin forever (Python and JavaScript), and whose regex
 * trait backtracks catastrophically, then verifies it against the scripted LLM server (hand-written replies)
 * while another benchmark's job runs beside it. Each attack ends as a failed row with the sandbox's reason; the
 * secret and the file never show in a result, an export or an event; the other job and the server are unharmed.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { trait } from "../rubrics/index.js";
import {
  CATASTROPHIC_PATTERN,
  CATASTROPHIC_TEXT,
  JAVASCRIPT_SPINNING,
  javascriptReadingHost,
  PYTHON_ACCEPTING,
  PYTHON_READING_ENVIRONMENT,
  PYTHON_SPINNING,
  pythonOpeningSocket,
  pythonReadingFile,
} from "../test-support/escaping-templates.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { type ServeProcess, startServeProcess } from "./__fixtures__/serve-process.js";
import {
  apiClient,
  drugCheckpoint,
  drugConfig,
  drugReplies,
  json,
  scriptedConfig,
} from "./__fixtures__/verification-jobs.js";

const SECRET = `server-secret-${randomBytes(12).toString("hex")}`;
const FILE_CONTENT = `outside-file-${randomBytes(12).toString("hex")}`;
const HONEST_QUESTIONS = 6;
const HOSTILE_QUESTIONS = 6;

let dir: string;
let outsideFile: string;
let llm: OpenAiTestServer;
let listener: Server;
let listenerPort: number;
let connections = 0;
let serving: ServeProcess;
let api: ReturnType<typeof apiClient>;

/** The hostile benchmark: one question per attack, each with the keyword naming it. */
function hostileCheckpoint(): Record<string, unknown> {
  const bench = Benchmark.create({ name: "hostile-upload" });
  const add = (keyword: string, answerTemplate: string) =>
    bench.addQuestion(`Attack ${keyword}?`, "anything", {
      questionId: keyword,
      answerTemplate,
      finished: true,
      keywords: [keyword],
    });
  add("py-file", pythonReadingFile(outsideFile));
  add("py-env", PYTHON_READING_ENVIRONMENT);
  add("py-socket", pythonOpeningSocket(listenerPort));
  add("py-spin", PYTHON_SPINNING);
  add("js-host", PYTHON_ACCEPTING);
  add("regex", PYTHON_ACCEPTING);
  bench.addQuestionRubricTrait("regex", trait.regex({ name: "nested", pattern: CATASTROPHIC_PATTERN }));
  const checkpoint = JSON.parse(bench.serialize());
  return withJavaScriptTemplate(checkpoint, "js-host", javascriptReadingHost(outsideFile));
}

/** The checkpoint with question `id`'s template replaced by JavaScript `code`, as a client would send it. */
function withJavaScriptTemplate(checkpoint: Record<string, unknown>, id: string, code: string) {
  const elements = checkpoint.dataFeedElement as {
    "@id": string;
    item: { hasPart: Record<string, unknown> };
  }[];
  const element = elements.find((e) => e["@id"] === id);
  if (element === undefined) throw new Error(`no question ${id}`);
  element.item.hasPart.programmingLanguage = "JavaScript";
  element.item.hasPart.text = code;
  return checkpoint;
}

/** The hostile job's config: models `h-answerer` and `h-judge` of the scripted server, rubrics evaluated. */
const hostileConfig = (baseURL: string) =>
  scriptedConfig(
    baseURL,
    { answerer: "h-answerer", judge: "h-judge" },
    { evaluation_mode: "template_and_rubric" },
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-serve-hostile-"));
  const outside = await mkdtemp(join(tmpdir(), "karenina-outside-"));
  outsideFile = join(outside, "secret.txt");
  await writeFile(outsideFile, FILE_CONTENT);
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  listenerPort = (listener.address() as { port: number }).port;
  llm = await startOpenAiServer([
    {
      match: { model: "h-answerer", lastUserIncludes: "Attack regex?" },
      reply: { text: CATASTROPHIC_TEXT },
      repeat: true,
    },
    { match: { model: "h-answerer" }, reply: { text: "a" }, repeat: true },
    { match: { model: "h-judge" }, reply: { json: { x: "a" } }, repeat: true },
    ...drugReplies(150),
  ]);
  serving = await startServeProcess(["--db", join(dir, "karenina.db"), "--dir", dir], {
    KARENINA_HOSTILE_SECRET: SECRET,
    KARENINA_ASYNC_MAX_WORKERS: "2",
  });
  api = apiClient(serving.url, serving.token);
}, 60_000);

afterAll(async () => {
  await serving?.stop();
  await llm?.close();
  await new Promise((resolve) => listener?.close(resolve));
  await rm(dir, { recursive: true, force: true });
  await rm(join(outsideFile, ".."), { recursive: true, force: true });
});

/** Every text the server can give out about a job: its rows, both exports, its events, its progress. */
async function everythingAbout(jobId: string): Promise<string> {
  const texts = await Promise.all(
    [
      `/api/v2/verifications/${jobId}/results?fields=full&limit=500`,
      `/api/v2/verifications/${jobId}/export?fmt=json`,
      `/api/v2/verifications/${jobId}/export?fmt=csv`,
      `/api/v2/verifications/${jobId}/events?after=0`,
      `/api/v2/verifications/${jobId}/progress`,
      "/api/v2/verifications",
      "/api/v2/verification-results?fields=full&page_size=100",
    ].map(async (path) => {
      const res = await api.get(path);
      expect(res.status, path).toBe(200);
      return res.text();
    }),
  );
  return texts.join("\n");
}

interface ResultRow {
  metadata: { question_id: string; failure: { category: string; stage: string } | null };
  template: { verify_result: boolean | null; field_verification_error: string | null } | null;
  rubric: { rubric_evaluation_performed: boolean; regex_trait_scores: Record<string, unknown> | null } | null;
}

/** Saves a checkpoint under `name` through the API, as the web app's save does. */
async function putBenchmark(name: string, checkpoint: Record<string, unknown>): Promise<Response> {
  return fetch(`${serving.url}/api/v2/benchmarks/${name}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${serving.token}`, "content-type": "application/json" },
    body: JSON.stringify({ checkpoint }),
  });
}

describe("a hostile checkpoint uploaded through the API", () => {
  test("every attack ends as a failed row with the sandbox's reason; nothing leaks; the job beside it is unharmed", async () => {
    const put = await putBenchmark("hostile-upload", hostileCheckpoint());
    expect(put.status).toBe(200);
    expect(await json(put)).toMatchObject({ name: "hostile-upload", question_count: HOSTILE_QUESTIONS });

    const [hostileStart, honestStart] = await Promise.all([
      api.post("/api/v2/verifications", {
        config: hostileConfig(llm.baseURL),
        benchmark_name: "hostile-upload",
        run_name: "hostile",
      }),
      api.post("/api/v2/verifications", {
        config: drugConfig(llm.baseURL),
        checkpoint: drugCheckpoint(HONEST_QUESTIONS, "honest-beside"),
        run_name: "honest",
      }),
    ]);
    expect([hostileStart.status, honestStart.status]).toEqual([202, 202]);
    const hostileId = (await json(hostileStart)).job_id as string;
    const honestId = (await json(honestStart)).job_id as string;

    const hostile = await api.waitForStatus(hostileId, "completed", 6000);
    expect(hostile).toMatchObject({ processed: HOSTILE_QUESTIONS, total: HOSTILE_QUESTIONS, failed: 5 });
    const honest = await api.waitForStatus(honestId, "completed", 6000);
    expect(honest).toMatchObject({ processed: HONEST_QUESTIONS, successful: HONEST_QUESTIONS, failed: 0 });
    const honestRows = await json(await api.get(`/api/v2/verifications/${honestId}/results?fields=summary`));
    expect(honestRows.items.filter((row: { passed: boolean }) => row.passed)).toHaveLength(HONEST_QUESTIONS);

    const rows: ResultRow[] = (
      await json(await api.get(`/api/v2/verifications/${hostileId}/results?limit=500`))
    ).items;
    const row = (id: string) => rows.find((r) => r.metadata.question_id === id) as ResultRow;
    expect(rows).toHaveLength(HOSTILE_QUESTIONS);
    const reasons = Object.fromEntries(
      ["py-file", "py-socket", "py-spin", "js-host"].map((id) => [
        id,
        row(id).template?.field_verification_error,
      ]),
    );
    expect(reasons).toEqual({
      "py-file": `Field verification failed: [Errno 44] No such file or directory: '${outsideFile}'`,
      "py-socket": "Field verification failed: import of 'socket' is blocked in the sandbox",
      "py-spin": "Template timed out after 1000 ms",
      "js-host": "Field verification failed: Error: LEAK:no process | no require | no fetch",
    });
    // The sandbox's own made-up environment, not the server's.
    expect(row("py-env").template?.field_verification_error).toMatch(
      /^Field verification failed: LEAK:\{'USER': 'web_user', .*'HOME': '\/home\/pyodide'/,
    );
    for (const id of ["py-file", "py-env", "py-socket", "py-spin", "js-host"]) {
      expect(row(id).metadata.failure, id).toMatchObject({ category: "content", stage: "verify_template" });
      expect(row(id).template?.verify_result, id).toBe(false);
    }
    // The regex trait was stopped at its deadline: no score, and the answer's verdict stands.
    expect(row("regex").metadata.failure).toBeNull();
    expect(row("regex").template?.verify_result).toBe(true);
    expect(row("regex").rubric).toMatchObject({
      rubric_evaluation_performed: true,
      regex_trait_scores: null,
    });

    const everything = await everythingAbout(hostileId);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain("KARENINA_HOSTILE_SECRET");
    expect(everything).not.toContain(FILE_CONTENT);
    expect(connections).toBe(0);
    expect((await api.get("/api/health")).status).toBe(200);
  }, 180_000);

  test("a JavaScript template that spins forever fails its row at the template stage, with the reason", async () => {
    const bench = Benchmark.create({ name: "hostile-js-spin" });
    bench.addQuestion("Attack js-spin?", "anything", {
      questionId: "js-spin",
      answerTemplate: PYTHON_ACCEPTING,
      finished: true,
    });
    const checkpoint = withJavaScriptTemplate(JSON.parse(bench.serialize()), "js-spin", JAVASCRIPT_SPINNING);
    expect((await putBenchmark("hostile-js-spin", checkpoint)).status).toBe(200);
    const started = await api.post("/api/v2/verifications", {
      config: hostileConfig(llm.baseURL),
      benchmark_name: "hostile-js-spin",
    });
    expect(started.status).toBe(202);
    const jobId = (await json(started)).job_id as string;
    const done = await api.waitForStatus(jobId, "completed", 3000);
    expect(done).toMatchObject({ processed: 1, total: 1, failed: 1 });
    const [row] = (await json(await api.get(`/api/v2/verifications/${jobId}/results`))).items;
    expect(row.metadata.failure).toMatchObject({
      category: "template_validation",
      stage: "validate_template",
    });
    expect(row.metadata.failure.reason).toBe(
      "Template validation failed: Invalid template: running the template's functions on a dummy answer " +
        "failed: the sandboxed code ran longer than its limit of 1000 ms and was stopped",
    );
    expect((await api.get("/api/health")).status).toBe(200);
  }, 60_000);
});
