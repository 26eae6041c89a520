import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

describe("karenina serve (the real process)", () => {
  test("prints where it listens and the token, answers /api, and stops cleanly on SIGTERM", async () => {
    const dir = await mkdtemp(join(tmpdir(), "karenina-serve-"));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", MAIN, "serve", "--port", "0", "--db", join(dir, "k.db"), "--dir", dir],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    const banner = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: string) => {
        out += chunk;
        if (out.includes("Press Ctrl+C")) resolve(out);
      });
      child.on("close", () => reject(new Error(`serve exited early: ${err}`)));
    });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] as string;
    const token = /access token: +(\S+)/.exec(banner)?.[1] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(banner).toContain(`open:          ${url}/?token=${token}`);
    expect(banner).toContain("bound to this machine only");
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    const unmasked = await fetch(`${url}/api/v2/config/env-vars/unmasked`);
    expect(unmasked.status).toBe(401);
    const withToken = await fetch(`${url}/api/v2/config/env-vars/unmasked`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withToken.status).toBe(200);
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code, err).toBe(0);
    expect(err).toContain("SIGTERM: stopping");
    expect(err).toContain("stopped");
  }, 60_000);
});
