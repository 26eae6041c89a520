import { readFile } from "node:fs/promises";
import { WorkspaceToolError } from "./errors.js";
import type { WorkspaceToolLimits } from "./limits.js";
import { existingStats, toolPath } from "./tool-paths.js";
import { displayPath, looksBinary, walk } from "./walk.js";

export interface SearchFilesInput {
  /** The text to find, or a JavaScript regular expression when `regex` is true. */
  pattern: string;
  /** A file or directory of the workspace to search; the whole workspace by default. */
  path?: string;
  regex?: boolean;
  /** True by default. */
  case_sensitive?: boolean;
}

export interface SearchMatch {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

export interface SearchFilesOutput {
  matches: SearchMatch[];
  /** True when `searchMaxMatches` stopped the search. */
  truncated: boolean;
  files_searched: number;
  /** Binary files and files over `searchMaxFileBytes`, not searched. */
  files_skipped: number;
}

function matcher(input: SearchFilesInput): RegExp {
  const flags = input.case_sensitive === false ? "i" : "";
  const source = input.regex ? input.pattern : input.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new WorkspaceToolError(
      "search_files",
      `pattern ${JSON.stringify(input.pattern)}: expected a valid regular expression (${(error as Error).message})`,
    );
  }
}

/** The lines of the workspace's text files that match a text or a regular expression, in path order. */
export async function searchFiles(
  workspace: string,
  input: SearchFilesInput,
  limits: Pick<WorkspaceToolLimits, "searchMaxMatches" | "searchMaxFileBytes" | "searchLineChars">,
): Promise<SearchFilesOutput> {
  const pattern = matcher(input);
  const requested = input.path ?? ".";
  const start = await toolPath("search_files", workspace, requested);
  const stats = await existingStats("search_files", start, requested);
  if (!stats.isDirectory() && !stats.isFile()) {
    throw new WorkspaceToolError(
      "search_files",
      `${JSON.stringify(requested)}: expected a file or directory, found a special file`,
    );
  }
  const files = stats.isDirectory()
    ? walk(workspace, start, true)
    : [{ path: displayPath(workspace, start), type: "file" as const, size: stats.size, absolute: start }];
  const output: SearchFilesOutput = { matches: [], truncated: false, files_searched: 0, files_skipped: 0 };
  for await (const file of files) {
    if (file.type !== "file") continue;
    if ((file.size ?? 0) > limits.searchMaxFileBytes || (await looksBinary(file.absolute))) {
      output.files_skipped++;
      continue;
    }
    output.files_searched++;
    const lines = (await readFile(file.absolute, "utf8")).split(/\r?\n/);
    for (const [index, line] of lines.entries()) {
      if (!pattern.test(line)) continue;
      if (output.matches.length === limits.searchMaxMatches) return { ...output, truncated: true };
      output.matches.push({ path: file.path, line: index + 1, text: line.slice(0, limits.searchLineChars) });
    }
  }
  return output;
}
