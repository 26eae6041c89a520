/**
 * The memory snapshot of a freshly started Pyodide, kept on disk between processes: written privately, trusted
 * only when private and intact, and used by the next process's first sandbox.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readCachedSnapshot, snapshotCacheDirectory, writeCachedSnapshot } from "./snapshot-cache.js";

const run = promisify(execFile);
const HOST = fileURLToPath(new URL("./__fixtures__/one-call-host.ts", import.meta.url));

let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "karenina-snapshot-"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Runs the one-call host with its cache in `cacheDir`; returns its output and its debug log. */
async function oneCall(cacheDir: string): Promise<{ out: string; log: string }> {
  const env = { ...process.env, KARENINA_CACHE_DIR: cacheDir, NODE_DEBUG: "karenina" };
  const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", HOST], { env, timeout: 60_000 });
  return { out: stdout.trim(), log: stderr };
}

describe("across processes", () => {
  test("the first process keeps its snapshot privately; the next one starts from it", async () => {
    const cacheDir = join(base, "cache");
    const first = await oneCall(cacheDir);
    expect(first.out).toBe("42");
    expect(first.log).not.toMatch(/starting from the snapshot/);
    const [file] = await readdir(cacheDir);
    expect(file).toMatch(/^pyodide-snapshot-[0-9a-f]{16}\.bin$/);
    expect((await stat(cacheDir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(cacheDir, file as string))).mode & 0o777).toBe(0o600);
    const second = await oneCall(cacheDir);
    expect(second.out).toBe("42");
    expect(second.log).toMatch(/starting from the snapshot kept in/);
  }, 120_000);

  test("the kept snapshot holds none of karenina's Python, so editing a .py file never leaves a stale image", async () => {
    const cacheDir = join(base, "before-our-python");
    expect((await oneCall(cacheDir)).out).toBe("42");
    const [file] = await readdir(cacheDir);
    const image = await readFile(join(cacheDir, file as string));
    const lockdown = await readFile(new URL("./karenina_sandbox.py", import.meta.url), "utf8");
    const names = [...lockdown.matchAll(/^def (\w+)/gm)].map((match) => match[1] as string);
    expect(names).toContain("_karenina_lock_down");
    // A function the interpreter had run would leave its name in the image (an interned string).
    expect(names.filter((name) => image.includes(name))).toEqual([]);
  }, 120_000);
});

describe("what is trusted", () => {
  test("a damaged snapshot is not used, and is removed", async () => {
    const dir = join(base, "damaged");
    const file = join(dir, "pyodide-snapshot-0000000000000000.bin");
    writeCachedSnapshot(file, new Uint8Array([1, 2, 3, 4]));
    expect(readCachedSnapshot(file)).toEqual(new Uint8Array([1, 2, 3, 4]));
    const bytes = await readFile(file);
    bytes.writeUInt8((bytes.at(-1) ?? 0) ^ 0xff, bytes.length - 1);
    await writeFile(file, bytes);
    expect(readCachedSnapshot(file)).toBeNull();
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  test("a snapshot others may write, or in a directory others may write, is not used", async () => {
    const dir = join(base, "shared");
    const file = join(dir, "pyodide-snapshot-0000000000000000.bin");
    writeCachedSnapshot(file, new Uint8Array([5, 6]));
    await chmod(file, 0o666);
    expect(readCachedSnapshot(file)).toBeNull();
    await chmod(file, 0o600);
    await chmod(dir, 0o777);
    expect(readCachedSnapshot(file)).toBeNull();
    await chmod(dir, 0o700);
    expect(readCachedSnapshot(file)).toEqual(new Uint8Array([5, 6]));
  });

  test("nothing is written into a directory others may write, and a link left in a temporary file's place is not followed", async () => {
    const shared = join(base, "world-writable");
    await mkdir(shared, { mode: 0o777 });
    await chmod(shared, 0o777);
    writeCachedSnapshot(join(shared, "pyodide-snapshot-0000000000000000.bin"), new Uint8Array([7]));
    expect(await readdir(shared)).toEqual([]);
    const own = join(base, "own");
    const file = join(own, "pyodide-snapshot-0000000000000000.bin");
    const victim = join(base, "victim.txt");
    await writeFile(victim, "keep me");
    await mkdir(own, { mode: 0o700 });
    await symlink(victim, `${file}.${process.pid}.tmp`);
    writeCachedSnapshot(file, new Uint8Array([8]));
    expect(await readFile(victim, "utf8")).toBe("keep me");
  });

  test("the cache lives under KARENINA_CACHE_DIR, XDG_CACHE_HOME or ~/.cache, and can be turned off", () => {
    expect(snapshotCacheDirectory({ KARENINA_CACHE_DIR: "/x" })).toBe("/x");
    expect(snapshotCacheDirectory({ XDG_CACHE_HOME: "/y" })).toBe(join("/y", "karenina"));
    expect(snapshotCacheDirectory({ KARENINA_SNAPSHOT_CACHE: "off", KARENINA_CACHE_DIR: "/x" })).toBeNull();
  });
});
