/**
 * The real Claude Code (the Claude Agent SDK's bundled native binary) and a scripted Anthropic Messages server on
 * 127.0.0.1, for the deep agent's container tests. The server's replies are hand-written test data: the main
 * session (requests offering tools) plays the given steps by the tool results it has seen; nothing reaches a
 * real model.
 */
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The SDK's Claude Code binary for this platform, checked to run; null when it is not installed. */
export function claudeBinary(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const sdk = dirname(require.resolve("@anthropic-ai/claude-agent-sdk"));
    const binary = join(dirname(sdk), `claude-agent-sdk-${process.platform}-${process.arch}`, "claude");
    execFileSync(binary, ["--version"], { timeout: 20_000 });
    return binary;
  } catch {
    return null;
  }
}

export interface Step {
  tool?: { name: string; input: Record<string, unknown> };
  text?: string;
}

/** A scripted Anthropic server: the main session (requests offering tools) plays `steps` by tool results seen. */
export function startScriptedClaudeServer(steps: (paths: Paths) => Step[], paths: Paths) {
  const toolResults: string[] = [];
  const requests: SeenRequest[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        apiKey: request.headers["x-api-key"] as string | undefined,
        host: request.headers.host,
      });
      if (!request.url?.startsWith("/v1/messages")) {
        response.writeHead(404, { "content-type": "application/json" }).end("{}");
        return;
      }
      const parsed = JSON.parse(body) as {
        model: string;
        stream?: boolean;
        tools?: { name: string }[];
        messages: { role: string; content: unknown }[];
      };
      const results = parsed.messages.flatMap((m) =>
        Array.isArray(m.content)
          ? (m.content as { type: string; content?: unknown }[]).filter((b) => b.type === "tool_result")
          : [],
      );
      const main = (parsed.tools ?? []).some((t) => t.name === "Bash");
      const script = steps(paths);
      const step: Step = main ? (script[results.length] ?? { text: "done" }) : { text: "ok" };
      if (main && results.length > 0) toolResults[results.length - 1] = JSON.stringify(results.at(-1));
      const block = step.tool
        ? {
            type: "tool_use",
            id: `toolu_hand_written_${results.length}`,
            name: step.tool.name,
            input: step.tool.input,
          }
        : { type: "text", text: step.text ?? "" };
      const message = {
        id: `msg_hand_written_test_data_${results.length}`,
        type: "message",
        role: "assistant",
        model: parsed.model,
        content: [block],
        stop_reason: step.tool ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 11, output_tokens: 7 },
      };
      if (parsed.stream !== true) {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(message));
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      const send = (event: { type: string } & Record<string, unknown>) =>
        response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      send({ type: "message_start", message: { ...message, content: [], stop_reason: null } });
      if (step.tool) {
        send({ type: "content_block_start", index: 0, content_block: { ...block, input: {} } });
        send({
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(step.tool.input) },
        });
      } else {
        send({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
        send({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: step.text ?? "" } });
      }
      send({ type: "content_block_stop", index: 0 });
      send({
        type: "message_delta",
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: { output_tokens: 7 },
      });
      send({ type: "message_stop" });
      response.end();
    });
  });
  return new Promise<{
    url: string;
    toolResults: string[];
    requests: SeenRequest[];
    close: () => Promise<void>;
  }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        toolResults,
        requests,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

export interface Paths {
  workspace: string;
  secret: string;
}

/** What the scripted server saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  apiKey: string | undefined;
  host: string | undefined;
}

/** A TCP listener on the host's 127.0.0.1 that counts the connections it gets (the attack's target). */
export function startCountingListener() {
  let connections = 0;
  const server = createNetServer((socket) => {
    connections += 1;
    // The probe closes without reading: a reset is expected.
    socket.on("error", () => {});
    socket.end("HOST-LISTENER-REACHED\n");
  });
  return new Promise<{ port: number; connections: () => number; close: () => Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        connections: () => connections,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/**
 * A session whose Bash command tries to reach `port` on 127.0.0.1 (a listener of the host's) and, when
 * `outside` is given, that address's port 80, then prints each outcome; then a final answer. The probes use
 * bash's /dev/tcp, so they need no program of the host's.
 */
export const reachOut =
  (port: number, outside: string | null) =>
  (_paths: Paths): Step[] => {
    const probe = (host: string, target: number, label: string) =>
      `(timeout 10 bash -c 'exec 3<>/dev/tcp/${host}/${target} && echo ${label}=connected' 2>&1 || echo ${label}=failed)`;
    const probes = [probe("127.0.0.1", port, "loopback")];
    if (outside !== null) probes.push(probe(outside, 80, "outside"));
    return [
      { tool: { name: "Bash", input: { command: probes.join("; "), description: "reach the network" } } },
      { text: "The target is BCL2." },
    ];
  };


/** Processes whose command line contains `needle` as an argument, from /proc. */
export async function processesWith(needle: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(join("/proc", entry, "cmdline"), "utf8").catch(() => "");
    if (cmdline.split("\0").includes(needle)) found.push(Number(entry));
  }
  return found;
}

/**
 * A marker no other process on the machine has in its command line: `base` (one per test file, so files running
 * side by side differ) plus this process's pid.
 */
export const sleepMarker = (base: number): string => `${base + (process.pid % 1000)}`;

/**
 * The session of the containment tests: Claude Code writes the answer in the workspace, then runs a Bash command
 * that leaves a `sleep <marker>` behind, reads the host file outside the workspace and prints its home.
 */
export const writeThenReadHostFile =
  (marker: string) =>
  (paths: Paths): Step[] => [
    { tool: { name: "Write", input: { file_path: join(paths.workspace, "answer.txt"), content: "BCL2\n" } } },
    {
      tool: {
        name: "Bash",
        input: {
          command: `(sleep ${marker} >/dev/null 2>&1 &); cat ${paths.secret}; echo "home=$HOME"`,
          description: "read a host file",
        },
      },
    },
    { text: "The target is BCL2." },
  ];
