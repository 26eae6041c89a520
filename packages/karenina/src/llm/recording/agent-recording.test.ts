/**
 * Recording agent runs over a hand-written agent (test data: a fixed trace that names its workspace), then
 * replaying them offline in another workspace directory.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import {
  type AgentPort,
  type AgentRunOptions,
  assistantMessage,
  BASE_CAPABILITIES,
  emptyUsage,
  type Message,
  PortError,
  ReplayMissError,
  recordingAgentPort,
  toolResultMessage,
  userMessage,
} from "../index.js";

const identity = { modelIdentity: "openai_endpoint:agent-1", parameters: { temperature: 0 } };
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-agent-recording-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An agent that lists its workspace once and answers (or fails, when `fails`), counting its runs. */
function handWrittenAgent(fails = false): AgentPort & { runs: number } {
  const agent = {
    runs: 0,
    capabilities: BASE_CAPABILITIES,
    async run(_messages: readonly Message[], options: AgentRunOptions = {}) {
      agent.runs++;
      if (fails) throw new PortError("the provider refused");
      const trace = [
        assistantMessage("", [{ id: "c1", name: "list_files", input: { path: options.workingDir ?? "" } }]),
        toolResultMessage("c1", `${options.workingDir}/sum.js`),
        assistantMessage("Fixed."),
      ];
      return {
        finalResponse: "Fixed.",
        rawTrace: `--- AI Message ---\nFixed. (in ${options.workingDir})`,
        traceMessages: trace.map((m) => ({ ...m })),
        usage: emptyUsage(),
        usageUnavailable: true,
        turns: 2,
        limitReached: false,
        timeoutReached: false,
        metrics: { iterations: 2, tool_calls: 1, limit_reached: false },
      } as unknown as Awaited<ReturnType<AgentPort["run"]>>;
    },
    close: async () => {},
  };
  return agent;
}

const ask = (workspace: string) => [userMessage(`Fix sum.js. Your workspace is the directory ${workspace}.`)];

test("a run recorded in one working copy replays in another, with the new directory in its trace", async () => {
  const agent = handWrittenAgent();
  const live = recordingAgentPort(agent, { dir, mode: "record", ...identity });
  const recorded = await live.run(ask("/tmp/copy-a"), { workingDir: "/tmp/copy-a", tools: {} });
  const [file] = await readdir(dir);
  const text = await readFile(join(dir, file as string), "utf8");
  expect(text).not.toContain("/tmp/copy-a");
  expect(text).toContain("<workspace>/sum.js");

  const offline = recordingAgentPort(null, { dir, mode: "replay", ...identity });
  const replayed = await offline.run(ask("/tmp/copy-b"), { workingDir: "/tmp/copy-b", tools: {} });
  expect(agent.runs).toBe(1);
  expect(replayed.rawTrace).toBe("--- AI Message ---\nFixed. (in /tmp/copy-b)");
  expect(JSON.stringify(replayed.traceMessages)).toBe(
    JSON.stringify(recorded.traceMessages).replaceAll("/tmp/copy-a", "/tmp/copy-b"),
  );
});

test("other tools or another turn limit are another request: a miss naming the model and the request", async () => {
  await recordingAgentPort(handWrittenAgent(), { dir, mode: "record", ...identity }).run(ask("/w"), {
    workingDir: "/w",
    maxTurns: 5,
  });
  const offline = recordingAgentPort(null, { dir, mode: "replay", ...identity });
  const miss = (await offline.run(ask("/w"), { workingDir: "/w", maxTurns: 6 }).catch((e) => e)) as Error;
  expect(miss).toBeInstanceOf(ReplayMissError);
  expect(miss.message).toMatch(
    /^no recorded agent run of openai_endpoint:agent-1 for the request whose last user message is "Fix sum\.js\. Your workspace is the directory \/w\." \(request [0-9a-f]{64}, looked for in /,
  );
  await expect(offline.run(ask("/w"), { workingDir: "/w", maxTurns: 5 })).resolves.toMatchObject({
    finalResponse: "Fixed.",
  });
});

test("failed runs are not recorded; record mode needs the real agent", async () => {
  const failing = recordingAgentPort(handWrittenAgent(true), { dir, mode: "record", ...identity });
  await expect(failing.run(ask("/w"))).rejects.toThrow("the provider refused");
  expect(await readdir(dir)).toEqual([]);
  expect(() => recordingAgentPort(null, { dir, mode: "record", ...identity })).toThrow(PortError);
});
