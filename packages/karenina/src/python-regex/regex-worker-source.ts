/**
 * The regex worker thread: plain JavaScript run with `new Worker(source, { eval: true })`, so the same text
 * works from compiled code and from TypeScript sources under Vitest. It only compiles and runs regexes; it
 * loads no module of ours and touches no file.
 *
 * Protocol (one request at a time, see deadline-runner.ts): the host posts a {@link RegexRequest} on the
 * port, then bumps `control[REQUESTS]`; the worker sleeps in `Atomics.wait` on that slot, takes the message
 * with `receiveMessageOnPort`, runs it, posts a {@link RegexReply}, then sets `control[REPLIES]` to the number
 * of requests served. The worker never returns to its event loop, so a futex wake is the whole hand-over.
 */

/** Slots of the shared `Int32Array`. */
export const CONTROL = { REQUESTS: 0, REPLIES: 1, READY: 2, LENGTH: 3 } as const;

/** What the worker computes on `text` with `new RegExp(source, flags)`. */
export interface RegexResults {
  /** `new RegExp(source, flags)` only (kept for the next operation): whether V8 accepts the pattern. */
  compile: null;
  /** `regex.test(text)`: Python's `re.search(...) is not None`. */
  test: boolean;
  /** `regex.exec(text)` as a plain array (`undefined` for groups that did not take part), or null. */
  exec: (string | undefined)[] | null;
  /** The number of non-overlapping matches: Python's `len(re.findall(...))`. */
  count: number;
  /** Python's `re.findall(...)`: whole matches, the one group's texts, or tuples of all groups (`""` if unset). */
  findall: (string | string[])[];
  /**
   * Python's `re.finditer(...)`, the first {@link MATCH_LIST_LIMIT} matches: each match's offset in `text`
   * (UTF-16 code units, as JavaScript strings index) and its text.
   */
  matches: { index: number; text: string }[];
  /**
   * The 0-based numbers of the lines of `text` (split at `\n`, a `\r` before it dropped) on which
   * `regex.test` succeeds: a line-by-line search of a whole file in one evaluation, under one deadline.
   */
  lines: number[];
}

/** The most matches the `matches` operation lists (a regex tester shows a few; the count is not needed). */
export const MATCH_LIST_LIMIT = 100;

export type RegexOperation = keyof RegexResults;

export interface RegexRequest {
  op: RegexOperation;
  source: string;
  flags: string;
  text: string;
}

export type RegexReply =
  | { ok: true; value: unknown }
  | { ok: false; error: { name: string; message: string } };

export const REGEX_WORKER_SOURCE = `"use strict";
const { workerData, receiveMessageOnPort } = require("node:worker_threads");
const { control, port } = workerData;
const REQUESTS = ${CONTROL.REQUESTS}, REPLIES = ${CONTROL.REPLIES}, READY = ${CONTROL.READY};
const CACHE_LIMIT = 256;
const cache = new Map();

function compiled(source, flags) {
  const key = flags + "/" + source;
  let entry = cache.get(key);
  if (entry === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    const regex = new RegExp(source, flags);
    // Groups of the pattern: an empty alternative always matches "", with every group unset.
    const groups = flags.includes("g") ? new RegExp(source + "|", flags).exec("").length - 1 : 0;
    entry = { regex, groups };
    cache.set(key, entry);
  }
  return entry;
}

const OPERATIONS = {
  compile: (source, flags) => {
    compiled(source, flags);
    return null;
  },
  test: (source, flags, text) => compiled(source, flags).regex.test(text),
  exec: (source, flags, text) => {
    const match = compiled(source, flags).regex.exec(text);
    return match === null ? null : Array.from(match);
  },
  count: (source, flags, text) => {
    let count = 0;
    for (const _ of text.matchAll(compiled(source, flags + "g").regex)) count++;
    return count;
  },
  findall: (source, flags, text) => {
    const { regex, groups } = compiled(source, flags + "g");
    const out = [];
    for (const match of text.matchAll(regex)) {
      if (groups === 0) out.push(match[0]);
      else if (groups === 1) out.push(match[1] ?? "");
      else out.push(match.slice(1).map((group) => group ?? ""));
    }
    return out;
  },
  matches: (source, flags, text) => {
    const out = [];
    for (const match of text.matchAll(compiled(source, flags + "g").regex)) {
      out.push({ index: match.index, text: match[0] });
      if (out.length >= ${MATCH_LIST_LIMIT}) break;
    }
    return out;
  },
  lines: (source, flags, text) => {
    const regex = compiled(source, flags).regex;
    const out = [];
    const lines = text.split(/\\r?\\n/);
    for (let index = 0; index < lines.length; index++) if (regex.test(lines[index])) out.push(index);
    return out;
  },
};

function run(request) {
  const operation = Object.hasOwn(OPERATIONS, request.op) ? OPERATIONS[request.op] : undefined;
  if (operation === undefined) {
    return { ok: false, error: { name: "TypeError", message: "unknown operation " + String(request.op) } };
  }
  try {
    return { ok: true, value: operation(request.source, request.flags, request.text) };
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    return { ok: false, error: { name, message: error instanceof Error ? error.message : String(error) } };
  }
}

let served = 0;
Atomics.store(control, READY, 1);
Atomics.notify(control, READY);
for (;;) {
  Atomics.wait(control, REQUESTS, served);
  const received = receiveMessageOnPort(port);
  served++;
  port.postMessage(
    received === undefined
      ? { ok: false, error: { name: "Error", message: "the request did not arrive" } }
      : run(received.message),
  );
  Atomics.store(control, REPLIES, served);
  Atomics.notify(control, REPLIES);
}
`;
