/** The limits of the workspace tools; every one keeps a tool result small enough for a model's context. */
export interface WorkspaceToolLimits {
  /** Entries `list_files` returns at most. */
  listMaxEntries: number;
  /** Bytes of text `read_file` returns at most in one call (ask for a line range to read further). */
  readMaxBytes: number;
  /** Matches `search_files` returns at most. */
  searchMaxMatches: number;
  /** Files larger than this are not searched (they are counted as skipped). */
  searchMaxFileBytes: number;
  /** Characters of a matching line that `search_files` shows. */
  searchLineChars: number;
  /** Bytes `write_file` writes at most. */
  writeMaxBytes: number;
  /** Bytes of stdout, and of stderr, that `run_command` keeps. */
  commandOutputBytes: number;
  /** Milliseconds `run_command` lets a command run before killing it and its children. */
  commandTimeoutMs: number;
}

export const DEFAULT_TOOL_LIMITS: Readonly<WorkspaceToolLimits> = Object.freeze({
  listMaxEntries: 500,
  readMaxBytes: 100_000,
  searchMaxMatches: 100,
  searchMaxFileBytes: 2_000_000,
  searchLineChars: 300,
  writeMaxBytes: 2_000_000,
  commandOutputBytes: 64_000,
  commandTimeoutMs: 60_000,
});
