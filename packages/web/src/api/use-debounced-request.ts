import { useEffect, useState } from "react";

/**
 * Where a debounced request stands; `value` is the last answer (kept while the next one is pending, so a
 * verdict does not flicker away on every keystroke).
 */
export interface RequestState<T> {
  readonly status: "idle" | "pending" | "done" | "failed";
  readonly value?: T;
  readonly message?: string;
}

/**
 * Runs `request` `delayMs` after `key` stops changing, aborting the one still in flight: typing never queues
 * requests, and an old answer never overwrites a newer one. A null key means nothing to ask (state idle).
 */
export function useDebouncedRequest<T>(
  key: string | null,
  request: (signal: AbortSignal) => Promise<T>,
  delayMs: number,
): RequestState<T> {
  const [state, setState] = useState<RequestState<T>>({ status: "idle" });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for everything the request reads.
  useEffect(() => {
    if (key === null) {
      setState({ status: "idle" });
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ status: "pending", value: previous.value }));
    const timer = setTimeout(() => {
      request(controller.signal).then(
        (value) => {
          if (!controller.signal.aborted) setState({ status: "done", value });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          setState({ status: "failed", message });
        },
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, delayMs]);
  return state;
}
