/**
 * The workspace tools inside a real AI SDK tool loop, over HTTP to the scripted OpenAI-compatible server on
 * 127.0.0.1. Every model reply below is hand-written test data.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs } from "ai";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { workspaceTools } from "./workspace-tools.js";

const server = serverPerTest(startOpenAiServer);
let base: string;
let ws: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "karenina-tool-loop-"));
  ws = join(base, "ws");
  await mkdir(join(ws, "results"), { recursive: true });
  await writeFile(join(ws, "results", "answer.txt"), "BCL2\n");
  await writeFile(join(base, "ground-truth.txt"), "not for the judge\n");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const model = () => createOpenAICompatible({ name: "test", baseURL: server.baseURL, apiKey: "k" })("judge");

/** The tool messages the model was sent back, as the server received them. */
function toolMessages(request: number): { tool_call_id: string; content: string }[] {
  const messages = server.requests[request]?.body.messages as {
    role: string;
    tool_call_id: string;
    content: string;
  }[];
  return messages.filter((m) => m.role === "tool");
}

describe("workspace tools in a tool loop", () => {
  test("the model is offered the read-only tools, calls one, and receives its result", async () => {
    server.script(
      { reply: { toolCalls: [{ name: "read_file", arguments: { path: "results/answer.txt" } }] } },
      { reply: { text: "The workspace reports BCL2." } },
    );
    const result = await generateText({
      model: model(),
      tools: workspaceTools(ws, { mode: "read_only" }),
      stopWhen: stepCountIs(3),
      prompt: "Which gene did the agent report?",
    });
    expect(result.text).toBe("The workspace reports BCL2.");
    const tools = server.requests[0]?.body.tools as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(["list_files", "read_file", "search_files"]);
    expect(JSON.parse(toolMessages(1)[0]?.content ?? "")).toMatchObject({
      path: "results/answer.txt",
      content: "BCL2",
    });
  });

  test("a path out of the workspace goes back to the model as the tool's error, and the loop goes on", async () => {
    server.script(
      { reply: { toolCalls: [{ name: "read_file", arguments: { path: "../ground-truth.txt" } }] } },
      { reply: { text: "I could not read it." } },
    );
    const result = await generateText({
      model: model(),
      tools: workspaceTools(ws, { mode: "read_only" }),
      stopWhen: stepCountIs(3),
      prompt: "Read the ground truth.",
    });
    expect(result.text).toBe("I could not read it.");
    const sent = toolMessages(1)[0]?.content ?? "";
    expect(sent).toContain('read_file: path "../ground-truth.txt": expected a path inside');
    expect(sent).not.toContain("not for the judge");
  });
});
