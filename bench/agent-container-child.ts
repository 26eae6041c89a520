/**
 * One measured agentic run of bench/agent-container.ts, in a fresh process (run through tsx: the library's
 * source, since the container backend may not be built yet). Argv: BASE_URL BACKEND TASKS WORKERS ROOT.
 * BACKEND is `host` (agent_runtime backend local_shell), `bubblewrap` (backend container, runtime
 * bubblewrap) or `podman` (runtime podman, the engine at CONTAINER_HOST, image KARENINA_BENCH_IMAGE). TASKS copies of the sum-project fix task, question `[task-NN] …`, with workspaces under ROOT;
 * the answering agent may run commands; agentic parsing on (the judge an agent too). Prints one JSON line: the
 * run's wall time, this process's CPU, the CPU of the child processes it reaped, the CPU of its cpuacct group
 * (this process and every process it started, the commands in containers included: set by the parent in
 * KARENINA_BENCH_CPU_GROUP) during the run, and the outcome of every task.
 */
import {
  SUM_QUESTION,
  TESTS_PASS_TEMPLATE,
} from "../packages/karenina/src/agentic/__fixtures__/sum-project.js";
import { Benchmark, parseVerificationConfig } from "../packages/karenina/src/index.js";
import { endpointModel, FAST_RETRIES } from "../packages/karenina/src/test-support/pipeline-context.js";
import { groupCpuMs, ownCpuMs, reapedChildrenCpuMs } from "./agent-container-cpu.js";

const [baseURL, backend, tasksArg, workersArg, root] = process.argv.slice(2);
if (baseURL === undefined || backend === undefined || root === undefined)
  throw new Error("usage: agent-container-child.ts BASE_URL BACKEND TASKS WORKERS ROOT");
const TASKS = Number(tasksArg);
const WORKERS = Number(workersArg);
/** The cpuacct group the parent put this process in (bench/agent-container-cpu.ts), if any. */
const GROUP = process.env.KARENINA_BENCH_CPU_GROUP;

const RUNTIMES: Record<string, Record<string, unknown>> = {
  host: { backend: "local_shell" },
  bubblewrap: { backend: "container", container_runtime: "bubblewrap" },
  // The bench's own Podman engine: reached through CONTAINER_HOST, its image in KARENINA_BENCH_IMAGE.
  podman: {
    backend: "container",
    container_runtime: "podman",
    container_image: process.env.KARENINA_BENCH_IMAGE ?? null,
  },
};

/** The marker that lets the scripted server tell the tasks apart (the last user message is the question). */
const taskMarker = (i: number) => `[task-${String(i).padStart(2, "0")}]`;

const runtime = RUNTIMES[backend];
if (runtime === undefined) throw new Error(`unknown backend ${backend}: host, bubblewrap or podman`);

const bench = Benchmark.create({ name: "bench-agent-container" });
for (let i = 1; i <= TASKS; i++)
  bench.addQuestion(`${taskMarker(i)} ${SUM_QUESTION}`, "node sum.test.js passes", {
    questionId: `fix-${String(i).padStart(2, "0")}`,
    answerTemplate: TESTS_PASS_TEMPLATE,
    workspacePath: "sum-project",
  });
const config = parseVerificationConfig({
  answering_models: [{ ...endpointModel(baseURL, "answerer"), agent_runtime: runtime }],
  parsing_models: [endpointModel(baseURL, "judge")],
  retry_policy: FAST_RETRIES,
  // Without it the answering model gets no workspace, so no tools (see the bench's notes).
  agentic_parsing: true,
  async_max_workers: WORKERS,
});
// The pipeline loads at the first run; loaded (and compiled by tsx) here, outside the measured time.
await import("../packages/karenina/src/pipeline/index.js");

const groupCpu = () => (GROUP === undefined || GROUP === "" ? Number.NaN : groupCpuMs(GROUP));
const ownBefore = ownCpuMs();
const childrenBefore = reapedChildrenCpuMs();
const groupBefore = groupCpu();
const started = performance.now();
const run = await bench.runVerification(config, { workspaceRoot: root, agentCommands: true });
const wallMs = performance.now() - started;
const groupCpuDelta = groupCpu() - groupBefore;
const own = ownCpuMs() - ownBefore;
const childrenCpuMs = reapedChildrenCpuMs() - childrenBefore;

const results = run.results;
const failures = [
  ...results.map((result) => result.metadata.failure?.reason),
  ...run.failures.map((failure) => JSON.stringify(failure)),
].filter((reason): reason is string => reason !== undefined);
const passed = results.filter((result) => result.template?.verify_result === true).length;
console.log(
  JSON.stringify({
    wallMs,
    ownCpuMs: own,
    childrenCpuMs,
    groupCpuMs: Number.isNaN(groupCpuDelta) ? null : groupCpuDelta,
    tasks: results.length,
    passed,
    failures,
  }),
);
await bench.close();
