import { KareninaError } from "../errors/index.js";

/**
 * A repair cannot go on: the source holds duplicate rows, the filters select nothing, the selected rows span
 * several runs, the preset lacks one of their models, or the rerun did not give one row per selected row. The
 * message says which and what to do.
 */
export class RepairError extends KareninaError {
  override readonly name: string = "RepairError";
}
