import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { confinedPath } from "../workspace/index.js";
import { WorkspaceToolError } from "./errors.js";

/** A path argument of `tool` resolved inside the workspace; refused when it leads out of it. */
export function toolPath(tool: string, workspace: string, requested: string): Promise<string> {
  return confinedPath(workspace, requested, `${tool}: path`);
}

/** The stats of an existing path (links followed: they were checked to stay inside). */
export async function existingStats(tool: string, path: string, requested: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch {
    throw new WorkspaceToolError(
      tool,
      `${JSON.stringify(requested)}: expected an existing path, found nothing`,
    );
  }
}
