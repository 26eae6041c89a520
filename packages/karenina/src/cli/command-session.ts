/** What one run of a command shares with the CLI around it. */
export interface CommandSession {
  /** When the command started (epoch milliseconds): a run's reported wall time counts from here. */
  readonly startedAt: number;
  /**
   * Work for when the command ends, however it ends (success, error, usage error): e.g. stopping a Python
   * sandbox it started early, so that a command that stops before using it does not wait for its start.
   */
  atEnd(cleanup: () => Promise<void>): void;
}

/** A session and the function that ends it: runs every `atEnd` cleanup, latest first, errors ignored. */
export function commandSession(startedAt: number = Date.now()): {
  session: CommandSession;
  end: () => Promise<void>;
} {
  const cleanups: (() => Promise<void>)[] = [];
  return {
    session: { startedAt, atEnd: (cleanup) => void cleanups.push(cleanup) },
    end: async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
    },
  };
}
