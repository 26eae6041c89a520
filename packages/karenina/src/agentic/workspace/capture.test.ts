import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { captureDestination, captureExcludes, captureWorkspace, excludeTest } from "./capture.js";
import {
  appendManifestRow,
  type CaptureManifestRow,
  compactManifest,
  manifestLogPath,
  manifestPath,
} from "./capture-manifest.js";
import { resolveWorkspace } from "./resolve-workspace.js";
import { producedPaths, snapshotWorkspace } from "./snapshot.js";

let dir = "";
let root = "";
let output = "";

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-capture-"));
  root = join(dir, "workspaces");
  output = join(dir, "captures");
  await mkdir(join(root, "task", "src"), { recursive: true });
  await writeFile(join(root, "task", "src", "main.py"), "print('hi')\n");
  await writeFile(join(root, "task", "README"), "read me\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every file and link below `path`, relative, sorted. */
async function listing(path: string): Promise<string[]> {
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(path.length + 1))
    .sort();
}

const request = { root: "", questionId: "q1", workspacePath: "task", copy: true, replicate: null };

describe("exclude patterns", () => {
  test("spec 05 §12.8 the default excludes leave out virtualenvs, caches and *.pyc at any depth", () => {
    const excluded = excludeTest(captureExcludes("produced", []));
    expect(excluded(".venv", true)).toBe(true);
    expect(excluded("lib/venv", true)).toBe(true);
    expect(excluded("a/__pycache__", true)).toBe(true);
    expect(excluded(".pytest_cache", true)).toBe(true);
    expect(excluded(".ruff_cache", true)).toBe(true);
    expect(excluded(".mypy_cache", true)).toBe(true);
    expect(excluded("nb/.ipynb_checkpoints", true)).toBe(true);
    expect(excluded("pkg/mod.pyc", false)).toBe(true);
    // A directory pattern names directories only; ordinary files stay.
    expect(excluded("venv", false)).toBe(false);
    expect(excluded("src/main.py", false)).toBe(false);
  });

  test("spec 05 §12.8 custom patterns add to the defaults; full mode applies no pattern at all", () => {
    const custom = excludeTest(captureExcludes("produced", ["*.log", "build/", "out/tmp.txt"]));
    expect(custom("logs/run.log", false)).toBe(true);
    expect(custom("build", true)).toBe(true);
    expect(custom("out/tmp.txt", false)).toBe(true);
    expect(custom("tmp.txt", false)).toBe(false);
    expect(custom("x.pyc", false)).toBe(true);
    expect(captureExcludes("full", ["*.log"])).toEqual([]);
  });
});

describe("captures", () => {
  test("spec 05 §12.8 produced copies only new and content-changed files, excludes left out", async () => {
    const exclude = ["*.log"];
    const ws = await resolveWorkspace({
      ...request,
      root,
      baseline: { exclude: excludeTest(captureExcludes("produced", exclude)) },
    });
    expect([...(ws.baseline?.keys() ?? [])].sort()).toEqual(["README", "src/main.py"]);
    await writeFile(join(ws.path, "src", "main.py"), "print('changed')\n");
    await writeFile(join(ws.path, "result.csv"), "a,b\n");
    await mkdir(join(ws.path, "__pycache__"));
    await writeFile(join(ws.path, "__pycache__", "main.cpython.pyc"), "bytecode");
    await writeFile(join(ws.path, "run.log"), "log");
    const destination = captureDestination(output, "q1", "abc123");
    const outcome = await captureWorkspace({
      mode: "produced",
      workspace: ws,
      destination,
      exclude,
      baseline: ws.baseline ?? null,
    });
    expect(outcome).toEqual({ status: "captured", destination, copiedFileCount: 2, copyErrors: [] });
    expect(await listing(destination)).toEqual(["result.csv", "src/main.py"]);
    expect(await readFile(join(destination, "src", "main.py"), "utf8")).toBe("print('changed')\n");
  });

  test("spec 05 §12.8 full copies everything, excluded names too, and keeps symbolic links as links", async () => {
    const ws = await resolveWorkspace({ ...request, root });
    await mkdir(join(ws.path, "__pycache__"));
    await writeFile(join(ws.path, "__pycache__", "x.pyc"), "bytecode");
    await symlink(join(ws.path, "src", "main.py"), join(ws.path, "main-link"));
    await symlink("/etc/hostname", join(ws.path, "outside-link"));
    const destination = captureDestination(output, "q/1", "r:1");
    expect(destination).toBe(join(output, "q_1__r_1"));
    const outcome = await captureWorkspace({
      mode: "full",
      workspace: ws,
      destination,
      exclude: ["*.pyc"],
      baseline: null,
    });
    expect(outcome).toMatchObject({ status: "captured", copiedFileCount: 5 });
    expect(await listing(destination)).toEqual([
      "README",
      "__pycache__/x.pyc",
      "main-link",
      "outside-link",
      "src/main.py",
    ]);
    // A link inside the workspace points into the capture; one leading outside is kept as it was.
    expect(await readlink(join(destination, "main-link"))).toBe(join("src", "main.py"));
    expect(await readlink(join(destination, "outside-link"))).toBe("/etc/hostname");
  });

  test("spec 05 §12.8 an entry that cannot be copied makes the capture captured_with_errors", async () => {
    const ws = await resolveWorkspace({ ...request, root });
    expect(spawnSync("mkfifo", [join(ws.path, "pipe")]).status).toBe(0);
    const destination = captureDestination(output, "q1", "r1");
    const outcome = await captureWorkspace({
      mode: "full",
      workspace: ws,
      destination,
      exclude: [],
      baseline: null,
    });
    expect(outcome.status).toBe("captured_with_errors");
    expect(outcome).toMatchObject({ copiedFileCount: 2 });
    expect(outcome.copyErrors).toEqual(["pipe: not a regular file, a directory or a symbolic link"]);
  });

  test("spec 05 §12.8 skipped: no workspace, a workspace gone, a destination that cannot be made", async () => {
    const capture = (workspace: Awaited<ReturnType<typeof resolveWorkspace>> | null, destination: string) =>
      captureWorkspace({ mode: "full", workspace, destination, exclude: [], baseline: null });
    expect(await capture(null, join(output, "a"))).toEqual({
      status: "skipped",
      skipReason: "no_workspace",
      copyErrors: [],
    });
    const gone = await resolveWorkspace({ ...request, root });
    await rm(gone.path, { recursive: true });
    expect(await capture(gone, join(output, "b"))).toMatchObject({
      status: "skipped",
      skipReason: "workspace_missing",
    });
    const ws = await resolveWorkspace({ ...request, root });
    await writeFile(join(dir, "a-file"), "");
    const failed = await capture(ws, join(dir, "a-file", "dest"));
    expect(failed).toMatchObject({ status: "skipped", skipReason: "copy_failed", copyErrors: ["ENOTDIR"] });
  });

  test("spec 05 §12.2 full mode with an output dir: the working directory is the capture destination, not a copy", async () => {
    const destination = captureDestination(output, "q1", "r1");
    const ws = await resolveWorkspace({ ...request, root, outputPath: destination });
    expect(ws.path).toBe(destination);
    expect(ws.isCopy).toBe(false);
    expect(await listing(destination)).toEqual(["README", "src/main.py"]);
    await writeFile(join(ws.path, "made.txt"), "new");
    const outcome = await captureWorkspace({
      mode: "full",
      workspace: ws,
      destination,
      exclude: [],
      baseline: null,
    });
    expect(outcome).toEqual({ status: "captured", destination, copiedFileCount: 3, copyErrors: [] });
  });

  test("spec 05 §12.2 the baseline is size and content hash, so a rewrite with the same bytes is not produced", async () => {
    const ws = join(root, "task");
    const none = excludeTest([]);
    const before = await snapshotWorkspace(ws, none);
    await writeFile(join(ws, "README"), "read me\n");
    await writeFile(join(ws, "src", "main.py"), "print('ho')\n");
    expect(producedPaths(before, await snapshotWorkspace(ws, none))).toEqual(["src/main.py"]);
  });
});

describe("the manifest", () => {
  const row = (resultId: string, status: CaptureManifestRow["status"] = "captured"): CaptureManifestRow => ({
    question_id: "q1",
    result_id: resultId,
    run_name: "run",
    replicate: null,
    scenario_id: null,
    scenario_node: null,
    scenario_turn: null,
    answering: { interface: "openai_endpoint", model_name: "a", tools: [], config_id: null },
    parsing: { interface: "openai_endpoint", model_name: "p", tools: [], config_id: null },
    capture_mode: "produced",
    source_workspace_path: "/w",
    destination: `/c/${resultId}`,
    status,
    copied_file_count: 1,
    copy_errors: [],
  });

  test("spec 05 §12.8 compaction turns manifest.jsonl into manifest.json, after the rows already there", async () => {
    await appendManifestRow(output, row("r1"));
    await compactManifest(output);
    await appendManifestRow(output, row("r2"));
    // A half line from a killed run is left out.
    await writeFile(manifestLogPath(output), '{"question_id": "q', { flag: "a" });
    expect(await compactManifest(output)).toBe(2);
    const compacted = JSON.parse(await readFile(manifestPath(output), "utf8"));
    expect(compacted).toEqual([row("r1"), row("r2")]);
    expect(await readdir(output)).toEqual(["manifest.json"]);
    expect(await compactManifest(output)).toBeNull();
  });
});
