/** How a container's command ended, as the engine reports it, shared by the `run_command` and deep-agent backends. */
import { constants as osConstants } from "node:os";

/** The init's exit status: above 128 its command was killed by signal (status - 128). */
export function initExit(status: number): { code: number | null; signal: NodeJS.Signals | null } {
  if (status <= 128) return { code: status, signal: null };
  const name = Object.entries(osConstants.signals).find(([, value]) => value === status - 128)?.[0];
  return name === undefined ? { code: status, signal: null } : { code: null, signal: name as NodeJS.Signals };
}

/** Resolves when `stream` ends, closes or fails. */
export function streamEnd(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    stream.once("end", done);
    stream.once("close", done);
    stream.once("error", done);
  });
}

/** Waits `ms` without keeping the process alive. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
