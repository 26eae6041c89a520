import { mkdir, mkdtemp, readdir, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { treeFingerprint } from "./__fixtures__/test-helpers.js";
import { cleanupDecision, cleanupWorkspace } from "./cleanup.js";
import { resolveWorkspace, type Workspace } from "./resolve-workspace.js";

let base: string;
let root: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "karenina-cleanup-"));
  root = join(base, "root");
  await mkdir(join(root, "task_01", "src"), { recursive: true });
  await writeFile(join(root, "task_01", "src", "main.py"), "print('hi')\n");
  await writeFile(join(base, "elsewhere.txt"), "outside\n");
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const resolveTask = (copy: boolean, workspacePath: string | null = "task_01") =>
  resolveWorkspace({ root, questionId: "q-1", workspacePath, copy, replicate: null });

describe("seed 002 §5 workspace cleanup", () => {
  test("a working copy is removed when a workspace was resolved, cleanup is on and it is a copy", async () => {
    const ws = await resolveTask(true);
    expect(await cleanupWorkspace(ws, { cleanup: true })).toEqual({ status: "removed", path: ws.path });
    expect(await exists(ws.path)).toBe(false);
    expect(await readdir(root)).toEqual(["task_01"]);
  });

  test("a freshly created empty directory is removed like a copy", async () => {
    const ws = await resolveTask(true, null);
    expect((await cleanupWorkspace(ws, { cleanup: true })).status).toBe("removed");
    expect(await exists(ws.path)).toBe(false);
  });

  test("guard 1: nothing happens when no workspace was resolved", async () => {
    expect(await cleanupWorkspace(null, { cleanup: true })).toEqual({
      status: "skipped",
      reason: "no_workspace",
    });
  });

  test("guard 2: a copy stays when workspace_cleanup is off", async () => {
    const ws = await resolveTask(true);
    expect(await cleanupWorkspace(ws, { cleanup: false })).toEqual({
      status: "skipped",
      reason: "cleanup_off",
    });
    expect(await exists(ws.path)).toBe(true);
  });

  test("guard 3: an original used in place (workspace_copy=false) is never removed", async () => {
    const before = await treeFingerprint(root);
    const ws = await resolveTask(false);
    expect(await cleanupWorkspace(ws, { cleanup: true })).toEqual({ status: "skipped", reason: "original" });
    expect(await treeFingerprint(root)).toEqual(before);
  });

  test("cleanup failures are warnings, not errors", async () => {
    const ws = await resolveTask(true);
    await rename(root, join(base, "moved"));
    await writeFile(root, "a file where the root was\n");
    const outcome = await cleanupWorkspace(ws, { cleanup: true });
    expect(outcome).toEqual({
      status: "failed",
      path: ws.path,
      warning: `Failed to clean up workspace: ${ws.path} (ENOTDIR)`,
    });
  });
});

describe("cleanup never deletes an original", () => {
  test("a record that claims to be a copy of an original, but was not created here, is left alone", async () => {
    const forged: Workspace = { path: join(root, "task_01"), isCopy: true, source: null, skippedLinks: [] };
    expect(cleanupDecision(forged, { cleanup: true })).toBe("not_created_here");
    expect(await cleanupWorkspace(forged, { cleanup: true })).toEqual({
      status: "skipped",
      reason: "not_created_here",
    });
    expect(await exists(join(root, "task_01", "src", "main.py"))).toBe(true);
  });

  test("a resolved workspace cannot be turned into a copy after the fact", async () => {
    const ws = await resolveTask(false);
    expect(() => Object.assign(ws, { isCopy: true })).toThrow(TypeError);
  });

  test("keep leaves a working copy in place", async () => {
    const ws = await resolveTask(true);
    expect(await cleanupWorkspace(ws, { cleanup: true, keep: true })).toEqual({
      status: "skipped",
      reason: "kept",
    });
    expect(await exists(ws.path)).toBe(true);
  });

  test("the original's files and modes are unchanged after its copy, links and all, is deleted", async () => {
    await symlink(join(root, "task_01", "src"), join(root, "task_01", "src-link"));
    await symlink(join(base, "elsewhere.txt"), join(root, "task_01", "outside-link"));
    const before = await treeFingerprint(base);
    const ws = await resolveTask(true);
    await writeFile(join(ws.path, "src", "main.py"), "changed by the agent\n");
    await symlink(join(root, "task_01"), join(ws.path, "made-by-agent"));
    expect((await cleanupWorkspace(ws, { cleanup: true })).status).toBe("removed");
    expect(await treeFingerprint(base)).toEqual(before);
  });
});
