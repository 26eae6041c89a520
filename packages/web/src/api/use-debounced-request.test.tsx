// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { useDebouncedRequest } from "./use-debounced-request.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A request whose answers the test releases by hand, recording each key asked and whether it was aborted. */
function recordingRequest() {
  const calls: { key: string; signal: AbortSignal; answer: (value: string) => void }[] = [];
  const request = (key: string) => (signal: AbortSignal) =>
    new Promise<string>((resolve) => calls.push({ key, signal, answer: resolve }));
  return { calls, request };
}

test("typing asks once, after the delay, for the last key only", async () => {
  const { calls, request } = recordingRequest();
  const { result, rerender } = renderHook(({ key }) => useDebouncedRequest(key, request(key), 300), {
    initialProps: { key: "a" },
  });
  rerender({ key: "ab" });
  rerender({ key: "abc" });
  expect(result.current.status).toBe("pending");
  await act(async () => vi.advanceTimersByTime(300));
  expect(calls.map((call) => call.key)).toEqual(["abc"]);
  await act(async () => calls[0]?.answer("checked abc"));
  expect(result.current).toEqual({ status: "done", value: "checked abc" });
});

test("a newer key aborts the request in flight; its late answer is never shown, the last value stays while pending", async () => {
  const { calls, request } = recordingRequest();
  const { result, rerender } = renderHook(({ key }) => useDebouncedRequest(key, request(key), 100), {
    initialProps: { key: "one" },
  });
  await act(async () => vi.advanceTimersByTime(100));
  await act(async () => calls[0]?.answer("first"));
  rerender({ key: "two" });
  await act(async () => vi.advanceTimersByTime(100));
  rerender({ key: "three" });
  expect(calls[1]?.signal.aborted).toBe(true);
  expect(result.current).toEqual({ status: "pending", value: "first" });
  await act(async () => calls[1]?.answer("stale"));
  expect(result.current.value).toBe("first");
  await act(async () => vi.advanceTimersByTime(100));
  await act(async () => calls[2]?.answer("third"));
  expect(result.current).toEqual({ status: "done", value: "third" });
});

test("a null key asks nothing and is idle; a failure says why", async () => {
  const { result, rerender } = renderHook(
    ({ key }) => useDebouncedRequest(key, () => Promise.reject(new Error("server said no")), 50),
    { initialProps: { key: null as string | null } },
  );
  expect(result.current.status).toBe("idle");
  rerender({ key: "x" });
  await act(async () => vi.advanceTimersByTime(50));
  expect(result.current).toEqual({ status: "failed", message: "server said no" });
});
