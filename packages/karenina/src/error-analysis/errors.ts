import { KareninaError } from "../errors/index.js";

/** The analysis directory could not be prepared or written (exit 1 in `karenina analyze-errors`). */
export class MaterializationError extends KareninaError {
  override readonly name: string = "MaterializationError";
}

/**
 * A launcher is unknown, cannot run here (its program is missing) or failed (exit 2). `kind` tells which:
 * `not_found`, `unavailable` or `execution`.
 */
export class LauncherError extends KareninaError {
  override readonly name: string = "LauncherError";

  constructor(
    readonly kind: "not_found" | "unavailable" | "execution",
    message: string,
  ) {
    super(message);
  }
}

/** The launcher finished but no `REPORT.md` is in the directory (exit 3; the normal end of `prepare-only`). */
export class ReportMissingError extends KareninaError {
  override readonly name: string = "ReportMissingError";

  constructor(readonly reportPath: string) {
    super(
      `no REPORT.md in ${reportPath.slice(0, -"/REPORT.md".length)}: the directory is prepared; run an analyst (e.g. claude -p @PROMPT.md there, or --launcher claude-code) to write ${reportPath}`,
    );
  }
}
