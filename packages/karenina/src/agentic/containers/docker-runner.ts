import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import type Dockerode from "dockerode";
import type { CommandRunLimits, CommandRunner, RunCommandInput, RunCommandOutput } from "../tools/index.js";
import { delay, initExit, streamEnd } from "./container-exit.js";
import { containerIdentity, dockerCreateOptions } from "./docker-create-options.js";
import {
  type ConnectedEngine,
  connectEngine,
  type DockerRuntime,
  describeError,
  ensureImage,
  isStatus,
} from "./docker-daemon.js";
import { ContainerBackendUnavailableError } from "./errors.js";
import { type ContainerLimits, DEFAULT_CONTAINER_LIMITS, limitReached } from "./limits.js";

/** How {@link dockerRunner} runs commands. */
export interface DockerOptions {
  /** The engine: Docker, or Podman through its Docker-compatible API socket. Default `docker`. */
  runtime?: DockerRuntime;
  /** The image every command runs in (`agent_runtime.container_image`); pulled when missing. */
  image: string;
  /** The engine's default bridge network; default false: no network (`none`). */
  network?: boolean;
  /** `name:address` entries added to the container's /etc/hosts. */
  addHosts?: readonly string[];
  /** Memory, CPU time and process count of each command; {@link DEFAULT_CONTAINER_LIMITS} by default. */
  limits?: Partial<ContainerLimits>;
  /** CPUs a command may use at once; default 1. */
  cpus?: number;
}

/** The label every command container carries, to find any left behind: `docker ps -a --filter label=...`. */
export const CONTAINER_LABEL = "org.karenina.run-command";

/**
 * How long the output stream may trail the container's exit. It normally ends at once; the cap only guards
 * against an engine that never closes it, and is generous because on a loaded machine the engine may take
 * seconds to flush the last output (a shorter cap would cut a command's output without any error).
 */
const OUTPUT_GRACE_MS = 10_000;

/** A writable sink that keeps the first `limit` bytes and reads (and drops) the rest. */
function cappedSink(limit: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let cut = false;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const room = limit - kept;
      if (chunk.length > room) cut = true;
      if (room > 0) {
        const part = chunk.subarray(0, room);
        chunks.push(part);
        kept += part.length;
      }
      done();
    },
  });
  return { sink, text: () => Buffer.concat(chunks).toString("utf8"), cut: () => cut };
}

/** The tool result's `exit_code` and `signal` of the init's exit status. */
function exitStatus(status: number): { exit_code: number | null; signal: string | null } {
  const { code, signal } = initExit(status);
  return { exit_code: code, signal };
}

async function killQuietly(container: Dockerode.Container): Promise<void> {
  try {
    await container.kill();
  } catch {
    // Already stopped (409/304) or gone.
  }
}

/** What one command in its own container did. */
interface ContainerRun {
  status: number;
  oomKilled: boolean;
  /** Whether karenina killed it (time limit or abort). */
  killedByUs: boolean;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
}

/**
 * Runs one command in a fresh container: attached before it starts, killed after the time limit or on
 * abort, always removed (with its anonymous volumes) at the end, whatever happened.
 */
async function runInContainer(
  connected: ConnectedEngine,
  options: Dockerode.ContainerCreateOptions,
  limits: CommandRunLimits,
  signal: AbortSignal | undefined,
): Promise<ContainerRun> {
  // The client sends create options in the query string too unless told apart: only the name goes there.
  const name = `karenina-cmd-${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const request = { _query: { name }, _body: options } as Dockerode.ContainerCreateOptions;
  const container = await connected.docker.createContainer(request);
  let timer: NodeJS.Timeout | undefined;
  let killedByUs = false;
  const kill = () => {
    killedByUs = true;
    void killQuietly(container);
  };
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    const stdout = cappedSink(limits.commandOutputBytes);
    const stderr = cappedSink(limits.commandOutputBytes);
    connected.docker.modem.demuxStream(stream, stdout.sink, stderr.sink);
    const outputDone = streamEnd(stream);
    let timedOut = false;
    signal?.addEventListener("abort", kill, { once: true });
    await container.start();
    timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, limits.commandTimeoutMs);
    if (signal?.aborted) kill();
    const waited = (await container.wait()) as { StatusCode?: number };
    clearTimeout(timer);
    await Promise.race([outputDone, delay(OUTPUT_GRACE_MS)]);
    const state = ((await container.inspect()) as { State?: { OOMKilled?: boolean } }).State;
    return {
      status: waited.StatusCode ?? -1,
      oomKilled: state?.OOMKilled === true,
      killedByUs,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut,
      truncated: stdout.cut() || stderr.cut(),
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", kill);
    await container.remove({ force: true, v: true }).catch((error: unknown) => {
      if (!isStatus(error, 404)) throw error;
    });
  }
}

/**
 * A SIGKILL that karenina did not send: the kernel's OOM killer, in all likelihood. Not every engine says so
 * (`OOMKilled` stays false under Podman with runc on cgroup v1), so the note says what is known.
 */
function unexplainedKill(memoryMb: number): { limit: "memory"; note: string } {
  return {
    limit: "memory",
    note:
      `The command was killed (SIGKILL), not by karenina: most likely it ran out of memory (the container ` +
      `allows ${memoryMb} MB).`,
  };
}

/** The output of a finished container run, with the limit that ended it, if any. */
function outputOf(run: ContainerRun, limits: ContainerLimits, timeoutMs: number): RunCommandOutput {
  const output: RunCommandOutput = {
    ...exitStatus(run.status),
    stdout: run.stdout,
    stderr: run.stderr,
    timed_out: run.timedOut,
    output_truncated: run.truncated,
  };
  const memoryMb = Math.round(limits.memoryBytes / 1024 ** 2);
  const memory = {
    limit: "memory" as const,
    note: `The command ran out of memory: the container allows ${memoryMb} MB.`,
  };
  if (run.oomKilled && !run.timedOut) return { ...output, ...memory };
  if (output.signal === "SIGKILL" && !run.killedByUs) return { ...output, ...unexplainedKill(memoryMb) };
  const hit = limitReached(output, limits, timeoutMs);
  if (hit === null) return output;
  return { ...output, ...(hit.limit === "memory" ? memory : hit) };
}

/**
 * The Docker backend, also Podman's through its Docker-compatible API: each command runs in a fresh
 * container of `image` made by {@link dockerCreateOptions} (the workspace read-write at its own path, the
 * rest read-only, no capabilities, no network unless asked for, memory, CPU and process limits, as the user
 * running karenina), killed past the time limit and removed afterwards. The engine is reached and the image
 * made present when the runner is made, so a task fails before its agent starts.
 * @throws {ContainerBackendUnavailableError} when the engine does not answer, is not the one asked for, or the
 * image is missing and cannot be pulled; commands never fall back to another backend.
 */
export async function dockerRunner(options: DockerOptions): Promise<CommandRunner> {
  const runtime = options.runtime ?? "docker";
  // The engine is found from the environment (DOCKER_HOST, CONTAINER_HOST, XDG_RUNTIME_DIR), as its own client does.
  const connected = await connectEngine(runtime, process.env);
  await ensureImage(connected, runtime, options.image);
  const limits: ContainerLimits = { ...DEFAULT_CONTAINER_LIMITS, ...options.limits };
  const network = options.network === true;
  const cpus = options.cpus ?? 1;
  const identity = containerIdentity(
    connected.engine,
    process.getuid === undefined || process.getgid === undefined
      ? null
      : { uid: process.getuid(), gid: process.getgid() },
  );
  const engineName = runtime === "docker" ? "Docker" : "Podman";
  const runner: CommandRunner = {
    name: runtime,
    sandboxed: true,
    description:
      `It runs in a ${engineName} container of image ${options.image}: the workspace is writable at its own ` +
      `path, the rest read-only, ${network ? "the network is reachable" : "there is no network"}; limits: ` +
      `${limits.cpuSeconds} s of CPU per process, ${Math.round(limits.memoryBytes / 1024 ** 2)} MB of memory, ` +
      `${limits.maxProcesses} processes.`,
    async run(workspace: string, input: RunCommandInput, runLimits: CommandRunLimits, signal?: AbortSignal) {
      const create = dockerCreateOptions({
        image: options.image,
        workspace,
        command: input.command,
        args: input.args ?? [],
        network,
        addHosts: options.addHosts ?? [],
        limits,
        cpus,
        identity,
        podman: connected.engine.podman,
        labels: { [CONTAINER_LABEL]: "true" },
      });
      let run: ContainerRun;
      try {
        run = await runInContainer(connected, create, runLimits, signal);
      } catch (error) {
        throw new ContainerBackendUnavailableError(
          runtime,
          `${engineName} could not run ${JSON.stringify(input.command)} at ${connected.endpoint.shown} ` +
            `(${describeError(error)})`,
        );
      }
      return outputOf(run, limits, runLimits.commandTimeoutMs);
    },
  };
  return Object.freeze(runner);
}
