/**
 * A scripted Docker Engine API on a unix socket, for testing the Docker backend's use of the API where no
 * daemon is present. Its replies are hand-written from the Engine API reference (ping, version, info, image
 * inspect and pull, container create, attach, start, wait, inspect, kill, remove): it pins down what the
 * backend asks and how it reads the answers, not how a real engine confines anything.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { constants as osConstants, tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";

/** What a scripted container does once started: its output, then its exit status (or it runs until killed). */
export interface ScriptedContainer {
  stdout?: string;
  stderr?: string;
  /** The exit status; absent: it runs until killed (status 137). */
  status?: number;
  oomKilled?: boolean;
  /**
   * For a hijacked attach (stdin open): echo what comes on stdin to stdout, and exit with `status` (default 0)
   * when the client closes its side.
   */
  echoStdin?: boolean;
}

export interface ScriptedEngineOptions {
  /** "Engine" for Docker, "Podman Engine" for Podman. */
  engineName?: string;
  rootless?: boolean;
  /** Images the engine has; others are 404 and their pull fails. */
  images?: string[];
  /** What each created container does, from its create body. */
  behave?: (create: Record<string, unknown>) => ScriptedContainer;
}

interface Container {
  id: string;
  create: Record<string, unknown>;
  attach: ServerResponse | Duplex | null;
  status: number | null;
  oomKilled: boolean;
  waiters: ServerResponse[];
}

export interface ScriptedEngine {
  socketPath: string;
  /** Every request, as `METHOD /path?query` without the API version prefix. */
  requests: string[];
  /** The create bodies, in order. */
  created: Record<string, unknown>[];
  /** Containers created and not removed. */
  alive(): string[];
  /** What came on each container's stdin (hijacked attach), by container id; removed containers included. */
  stdin: Map<string, string>;
  close(): Promise<void>;
}

const frame = (stream: 1 | 2, text: string): Buffer => {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
}

export async function startScriptedEngine(options: ScriptedEngineOptions = {}): Promise<ScriptedEngine> {
  const dir = await mkdtemp(join(tmpdir(), "karenina-engine-"));
  const socketPath = join(dir, "engine.sock");
  const requests: string[] = [];
  const created: Record<string, unknown>[] = [];
  const containers = new Map<string, Container>();
  const stdin = new Map<string, string>();
  const images = new Set(options.images ?? []);
  const behave = options.behave ?? ((): ScriptedContainer => ({ status: 0 }));

  const exit = (container: Container, status: number) => {
    if (container.status !== null) return;
    container.status = status;
    container.attach?.end();
    for (const waiter of container.waiters) json(waiter, 200, { StatusCode: status });
    container.waiters = [];
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://engine");
    const path = url.pathname.replace(/^\/v\d+\.\d+/, "");
    requests.push(`${req.method} ${path}${url.search}`);
    const body = await bodyOf(req);
    const match = path === "/containers/create" ? null : /^\/containers\/([^/]+)(\/[a-z]+)?$/.exec(path);
    const container = match === null ? undefined : containers.get(match[1] ?? "");
    const action = `${req.method} ${match === null ? path : `/containers/:id${match[2] ?? ""}`}`;
    switch (action) {
      case "GET /_ping":
        res.writeHead(200, { "Content-Type": "text/plain" });
        return res.end("OK");
      case "GET /version":
        return json(res, 200, { Version: "1.0", Components: [{ Name: options.engineName ?? "Engine" }] });
      case "GET /info":
        return json(res, 200, {
          SecurityOptions: ["name=seccomp,profile=default", ...(options.rootless ? ["name=rootless"] : [])],
        });
      case "POST /containers/create": {
        const id = `c${containers.size + 1}`;
        created.push(body);
        containers.set(id, { id, create: body, attach: null, status: null, oomKilled: false, waiters: [] });
        return json(res, 201, { Id: id, Warnings: [] });
      }
      default:
        break;
    }
    const image = /^\/images\/(.+)\/json$/.exec(path);
    if (req.method === "GET" && image !== null) {
      return images.has(decodeURIComponent(image[1] ?? ""))
        ? json(res, 200, { Id: "sha256:1" })
        : json(res, 404, { message: `No such image: ${image[1]}` });
    }
    if (req.method === "POST" && path === "/images/create") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(
        `${JSON.stringify({ status: "Pulling" })}\n${JSON.stringify({
          errorDetail: { message: "pull access denied: the scripted engine has no registry" },
          error: "pull access denied",
        })}\n`,
      );
    }
    if (container === undefined) return json(res, 404, { message: "No such container" });
    switch (action) {
      case "POST /containers/:id/attach":
        res.writeHead(200, { "Content-Type": "application/vnd.docker.raw-stream" });
        res.flushHeaders();
        container.attach = res;
        return;
      case "POST /containers/:id/start": {
        res.writeHead(204);
        res.end();
        const script = behave(container.create);
        if (script.stdout !== undefined) container.attach?.write(frame(1, script.stdout));
        if (script.stderr !== undefined) container.attach?.write(frame(2, script.stderr));
        container.oomKilled = script.oomKilled === true;
        if (script.status !== undefined) exit(container, script.status);
        return;
      }
      case "POST /containers/:id/wait":
        if (container.status !== null) return json(res, 200, { StatusCode: container.status });
        container.waiters.push(res);
        return;
      case "GET /containers/:id/json":
        return json(res, 200, { Id: container.id, State: { OOMKilled: container.oomKilled } });
      case "POST /containers/:id/kill": {
        res.writeHead(204);
        res.end();
        const signal = url.searchParams.get("signal") ?? "SIGKILL";
        const number = osConstants.signals[signal as NodeJS.Signals] ?? osConstants.signals.SIGKILL;
        return exit(container, 128 + number);
      }
      case "DELETE /containers/:id":
        exit(container, 137);
        containers.delete(container.id);
        res.writeHead(204);
        return res.end();
      default:
        return json(res, 404, { message: `not scripted: ${action}` });
    }
  });
  // A hijacked attach (`Connection: Upgrade`, as the Docker CLI sends it): the raw connection carries stdin in,
  // and the multiplexed stdout and stderr out.
  server.on("upgrade", (req: IncomingMessage, socket: Duplex) => {
    const url = new URL(req.url ?? "/", "http://engine");
    const path = url.pathname.replace(/^\/v\d+\.\d+/, "");
    requests.push(`${req.method} ${path}${url.search}`);
    const match = /^\/containers\/([^/]+)\/attach$/.exec(path);
    const container = match === null ? undefined : containers.get(match[1] ?? "");
    if (req.method !== "POST" || container === undefined) {
      socket.end("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    socket.write(
      "HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\n" +
        "Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n",
    );
    container.attach = socket;
    stdin.set(container.id, "");
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      stdin.set(container.id, (stdin.get(container.id) ?? "") + chunk.toString("utf8"));
      if (behave(container.create).echoStdin && container.status === null) socket.write(frame(1, chunk.toString("utf8")));
    });
    socket.on("end", () => {
      const script = behave(container.create);
      if (script.echoStdin) exit(container, script.status ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    requests,
    created,
    alive: () => [...containers.keys()],
    stdin,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
