/**
 * What running agent commands in a container costs (issue 20), for each command backend present here.
 *
 *   npm run bench:agent-container                       # N=50 commands per runner; 20 tasks at W=1,4, 3 repeats
 *   npm run bench:agent-container -- --n 200 --tasks 20 --workers 4 --repeats 5 --latency 50
 *
 * 1. Start-up cost per command. The bubblewrap backend makes a fresh container for every `run_command` (there
 *    is no container per task to start: a task's cost is its commands'), so a trivial command (`true`, and
 *    `node -e 0`: node is visible inside, from the host's read-only /usr) is run N times, after 3 unmeasured
 *    runs, through each runner's `run` as `run_command` calls it: the host runner (`hostCommandRunner`),
 *    `bwrap` alone (`bubblewrapArgs`, without prlimit's limits or the pids cgroup: what the container itself
 *    costs) and the bubblewrap runner (`bubblewrapRunner()`, default limits; as root it also makes and removes a
 *    pids cgroup per command). Printed: median, p90 and mean wall ms per command, and CPU ms per command of this
 *    process and of the processes it started (the command, bwrap, prlimit, sh). That CPU comes from a cgroup v1
 *    cpuacct group holding this process, less its own CPU (bench/agent-container-cpu.ts: the reaped children's
 *    CPU misses every command in bwrap's PID namespace); without one, as reaped. The first
 *    `bubblewrapRunner()` of a process checks once that bwrap works here (a container running `prlimit
 *    --version`): its time is printed too. Podman (`--podman own`, the default): the bench starts its own engine
 *    as the tests do (packages/karenina/src/test-support/podman-engine.ts: `podman system service` on a socket
 *    in a temporary directory, runc, its own storage, an image imported from busybox and this node) and measures
 *    both commands through the library's runner as runtime `podman` (CONTAINER_HOST) and as runtime `docker`
 *    (DOCKER_HOST: Podman answering the Docker API); `--podman none` skips it. Docker (and Podman with
 *    `--podman none`): whether a daemon answers, and what the library says when a model asks for it with
 *    `--image` (default debian:bookworm-slim; the library pulls a missing image); when it gives a runner,
 *    `true` is measured through it (the image may have no node).
 * 2. A 20-task agentic run with and without the container. 20 copies of the sum-project fix task (the
 *    off-by-one in sum.js), each in its own working copy, answered by a tool-loop agent against a scripted
 *    OpenAI-compatible server in this process (hand-written replies, not the output of any model; each after
 *    L ms): `run_command ls`, `run_command node sum.test.js` (fails), `write_file sum.js`, `run_command node
 *    sum.test.js` (passes), then its answer; the judge reports `tests_pass`. So 3 commands and 5 answering
 *    turns per task. The run goes through the library (`Benchmark.runVerification`, commands allowed) in a
 *    fresh process per run (bench/agent-container-child.ts, through tsx), with `agent_runtime` {backend:
 *    local_shell} (host), {backend: container, container_runtime: bubblewrap} or, with the own Podman engine,
 *    {container_runtime: podman, container_image: its image}, and agentic parsing on (without
 *    it the answering model gets no workspace, hence no tools; the judge is then an agent too: one turn, no
 *    tool call, then its extraction call). Measured in that process around the run alone (start-up and module
 *    loading excluded): wall time, its own CPU, and the CPU of the processes it started (its cpuacct group's
 *    less its own, as above). Each run is checked: every task passes, no failure, every agent saw
 *    "all tests pass" from its last command, and the tool's description names the backend. The median of
 *    R repeats is printed, backends alternating.
 * Figures only, no targets; the machine's cores are shared with the scripted server and whatever else runs.
 */
import { execFile, spawn } from "node:child_process";
import { accessSync, constants, readFileSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import {
  FINAL_ANSWER,
  FIXED_SUM,
  SUM_PROJECT,
} from "../packages/karenina/src/agentic/__fixtures__/sum-project.js";
import {
  AgentRuntimeConfigSchema,
  bubblewrapArgs,
  bubblewrapRunner,
  type CommandRunLimits,
  type CommandRunner,
  commandRunnerFor,
  DEFAULT_TOOL_LIMITS,
  hostCommandRunner,
  type RunCommandOutput,
  runProcess,
} from "../packages/karenina/src/index.js";
import {
  type ScriptRule,
  startOpenAiServer,
} from "../packages/karenina/src/test-support/openai-server/index.js";
import { type PodmanEngine, startPodmanEngine } from "../packages/karenina/src/test-support/podman-engine.js";
import {
  type CpuGroup,
  createCpuGroup,
  currentCpuGroup,
  ownCpuMs,
  reapedChildrenCpuMs,
  returnToOwnGroup,
} from "./agent-container-cpu.js";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "50" },
    tasks: { type: "string", default: "20" },
    workers: { type: "string", default: "1,4" },
    repeats: { type: "string", default: "3" },
    latency: { type: "string", default: "0" },
    image: { type: "string", default: "debian:bookworm-slim" },
    podman: { type: "string", default: "own" },
  },
});
const N = Number(values.n);
const TASKS = Number(values.tasks);
const WORKERS = values.workers.split(",").map(Number);
const REPEATS = Number(values.repeats);
const LATENCY = Number(values.latency);
const CHILD = fileURLToPath(new URL("./agent-container-child.ts", import.meta.url));
const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";
const LIMITS: CommandRunLimits = {
  commandOutputBytes: DEFAULT_TOOL_LIMITS.commandOutputBytes,
  commandTimeoutMs: DEFAULT_TOOL_LIMITS.commandTimeoutMs,
};
const COMMANDS: string[][] = [["true"], ["node", "-e", "0"]];
const COMMANDS_PER_TASK = 3;
const TURNS_PER_TASK = 5;
const run = promisify(execFile);

const f = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // Not here.
    }
  }
  return null;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}
const median = (xs: number[]) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join(" │ ");
  console.log(line(header));
  console.log(widths.map((w) => "─".repeat(w)).join("─┼─"));
  for (const r of rows) console.log(line(r));
}

// ── 1. Start-up cost per command ────────────────────────────────────────────────────────────────────────

interface Runner {
  label: string;
  /** The commands measured through it (an engine's image may have no node). */
  commands: string[][];
  run: (workspace: string, argv: string[]) => Promise<RunCommandOutput>;
}

const throughRunner = (label: string, runner: CommandRunner, commands = COMMANDS): Runner => ({
  label,
  commands,
  run: (workspace, [command, ...args]) => runner.run(workspace, { command: command as string, args }, LIMITS),
});

/** bwrap with the backend's own container arguments, without prlimit or a pids cgroup. */
const bwrapAlone = (bwrap: string): Runner => ({
  label: "bwrap alone (no limits)",
  commands: COMMANDS,
  run: (workspace, argv) =>
    runProcess(
      {
        file: bwrap,
        args: [...bubblewrapArgs(workspace, false), "--", ...argv],
        cwd: workspace,
        env: { PATH: SANDBOX_PATH },
        shownAs: argv.join(" "),
      },
      LIMITS,
    ),
});

interface StartUp {
  runner: string;
  command: string;
  times: number[];
  ownCpuMs: number;
  /** CPU of the processes started (command, bwrap, prlimit, sh): from the cpuacct group, else as reaped. */
  commandCpuMs: number;
}

async function measureStartUp(
  runner: Runner,
  workspace: string,
  argv: string[],
  group: CpuGroup | null,
): Promise<StartUp> {
  const once = async () => {
    const output = await runner.run(workspace, argv);
    if (output.exit_code !== 0)
      throw new Error(`${runner.label}: ${argv.join(" ")} exited ${output.exit_code}: ${output.stderr}`);
  };
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  const own = ownCpuMs();
  const children = reapedChildrenCpuMs();
  const grouped = group?.cpuMs() ?? 0;
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return {
    runner: runner.label,
    command: argv.join(" "),
    times,
    ownCpuMs: (ownCpuMs() - own) / N,
    commandCpuMs:
      (group === null ? reapedChildrenCpuMs() - children : group.cpuMs() - grouped - (ownCpuMs() - own)) / N,
  };
}

/** Whether a Docker (or Podman) daemon answers, in a sentence. */
async function engineStatus(program: string): Promise<{ answers: boolean; text: string }> {
  const path = onPath(program);
  if (path === null) return { answers: false, text: `${program}: not on PATH` };
  try {
    const { stdout } = await run(path, ["version", "--format", "{{.Server.Version}}"], { timeout: 5_000 });
    return { answers: true, text: `${program}: ${path}, server ${stdout.trim()} answers` };
  } catch (error) {
    const detail = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split("\n")[0];
    return { answers: false, text: `${program}: ${path} present, but no daemon answers (${detail})` };
  }
}

/** The library's runner when a model asks for `runtime`, or its error. */
async function libraryAnswer(runtime: Record<string, unknown>): Promise<CommandRunner | string> {
  try {
    return await commandRunnerFor(AgentRuntimeConfigSchema.parse(runtime));
  } catch (error) {
    return (error as Error).message;
  }
}

const CPU_SOURCE = (group: CpuGroup | null) =>
  group === null
    ? "CPU of started processes: as reaped (cutime), no cpuacct cgroup here: a command in bwrap's PID namespace is NOT counted"
    : "CPU of started processes: a cgroup v1 cpuacct group holding the measuring process (minus its own CPU)";

/** The runners whose commands run in an engine's containers (see the note on CPU). */
const ENGINE_RUNNERS = /^(podman|docker) runner/;

/** Runs `work` with CONTAINER_HOST and DOCKER_HOST at the own Podman engine, then puts them back. */
async function withEngineEnv<T>(engine: PodmanEngine, work: () => Promise<T>): Promise<T> {
  const saved = { CONTAINER_HOST: process.env.CONTAINER_HOST, DOCKER_HOST: process.env.DOCKER_HOST };
  process.env.CONTAINER_HOST = `unix://${engine.socketPath}`;
  process.env.DOCKER_HOST = `unix://${engine.socketPath}`;
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The bench's own Podman engine (`--podman own`, the default), or null with the reason printed. */
async function ownPodman(): Promise<PodmanEngine | null> {
  if (values.podman !== "own") return null;
  const started = performance.now();
  try {
    const engine = await startPodmanEngine();
    console.log(
      `   own Podman engine (test-support/podman-engine.ts: podman system service, runc, its own storage, the ` +
        `image imported from busybox + this node): started in ${f(performance.now() - started, 0)} ms`,
    );
    return engine;
  } catch (error) {
    console.log(`   own Podman engine: not started (${(error as Error).message}) → podman not measured`);
    return null;
  }
}

async function startUpSection(podman: PodmanEngine | null): Promise<Map<string, StartUp>> {
  console.log(`\n1. Start-up cost per command (N=${N} per runner and command, after 3 unmeasured runs)`);
  const runners: Runner[] = [throughRunner("host", hostCommandRunner)];
  if (podman !== null) {
    for (const engine of ["podman", "docker"] as const) {
      const started = performance.now();
      // The library finds the engine as its own client would: CONTAINER_HOST (podman), DOCKER_HOST (docker);
      // a runner keeps the engine it reached when made.
      const library = await withEngineEnv(podman, () =>
        libraryAnswer({ backend: "container", container_runtime: engine, container_image: podman.image }),
      );
      if (typeof library === "string") throw new Error(`the own Podman engine, as ${engine}: ${library}`);
      const label = engine === "podman" ? "podman runner" : "docker runner (Podman's Docker API)";
      console.log(
        `   ${label}: own engine, image ${podman.image}; commandRunnerFor() (reaches the engine, checks the ` +
          `image): ${f(performance.now() - started)} ms`,
      );
      runners.push(throughRunner(label, library));
    }
  }
  for (const engine of podman === null ? ["docker", "podman"] : ["docker"]) {
    const status = await engineStatus(engine);
    const image = values.image;
    const library = await libraryAnswer({
      backend: "container",
      container_runtime: engine,
      container_image: image,
    });
    const measured = typeof library !== "string";
    console.log(
      `   ${status.text}; the library, asked for it with image ${image}: ` +
        `${measured ? "a runner → measured with `true` only" : `${library} → not measured`}`,
    );
    if (measured) runners.push(throughRunner(`${engine} runner (${image})`, library, [["true"]]));
  }
  const bwrap = onPath("bwrap");
  if (bwrap === null) console.log("   bwrap: not on PATH → bubblewrap not measured");
  else {
    const version = (await run(bwrap, ["--version"])).stdout.trim();
    const started = performance.now();
    const runner = await bubblewrapRunner();
    const probeMs = performance.now() - started;
    console.log(
      `   ${version} at ${bwrap}; running as uid ${process.getuid?.()}` +
        `${process.getuid?.() === 0 ? " (root: the process limit is a pids cgroup per command)" : ""}; ` +
        `first bubblewrapRunner() of the process (checks bwrap once): ${f(probeMs)} ms`,
    );
    runners.push(bwrapAlone(bwrap), throughRunner("bubblewrap runner", runner));
  }
  const workspace = await mkdtemp(join(tmpdir(), "karenina-bench-container-"));
  const measured = new Map<string, StartUp>();
  const original = currentCpuGroup();
  const group = await createCpuGroup();
  console.log(`   ${CPU_SOURCE(group)}`);
  try {
    await group?.add(process.pid);
    for (const argv of COMMANDS)
      for (const runner of runners.filter((r) => r.commands.includes(argv))) {
        const m = await measureStartUp(runner, workspace, argv, group);
        measured.set(`${m.runner}|${m.command}`, m);
      }
  } finally {
    if (group !== null && original !== null) {
      await returnToOwnGroup(process.pid, original);
      await group.remove();
    }
    await rm(workspace, { recursive: true, force: true });
  }
  const rows = [...measured.values()].map((m) => {
    const sorted = [...m.times].sort((a, b) => a - b);
    const host = measured.get(`host|${m.command}`);
    const extra = host === undefined ? Number.NaN : quantile(sorted, 0.5) - median(host.times);
    return [
      m.command,
      m.runner,
      f(quantile(sorted, 0.5), 2),
      f(quantile(sorted, 0.9), 2),
      f(m.times.reduce((a, b) => a + b, 0) / m.times.length, 2),
      f(extra, 2),
      f(m.ownCpuMs, 2),
      // An engine's containers are not this process's children: their CPU is not in its group.
      ENGINE_RUNNERS.test(m.runner) ? "n/a (engine)" : f(m.commandCpuMs, 2),
    ];
  });
  printTable(
    [
      "command",
      "runner",
      "median ms",
      "p90 ms",
      "mean ms",
      "+ms vs host (median)",
      "own CPU ms/cmd",
      "started CPU ms/cmd",
    ],
    rows,
  );
  return measured;
}

// ── 2. A 20-task agentic run with and without the container ─────────────────────────────────────────────

const BACKENDS = ["host", "bubblewrap", "podman"] as const;
type Backend = (typeof BACKENDS)[number];
const RUNTIMES: Record<Backend, string> = {
  host: '{"backend":"local_shell"}',
  bubblewrap: '{"backend":"container","container_runtime":"bubblewrap"}',
  podman: '{"backend":"container","container_runtime":"podman","container_image":IMAGE}',
};
const DESCRIBED: Record<Backend, string> = {
  host: "runs on the host",
  bubblewrap: "bubblewrap container",
  podman: "Podman container",
};

/** The same marker as bench/agent-container-child.ts puts in each question. */
const taskMarker = (i: number) => `[task-${String(i).padStart(2, "0")}]`;

const JUDGE_REPORT = 'The agent ran sum.test.js after its fix and it passed.\n{"tests_pass": true}';

// Hand-written benchmark replies, not output of any model.
function script(tasks: number, delayMs: number): ScriptRule[] {
  const rules: ScriptRule[] = [];
  for (let i = 1; i <= tasks; i++) {
    const match = { model: "answerer", lastUserIncludes: taskMarker(i) };
    const command = (name: string, ...args: string[]): ScriptRule => ({
      match,
      reply: { toolCalls: [{ name: "run_command", arguments: { command: name, args } }], delayMs },
    });
    rules.push(
      command("ls"),
      command("node", "sum.test.js"),
      {
        match,
        reply: {
          toolCalls: [{ name: "write_file", arguments: { path: "sum.js", content: FIXED_SUM } }],
          delayMs,
        },
      },
      command("node", "sum.test.js"),
      { match, reply: { text: FINAL_ANSWER, delayMs } },
    );
  }
  rules.push(
    // The agentic judge's extraction call, then its one investigation turn (it reads nothing).
    {
      match: { model: "judge", lastUserIncludes: "Investigation report:" },
      reply: { json: { tests_pass: true }, delayMs },
      repeat: true,
    },
    { match: { model: "judge" }, reply: { text: JUDGE_REPORT, delayMs }, repeat: true },
  );
  return rules;
}

/** What the last command returned to each agent (its last turn) that did not see its test pass, for the error. */
function lastToolOutputs(bodies: string[]): string {
  const shown: string[] = [];
  for (let i = 1; i <= TASKS; i++) {
    const turns = bodies
      .filter((body) => body.includes(taskMarker(i)))
      .map(
        (body) => (JSON.parse(body) as { messages?: { role: string; content?: unknown }[] }).messages ?? [],
      );
    const last = turns.sort((a, b) => b.length - a.length)[0] ?? [];
    if (JSON.stringify(last).includes("all tests pass")) continue;
    const tool = last.filter((message) => message.role === "tool").at(-1);
    shown.push(`${taskMarker(i)} ${JSON.stringify(tool?.content ?? null).slice(0, 300)}`);
  }
  return shown.slice(0, 3).join(" | ");
}

interface AgenticRun {
  backend: Backend;
  workers: number;
  wallMs: number;
  ownCpuMs: number;
  /** CPU of the processes the run started (commands, containers): its cpuacct group's less its own, else as reaped. */
  commandCpuMs: number;
  argv: string[];
}

async function agenticRun(
  backend: Backend,
  workers: number,
  podman: PodmanEngine | null,
): Promise<AgenticRun> {
  const server = await startOpenAiServer(script(TASKS, LATENCY));
  const root = await mkdtemp(join(tmpdir(), "karenina-bench-agentic-"));
  const group = await createCpuGroup();
  try {
    await cp(SUM_PROJECT, join(root, "sum-project"), { recursive: true });
    const argv = ["--import", "tsx", CHILD, server.baseURL, backend, String(TASKS), String(workers), root];
    const child = spawn(process.execPath, argv, {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        KARENINA_BENCH_CPU_GROUP: group?.dir ?? "",
        ...(backend === "podman" && podman !== null
          ? { CONTAINER_HOST: `unix://${podman.socketPath}`, KARENINA_BENCH_IMAGE: podman.image }
          : {}),
      },
    });
    // In the group long before its run starts (loading the library through tsx takes seconds).
    await group?.add(child.pid as number);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0) throw new Error(`${backend} run exited with ${code}:\n${stderr.slice(-4000)}`);
    const figures = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as {
      wallMs: number;
      ownCpuMs: number;
      childrenCpuMs: number;
      groupCpuMs: number | null;
      tasks: number;
      passed: number;
      failures: string[];
    };
    const answerer = server.requests.filter((request) => request.body.model === "answerer");
    const seen = answerer.map((request) => JSON.stringify(request.body));
    const problems = [
      figures.failures.length > 0 ? `failures: ${figures.failures.join("; ")}` : "",
      figures.passed !== TASKS ? `${figures.passed}/${TASKS} tasks passed` : "",
      answerer.length !== TASKS * TURNS_PER_TASK
        ? `${answerer.length} agent turns, not ${TASKS * TURNS_PER_TASK}`
        : "",
      seen.filter((body) => body.includes("all tests pass")).length !== TASKS
        ? `not every agent saw its fixed test pass: ${lastToolOutputs(seen)}`
        : "",
      seen.every((body) => body.includes(DESCRIBED[backend]))
        ? ""
        : `the run_command description does not say "${DESCRIBED[backend]}"`,
    ].filter((problem) => problem !== "");
    if (problems.length > 0) throw new Error(`${backend} W=${workers}: ${problems.join(" · ")}`);
    return {
      backend,
      workers,
      wallMs: figures.wallMs,
      ownCpuMs: figures.ownCpuMs,
      commandCpuMs:
        backend === "podman"
          ? Number.NaN // the engine's containers are not in the run's group
          : figures.groupCpuMs === null
            ? figures.childrenCpuMs
            : figures.groupCpuMs - figures.ownCpuMs,
      argv: ["node", ...argv],
    };
  } finally {
    await server.close();
    await group?.remove();
    await rm(root, { recursive: true, force: true });
  }
}

async function agenticSection(bubblewrapPresent: boolean, podman: PodmanEngine | null): Promise<void> {
  const backends = BACKENDS.filter(
    (backend) => backend === "host" || (backend === "bubblewrap" ? bubblewrapPresent : podman !== null),
  );
  const commands = TASKS * COMMANDS_PER_TASK;
  console.log(
    `\n2. ${TASKS} sum-project fix tasks, ${COMMANDS_PER_TASK} run_command calls and ${TURNS_PER_TASK} agent turns each ` +
      `(${commands} commands), replies after L=${LATENCY} ms; median of ${REPEATS} runs, backends alternating`,
  );
  console.log(
    "   own CPU: the karenina process (the run alone); started CPU: every process it started (commands, bwrap, " +
      "prlimit, sh), from a cpuacct cgroup holding the process, less its own CPU, where one can be made; else as reaped",
  );
  if (podman !== null)
    console.log(
      "   podman: started CPU leaves out the engine (podman service, conmon, runc) and the containers, which are " +
        "not karenina's children: its wall time is the figure",
    );
  const runs: AgenticRun[] = [];
  for (const workers of WORKERS)
    for (let r = 0; r < REPEATS; r++)
      for (const backend of r % 2 === 0 ? backends : [...backends].reverse())
        runs.push(await agenticRun(backend, workers, podman));
  const rows: string[][] = [];
  const ratios: string[] = [];
  for (const workers of WORKERS) {
    const of = (backend: Backend) => runs.filter((m) => m.backend === backend && m.workers === workers);
    const figures = (backend: Backend) => {
      const mine = of(backend);
      return {
        wall: median(mine.map((m) => m.wallMs)),
        walls: mine.map((m) => m.wallMs),
        own: median(mine.map((m) => m.ownCpuMs)),
        reaped: median(mine.map((m) => m.commandCpuMs)),
        total: median(mine.map((m) => m.ownCpuMs + m.commandCpuMs)),
      };
    };
    for (const backend of backends) {
      const x = figures(backend);
      rows.push([
        backend,
        String(workers),
        f(x.wall / 1000, 3),
        `${f(Math.min(...x.walls) / 1000, 3)}–${f(Math.max(...x.walls) / 1000, 3)}`,
        f(x.wall / TASKS, 1),
        f(x.own, 0),
        f(x.reaped, 0),
        f(x.total, 0),
        f(x.total / TASKS, 1),
        `${TASKS}/${TASKS}`,
      ]);
    }
    for (const backend of backends.filter((b) => b !== "host")) {
      const host = figures("host");
      const box = figures(backend);
      ratios.push(
        `W=${workers}: ${backend} / host: wall ×${f(box.wall / host.wall, 2)} ` +
          `(+${f((box.wall - host.wall) / TASKS, 1)} ms per task, +${f((box.wall - host.wall) / commands, 1)} ms per command), ` +
          `CPU ×${f(box.total / host.total, 2)} (+${f((box.total - host.total) / commands, 1)} ms per command: ` +
          `started processes ${f(box.reaped, 0)} vs ${f(host.reaped, 0)} ms, karenina's own ${f(box.own, 0)} vs ${f(host.own, 0)} ms)`,
      );
    }
  }
  printTable(
    [
      "backend",
      "W",
      "wall s",
      "min–max s",
      "wall ms/task",
      "own CPU ms",
      "started CPU ms",
      "total CPU ms",
      "CPU ms/task",
      "passed",
    ],
    rows,
  );
  console.log("");
  for (const ratio of ratios) console.log(ratio);
  console.log(
    "\nCommand lines of the measured runs (the server's URL and the workspace root change per run):",
  );
  for (const backend of backends) {
    const example = runs.find((m) => m.backend === backend);
    console.log(`  ${backend} (agent_runtime ${RUNTIMES[backend]}): ${example?.argv.join(" ")}`);
  }
}

console.log(
  `karenina agent-container bench: node ${process.version}, ${cpus().length} cores (shared with the scripted server), ` +
    `${process.platform} ${readFileSync("/proc/sys/kernel/osrelease", "utf8").trim()}`,
);
console.log(
  `  npm run bench:agent-container -- --n ${N} --tasks ${TASKS} --workers ${WORKERS.join(",")} --repeats ${REPEATS} --latency ${LATENCY} --podman ${values.podman}`,
);
const podman = await ownPodman();
try {
  const startUps = await startUpSection(podman);
  await agenticSection(
    [...startUps.keys()].some((key) => key.startsWith("bubblewrap runner|")),
    podman,
  );
} finally {
  await podman?.stop();
}
