import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { rejected, treeFingerprint } from "./__fixtures__/test-helpers.js";
import {
  WorkspaceCopyError,
  WorkspaceError,
  WorkspaceEscapeError,
  WorkspaceRootMissingError,
  WorkspaceSourceMissingError,
} from "./errors.js";
import { resolveWorkspace, type WorkspaceRequest } from "./resolve-workspace.js";

const AT = new Date(2025, 0, 2, 3, 4, 5);
const STAMP = "run_20250102T030405_pid4242";

let base: string;
let root: string;
let outside: string;

/** A question workspace with modes to keep, links inside the tree, and links that lead out of it. */
async function makeTask(dir: string): Promise<void> {
  await mkdir(join(dir, "data", "deep"), { recursive: true });
  await writeFile(join(dir, "calculator.py"), "def div(a, b):\n    return a / b\n");
  await writeFile(join(dir, "run.sh"), "#!/bin/sh\necho run\n");
  await chmod(join(dir, "run.sh"), 0o755);
  await writeFile(join(dir, "data", "input.csv"), "a,b\n1,0\n");
  await writeFile(join(dir, "data", "frozen.txt"), "do not edit\n");
  await chmod(join(dir, "data", "frozen.txt"), 0o444);
  await writeFile(join(dir, "data", "deep", "notes.md"), "# notes\n");
  await chmod(join(dir, "data", "deep"), 0o700);
  await symlink("data/input.csv", join(dir, "latest.csv"));
  await symlink(join(dir, "data"), join(dir, "data-abs"));
  await symlink(join(outside, "secret.txt"), join(dir, "leak.txt"));
  await symlink("../task_02", join(dir, "sibling"));
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "karenina-workspace-"));
  root = join(base, "root");
  outside = join(base, "outside");
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "outside the root\n");
  await mkdir(join(root, "task_02"), { recursive: true });
  await makeTask(join(root, "task_01"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const request = (overrides: Partial<WorkspaceRequest> = {}): WorkspaceRequest => ({
  root,
  questionId: "q-1",
  workspacePath: "task_01",
  copy: true,
  replicate: null,
  now: AT,
  pid: 4242,
  ...overrides,
});

describe("seed 002 §2 workspace resolution", () => {
  test("the source is workspace_root / workspace_path, copied to workspace_root / {workspace_path}_run_{timestamp}_pid{pid}", async () => {
    const ws = await resolveWorkspace(request());
    expect(ws.path).toBe(join(root, `task_01_${STAMP}`));
    expect(ws.source).toBe(join(root, "task_01"));
    expect(ws.isCopy).toBe(true);
    expect(await readFile(join(ws.path, "calculator.py"), "utf8")).toBe("def div(a, b):\n    return a / b\n");
  });

  test("the suffix includes the replicate number when present", async () => {
    const ws = await resolveWorkspace(request({ replicate: 3 }));
    expect(ws.path).toBe(join(root, `task_01_${STAMP}_rep3`));
  });

  test("a nested workspace_path is copied beside its source", async () => {
    await makeTask(join(root, "suite", "task_09"));
    const ws = await resolveWorkspace(request({ workspacePath: "suite/task_09/" }));
    expect(ws.path).toBe(join(root, "suite", `task_09_${STAMP}`));
  });

  test("with workspace_copy=false the agent works in the source directly, and it is not a copy", async () => {
    const before = await readdir(root);
    const ws = await resolveWorkspace(request({ copy: false }));
    expect(ws).toMatchObject({ path: join(root, "task_01"), source: join(root, "task_01"), isCopy: false });
    expect(await readdir(root)).toEqual(before);
  });

  test("without a workspace_path an empty directory workspace_root / {question_id}_run_{timestamp}_pid{pid} is created, and it counts as a copy", async () => {
    for (const workspacePath of [null, ""]) {
      const ws = await resolveWorkspace(request({ workspacePath, questionId: `q-${workspacePath}` }));
      expect(ws.path).toBe(join(root, `q-${workspacePath}_${STAMP}`));
      expect(ws).toMatchObject({ isCopy: true, source: null });
      expect(await readdir(ws.path)).toEqual([]);
    }
  });

  test("a working directory that cannot be created is a workspace error naming it", async () => {
    const file = join(base, "not-a-directory");
    await writeFile(file, "");
    const error = await rejected(WorkspaceError, () =>
      resolveWorkspace(request({ root: file, workspacePath: null })),
    );
    expect(error.message).toBe(`cannot create the working directory ${join(file, `q-1_${STAMP}`)} (ENOTDIR)`);
  });

  test("a question id that is not one directory name is made safe for the empty directory's name", async () => {
    const ws = await resolveWorkspace(request({ workspacePath: null, questionId: "https://x.org/q/1" }));
    expect(ws.path).toBe(join(root, `https___x.org_q_1_${STAMP}`));
  });

  test("precondition: without a workspace root resolution fails and says how to set one", async () => {
    const error = await rejected(WorkspaceRootMissingError, () => resolveWorkspace(request({ root: null })));
    expect(error.message).toMatch(/question q-1: workspace root: .*workspaceRoot/);
  });

  test("precondition: a workspace_path naming no directory under the root fails and says what to fix", async () => {
    const missing = await rejected(WorkspaceSourceMissingError, () =>
      resolveWorkspace(request({ workspacePath: "task_99" })),
    );
    expect(missing.message).toBe(
      `question q-1: workspace_path "task_99": expected an existing directory at ${join(root, "task_99")}, ` +
        "found nothing. Create it, or correct the question's workspace_path (relative to the workspace root)",
    );
    const file = await rejected(WorkspaceSourceMissingError, () =>
      resolveWorkspace(request({ workspacePath: "task_01/calculator.py" })),
    );
    expect(file.message).toMatch(/found a file/);
    expect((await readdir(root)).sort()).toEqual(["task_01", "task_02"]);
  });
});

describe("working copies", () => {
  test("keep every file's bytes and mode and every directory's mode", async () => {
    const ws = await resolveWorkspace(request());
    const copy = await treeFingerprint(ws.path);
    const source = await treeFingerprint(join(root, "task_01"));
    const withoutLinks = (tree: Record<string, string>) =>
      Object.fromEntries(Object.entries(tree).filter(([, v]) => !v.startsWith("link")));
    expect(withoutLinks(copy)).toEqual(withoutLinks(source));
    expect(copy["data/deep"]).toBe("dir 700");
    expect(copy["data/frozen.txt"]).toMatch(/^file 444 /);
  });

  test("links inside the tree point into the copy; links leading out of it are left out and reported", async () => {
    const ws = await resolveWorkspace(request());
    expect(await readlink(join(ws.path, "latest.csv"))).toBe("data/input.csv");
    expect(await readlink(join(ws.path, "data-abs"))).toBe("data");
    expect(ws.skippedLinks).toEqual(["leak.txt", "sibling"]);
    expect((await readdir(ws.path)).sort()).toEqual([
      "calculator.py",
      "data",
      "data-abs",
      "latest.csv",
      "run.sh",
    ]);
  });

  test("leave the original untouched however the copy is changed", async () => {
    const before = await treeFingerprint(root);
    const ws = await resolveWorkspace(request());
    await writeFile(join(ws.path, "calculator.py"), "fixed\n");
    await writeFile(join(ws.path, "latest.csv"), "through a link\n");
    await writeFile(join(ws.path, "data-abs", "new.txt"), "through an absolute link\n");
    await chmod(join(ws.path, "run.sh"), 0o600);
    await rm(join(ws.path, "data", "deep"), { recursive: true });
    const after = await treeFingerprint(root);
    delete after[`task_01_${STAMP}`];
    for (const key of Object.keys(after)) if (key.startsWith(`task_01_${STAMP}/`)) delete after[key];
    expect(after).toEqual(before);
  });

  test("20 concurrent replicates of one question get 20 distinct, complete copies", async () => {
    const copies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => resolveWorkspace(request({ replicate: i + 1 }))),
    );
    expect(new Set(copies.map((c) => c.path)).size).toBe(20);
    const expected = await treeFingerprint(copies[0]?.path ?? "");
    for (const copy of copies) expect(await treeFingerprint(copy.path)).toEqual(expected);
  });

  test("20 concurrent tasks with the very same name never share a directory: the later ones get _2, _3, ...", async () => {
    const copies = await Promise.all(Array.from({ length: 20 }, () => resolveWorkspace(request())));
    const names = copies.map((c) => c.path.slice(root.length + 1)).sort();
    expect(new Set(names).size).toBe(20);
    expect(names).toContain(`task_01_${STAMP}`);
    expect(names).toContain(`task_01_${STAMP}_20`);
    const expected = await treeFingerprint(join(root, `task_01_${STAMP}`));
    for (const copy of copies) expect(await treeFingerprint(copy.path)).toEqual(expected);
  });

  test("a copy that fails is removed and reported", async () => {
    execFileSync("mkfifo", [join(root, "task_01", "pipe")]);
    const error = await rejected(WorkspaceCopyError, () => resolveWorkspace(request()));
    expect(error.message).toContain(`cannot copy the workspace ${join(root, "task_01")}`);
    expect((await readdir(root)).sort()).toEqual(["task_01", "task_02"]);
  });
});

describe("workspace paths that leave the root are refused", () => {
  const refused = async (workspacePath: string, copy = true) => {
    const error = await rejected(WorkspaceEscapeError, () =>
      resolveWorkspace(request({ workspacePath, copy })),
    );
    expect((await readdir(root)).sort()).not.toContainEqual(expect.stringContaining("_run_"));
    return error.message;
  };

  test("a path that climbs out with ..", async () => {
    expect(await refused("../outside")).toBe(
      `question q-1: workspace_path "../outside": expected a path inside ${root}, but it climbs out with \`..\``,
    );
    expect(await refused("task_01/../../outside", false)).toMatch(/climbs out/);
  });

  test("an absolute path, even one inside the root", async () => {
    expect(await refused(outside)).toMatch(/it is absolute/);
    expect(await refused(join(root, "task_01"))).toMatch(/it is absolute/);
  });

  test("a path that leads out through a symbolic link", async () => {
    await symlink(outside, join(root, "escape"));
    expect(await refused("escape")).toMatch(/resolves through a symbolic link to .*outside, outside it/);
    await mkdir(join(outside, "task_07"));
    await symlink(outside, join(root, "suite"));
    expect(await refused("suite/task_07", false)).toMatch(/symbolic link/);
  });

  test("the root itself, which a copy would land inside", async () => {
    expect(await refused(".")).toMatch(/names the workspace root itself/);
  });
});
