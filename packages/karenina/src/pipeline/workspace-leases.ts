import type { Workspace } from "../agentic/index.js";

/**
 * Who still needs a workspace. An answer shared by several judges (spec 04 §15.3) shares its workspace too:
 * each judge investigates the directory the answering agent left, and only the last task to finish may
 * clean it up. A workspace not shared here has one holder.
 */
export class WorkspaceLeases {
  readonly #holders = new WeakMap<Workspace, number>();

  /** `holders` tasks will use `workspace`, and each will release it once. */
  share(workspace: Workspace, holders: number): void {
    if (holders > 1) this.#holders.set(workspace, holders);
  }

  /** One holder is done with `workspace`; true when it was the last, so the workspace may be cleaned up. */
  release(workspace: Workspace): boolean {
    const holders = this.#holders.get(workspace) ?? 1;
    if (holders <= 1) {
      this.#holders.delete(workspace);
      return true;
    }
    this.#holders.set(workspace, holders - 1);
    return false;
  }
}
