/**
 * Start-up of the `karenina` command (issue 14, point 3): nothing heavy is loaded to print help or inspect a
 * checkpoint, `--version`, the Python sandbox started as soon as a run knows it needs it (with a notice on a
 * terminal), and a run's reported wall time counted from the command's start. Runs against the scripted
 * OpenAI server on 127.0.0.1; its replies are hand-written test data, not output of any model.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { platform, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { sandboxProcessesOf, waitFor } from "../sandbox/python/__fixtures__/sandbox-processes.js";
import { addClassicQuestion } from "../test-support/classic-template.js";
import { drugBenchmark, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { modulesLoadedBy, packagesOf } from "../test-support/module-log/index.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { BUNDLED_EXAMPLE, type CliIo, EXIT } from "./cli-io.js";
import { runCli } from "./program.js";
import { PYTHON_SANDBOX_NOTICE } from "./python-sandbox-start.js";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
const PROGRAM = pathToFileURL(fileURLToPath(new URL("./program.ts", import.meta.url))).href;
const VERSION = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;

/** Packages that printing help or reading a checkpoint has no use for (each costs tens of milliseconds). */
const HEAVY_PACKAGES = [
  /^ai$/,
  /^@ai-sdk\//,
  /^@anthropic-ai\//,
  /^@modelcontextprotocol\//,
  /^kysely$/,
  /^better-sqlite3$/,
  /^pg$/,
  /^exceljs$/,
  /^js-tiktoken$/,
  /^pyodide$/,
  /^quickjs-emscripten/,
  /^csv-(parse|stringify)$/,
  /^cli-progress$/,
  /^picomatch$/,
  /^dockerode$/,
  /^ollama-ai-provider-v2$/,
  // Google Cloud's auth, brought in by @ai-sdk/google-vertex.
  /^google-auth-library$/,
  /^gaxios$/,
  /^gcp-metadata$/,
];

const heavyAmong = (packages: readonly string[]) =>
  packages.filter((name) => HEAVY_PACKAGES.some((pattern) => pattern.test(name)));

let server: OpenAiTestServer;
let dir: string;
let classicFile: string;
let declarativeFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-start-"));
  server = await startOpenAiServer([
    {
      match: { model: "answerer", lastUserIncludes: "venetoclax inhibit" },
      reply: { text: "BCL2." },
      repeat: true,
    },
    { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
    {
      match: { model: "judge", lastUserIncludes: "BCL2." },
      reply: { json: { target: "BCL2" } },
      repeat: true,
    },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
  const classic = Benchmark.create({ name: "classic" });
  addClassicQuestion(classic);
  classicFile = join(dir, "classic.jsonld");
  await classic.save(classicFile);
  declarativeFile = join(dir, "declarative.jsonld");
  await drugBenchmark(1, "declarative").save(declarativeFile);
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A CLI io that keeps stderr's writes, each with how many requests the server had received by then. */
interface RecordingIo extends CliIo {
  readonly writes: { text: string; requests: number }[];
  stderr(): string;
}

function recordingIo(errIsTerminal: boolean): RecordingIo {
  const writes: { text: string; requests: number }[] = [];
  return {
    out: () => {},
    err: (text) => writes.push({ text, requests: server.requests.length }),
    errIsTerminal,
    writes,
    stderr: () => writes.map((write) => write.text).join(""),
  };
}

/** The wall time the run summary reports, in seconds. */
function reportedSeconds(stderr: string): number {
  const match = /·\s*(\d+\.\d)\s*s\b/.exec(stderr);
  if (match === null) throw new Error(`no run time in:\n${stderr}`);
  return Number(match[1]);
}

describe("karenina --version", () => {
  test.each([["--version"], ["-V"]])("%s prints the package's version and exits 0", async (flag) => {
    const { code, out } = await runKarenina(flag);
    expect(code).toBe(EXIT.ok);
    expect(out).toBe(`${VERSION}\n`);
  });
});

describe("commands load when they run", () => {
  test("help for one command shows its options, however it is asked", async () => {
    for (const args of [
      ["help", "verify"],
      ["verify", "--help"],
    ]) {
      const { code, out } = await runKarenina(...args);
      expect(code).toBe(EXIT.ok);
      expect(out).toMatch(/^Usage: karenina verify \[options\] \[checkpoint\]/);
      expect(out).toContain("--answering <spec>");
    }
  });

  test("importing the CLI's program loads no command module, no library part and no heavy package", async () => {
    const { urls, code, stderr } = await modulesLoadedBy([
      "--input-type=module",
      "--eval",
      `await import(${JSON.stringify(PROGRAM)});`,
    ]);
    expect(code, stderr).toBe(0);
    const local = urls.filter((url) => url.includes("/karenina/src/"));
    expect(local.some((url) => url.endsWith("/cli/program.ts"))).toBe(true);
    expect(local.filter((url) => /-commands?\.ts$/.test(url))).toEqual([]);
    expect(local.filter((url) => !/\/src\/(cli|errors)\//.test(url))).toEqual([]);
    expect(packagesOf(urls).filter((name) => name !== "commander")).toEqual([]);
  });

  test("karenina --help loads no command module and no package but commander", async () => {
    const { urls, code, stderr } = await modulesLoadedBy([MAIN, "--help"]);
    expect(code, stderr).toBe(0);
    expect(urls.filter((url) => /-commands?\.ts$/.test(url))).toEqual([]);
    expect(packagesOf(urls)).toEqual(["commander"]);
  });

  test("checkpoint inspect loads none of the run's packages (model clients, databases, sandboxes)", async () => {
    const { urls, code, stderr } = await modulesLoadedBy([MAIN, "checkpoint", "inspect", BUNDLED_EXAMPLE]);
    expect(code, stderr).toBe(0);
    expect(urls.some((url) => url.endsWith("/cli/checkpoint-commands.ts"))).toBe(true);
    expect(heavyAmong(packagesOf(urls))).toEqual([]);
    // Scenario nodes hold model overrides: the ModelConfig schema and the shapes it is made of (zod only) are
    // the one part of the pipeline and llm folders a checkpoint needs; nothing that runs a model.
    const schemasOnly =
      /\/src\/(pipeline\/config\/model|llm\/(manual|retry|trace))\/|\/src\/llm\/messages\.ts$/;
    expect(
      urls.filter(
        (url) => /\/src\/(pipeline|llm|storage|agentic|authoring)\//.test(url) && !schemasOnly.test(url),
      ),
    ).toEqual([]);
  });
});

describe("the Python sandbox starts as soon as a run knows it needs it", () => {
  test("on a terminal, the notice comes before any request reaches the models", async () => {
    const io = recordingIo(true);
    const code = await runCli(scriptedVerifyArgs(server.baseURL, classicFile), io);
    const err = io.stderr();
    expect(code, err).toBe(EXIT.ok);
    const notice = io.writes.find((write) => write.text.includes(PYTHON_SANDBOX_NOTICE));
    expect(notice, err).toBeDefined();
    expect(notice?.requests).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(err).toMatch(/1\/1 done · 1 passed/);
  });

  test("piped (not a terminal), the run says nothing about it", async () => {
    const io = recordingIo(false);
    const code = await runCli(scriptedVerifyArgs(server.baseURL, classicFile), io);
    const err = io.stderr();
    expect(code, err).toBe(EXIT.ok);
    expect(err).not.toContain(PYTHON_SANDBOX_NOTICE);
    expect(err).toMatch(/1\/1 done · 1 passed/);
  });

  test.skipIf(platform() !== "linux")(
    "a run that stops on a usage error after starting it leaves no sandbox process behind",
    async () => {
      const taken = join(dir, "taken.jsonl");
      await writeFile(taken, "not a run log\n");
      const io = recordingIo(true);
      const code = await runCli(scriptedVerifyArgs(server.baseURL, classicFile, "-o", taken), io);
      expect(code, io.stderr()).toBe(EXIT.usage);
      expect(io.stderr()).toContain(PYTHON_SANDBOX_NOTICE);
      // The start goes on in the background (from the sources, bundling the worker takes a moment before the
      // process is spawned): the command's end must stop it, not leave it to finish and idle.
      await waitFor(() => sandboxProcessesOf(process.pid).length > 0, 4_000);
      expect(await waitFor(() => sandboxProcessesOf(process.pid).length === 0, 1_000)).toBe(true);
    },
  );

  test("a run whose templates are declarative starts no sandbox, so says nothing", async () => {
    const io = recordingIo(true);
    const code = await runCli(scriptedVerifyArgs(server.baseURL, declarativeFile), io);
    const err = io.stderr();
    expect(code, err).toBe(EXIT.ok);
    expect(err).not.toContain(PYTHON_SANDBOX_NOTICE);
  });
});

describe("the run summary's wall time counts from the command's start", () => {
  test("a command that started 5 s before its run reports at least 5 s", async () => {
    const io = recordingIo(false);
    const code = await runCli(scriptedVerifyArgs(server.baseURL, declarativeFile), io, Date.now() - 5_000);
    expect(code, io.stderr()).toBe(EXIT.ok);
    expect(reportedSeconds(io.stderr())).toBeGreaterThanOrEqual(5);
  });

  test("the installed command reports most of the wall time its process took, start-up included", async () => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", MAIN, ...scriptedVerifyArgs(server.baseURL, declarativeFile)],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const wallSeconds = (performance.now() - started) / 1000;
    expect(code, stderr).toBe(EXIT.ok);
    // Without the command's start, the summary counts only the run's tasks (a tenth of a second here) while
    // the process takes seconds to load its modules (through tsx) and check the template.
    expect(reportedSeconds(stderr)).toBeGreaterThanOrEqual(wallSeconds / 2);
  });
});
