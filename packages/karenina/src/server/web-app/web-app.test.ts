import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { NOT_BUILT_PAGE } from "./not-built-page.js";

const INDEX = "<!doctype html><html><head><title>app</title></head><body>app</body></html>";

async function builtWebApp(): Promise<{ webDir: string; secretFile: string }> {
  const root = await mkdtemp(join(tmpdir(), "karenina-web-"));
  const webDir = join(root, "dist");
  await mkdir(join(webDir, "assets"), { recursive: true });
  await writeFile(join(webDir, "index.html"), INDEX);
  await writeFile(join(webDir, "assets", "app.js"), "console.log('app');");
  const secretFile = join(root, "secret.txt");
  await writeFile(secretFile, "TOP SECRET");
  await symlink(secretFile, join(webDir, "assets", "leak.txt"));
  return { webDir, secretFile };
}

describe("the web app when it is built", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ webDir: (await builtWebApp()).webDir });
  });
  afterAll(() => server.close());

  test("an asset is served with its content type", async () => {
    const res = await fetch(`${server.url}/assets/app.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await res.text()).toBe("console.log('app');");
  });

  test("a client-side route gets index.html, with the token for a loopback server", async () => {
    const res = await fetch(`${server.url}/benchmarks/drugs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      `<!doctype html><html><head><title>app</title><meta name="karenina-token" content="${server.token}"></head><body>app</body></html>`,
    );
  });

  test("unknown /api and /ws paths are JSON 404s, never the page", async () => {
    for (const path of ["/api/v2/nothing", "/api", "/ws/nothing"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: "not_found", message: `GET ${path} not found` } });
    }
  });

  test("a traversal out of the web app's folder gets the page, not the file", async () => {
    for (const path of ["/..%2fsecret.txt", "/assets/..%2f..%2fsecret.txt", "/%2e%2e/secret.txt"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(await res.text()).not.toContain("TOP SECRET");
    }
  });

  test("a symlink pointing out of the folder is not followed", async () => {
    const res = await fetch(`${server.url}/assets/leak.txt`);
    expect(await res.text()).not.toContain("TOP SECRET");
  });
});

describe("the page of a server that needs the token", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ webDir: (await builtWebApp()).webDir, requireToken: true });
  });
  afterAll(() => server.close());

  test("carries the token only when opened with it (the URL printed at start)", async () => {
    expect(await (await fetch(`${server.url}/`)).text()).toBe(INDEX);
    const opened = await (await fetch(`${server.url}/?token=${server.token}`)).text();
    expect(opened).toContain(`<meta name="karenina-token" content="${server.token}">`);
    const wrong = await (await fetch(`${server.url}/?token=wrong`)).text();
    expect(wrong).toBe(INDEX);
  });
});

describe("the web app when it is not built", () => {
  test("every page path answers a page saying so; /api still answers JSON", async () => {
    const server = await startTestServer({ webDir: join(tmpdir(), "karenina-no-such-web-dir") });
    try {
      const page = await fetch(`${server.url}/runs/1`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=UTF-8");
      expect(await page.text()).toBe(NOT_BUILT_PAGE);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
