import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startServeProcess } from "../server/__fixtures__/serve-process.js";

describe("karenina serve (the real process)", () => {
  test("prints where it listens and the token, answers /api, and stops cleanly on SIGTERM", async () => {
    const dir = await mkdtemp(join(tmpdir(), "karenina-serve-"));
    const serving = await startServeProcess(["--db", join(dir, "k.db"), "--dir", dir]);
    const { url, token, banner } = serving;
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
    expect(await serving.stop(), serving.stderr()).toBe(0);
    expect(serving.stderr()).toContain("SIGTERM: stopping");
    expect(serving.stderr()).toContain("stopped");
    await rm(dir, { recursive: true, force: true });
  }, 60_000);
});
