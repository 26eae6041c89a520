import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { thrown } from "../../test-support/thrown.js";
import {
  ManualTraces,
  ReplayFileError,
  ReplayMissError,
  ReplayStore,
  replayStoreFromManualTraces,
} from "../index.js";

const trace = (text: string) => ({ raw_trace: `--- AI Message ---\n${text}` });

describe("lookup", () => {
  test("walks the ladder from the most specific entry to the full wildcard", () => {
    const store = new ReplayStore();
    store.register({ question_id: "q" }, trace("any"));
    store.register({ question_id: "q", replicate: 2 }, trace("any model, replicate 2"));
    store.register(
      { question_id: "q", answering_model_id: "langchain:gpt-5" },
      trace("gpt-5, any replicate"),
    );
    store.register(
      { question_id: "q", answering_model_id: "langchain:gpt-5", replicate: 2 },
      trace("gpt-5, replicate 2"),
    );
    const answer = (request: Record<string, unknown>) =>
      store.lookup({ question_id: "q", ...request })?.raw_trace.split("\n")[1];
    expect(answer({ answering_model_id: "langchain:gpt-5", replicate: 2 })).toBe("gpt-5, replicate 2");
    expect(answer({ answering_model_id: "langchain:gpt-5", replicate: 1 })).toBe("gpt-5, any replicate");
    expect(answer({ answering_model_id: "langchain:other", replicate: 2 })).toBe("any model, replicate 2");
    expect(answer({ answering_model_id: "langchain:other", replicate: 3 })).toBe("any");
    expect(answer({})).toBe("any");
  });

  test("the model axis outranks the visit axis, which outranks the replicate axis", () => {
    const store = new ReplayStore();
    store.register({ question_id: "q", visit_index: 1, replicate: 1 }, trace("visit and replicate"));
    store.register({ question_id: "q", answering_model_id: "m" }, trace("model only"));
    expect(
      store.lookup({ question_id: "q", answering_model_id: "m", visit_index: 1, replicate: 1 })?.raw_trace,
    ).toContain("model only");
    store.register({ question_id: "q", visit_index: 1 }, trace("visit only"));
    store.register({ question_id: "q", replicate: 1 }, trace("replicate only"));
    expect(
      store.lookup({ question_id: "q", answering_model_id: "x", visit_index: 1, replicate: 1 })?.raw_trace,
    ).toContain("visit and replicate");
    expect(
      store.lookup({ question_id: "q", answering_model_id: "x", visit_index: 1, replicate: 9 })?.raw_trace,
    ).toContain("visit only");
  });

  test("a specific entry never answers a request that leaves its axis open", () => {
    const store = new ReplayStore();
    store.register({ question_id: "q", replicate: 2 }, trace("replicate 2"));
    expect(store.lookup({ question_id: "q" })).toBeNull();
  });

  test("scenario entries are found by scenario and node", () => {
    const store = new ReplayStore();
    store.register({ question_id: "q", scenario_id: "s", scenario_node: "n1" }, trace("node 1"));
    expect(
      store.lookup({ question_id: "other", scenario_id: "s", scenario_node: "n1" })?.raw_trace,
    ).toContain("node 1");
    expect(store.lookup({ question_id: "q", scenario_id: "s", scenario_node: "n2" })).toBeNull();
    expect(store.lookup({ question_id: "q" })).toBeNull();
    expect(store.hasAnyFor({ scenario_id: "s" })).toBe(true);
    expect(store.hasAnyFor({ scenario_id: "s", scenario_node: "n2" })).toBe(false);
    expect(store.hasAnyFor({ question_id: "q" })).toBe(false);
  });

  test("a strict store throws ReplayMissError naming the request; fall-through returns null", () => {
    const strict = new ReplayStore({ missPolicy: "strict" });
    strict.register({ question_id: "q1" }, trace("x"));
    const error = thrown(ReplayMissError, () =>
      strict.lookup({ question_id: "q2", answering_model_id: "m", replicate: 1 }),
    );
    expect(error.message).toBe(
      "no replay entry for question q2, answering model m, replicate 1 (strict replay store of 1 entries)",
    );
    expect(error.key).toMatchObject({ question_id: "q2", replicate: 1 });
    expect(new ReplayStore().lookup({ question_id: "q2" })).toBeNull();
  });
});

test("registering a key again replaces its entry, keeps its place, and warns", () => {
  const store = new ReplayStore();
  expect(store.register({ question_id: "a" }, trace("first"))).toBeNull();
  store.register({ question_id: "b" }, trace("b"));
  const warning = store.register({ question_id: "a" }, trace("second"));
  expect(warning).toMatch(/replay entry for question a registered again/);
  expect(store.warnings).toEqual([warning]);
  expect(store.entries().map((e) => [e.key.question_id, e.entry.raw_trace.split("\n")[1]])).toEqual([
    ["a", "second"],
    ["b", "b"],
  ]);
  expect(store.lookup({ question_id: "a" })?.raw_trace).toContain("second");
});

describe("the replay file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "karenina-replay-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("saves entries in registration order with sorted keys and reads them back", async () => {
    const store = new ReplayStore({ missPolicy: "strict" });
    store.register(
      { replicate: 1, question_id: "q2" },
      { verify_result: true, raw_trace: "t2", agent_metrics: { limit_reached: false, iterations: 1 } },
    );
    store.register({ question_id: "q1" }, { raw_trace: "" });
    const path = join(dir, "replay.json");
    await store.save(path);
    const text = await readFile(path, "utf8");
    expect(
      text.startsWith(
        '{\n  "entries": [\n    {\n      "entry": {\n        "agent_metrics": {\n          "iterations": 1,',
      ),
    ).toBe(true);
    const data = JSON.parse(text);
    expect(data.version).toBe(1);
    expect(data.miss_policy).toBe("strict");
    expect(data.entries[0].key).toEqual({
      answering_model_id: null,
      question_id: "q2",
      replicate: 1,
      scenario_id: null,
      scenario_node: null,
      visit_index: null,
    });
    expect(Object.keys(data.entries[0].entry)).toEqual([...Object.keys(data.entries[0].entry)].sort());
    const loaded = await ReplayStore.load(path);
    expect(loaded.missPolicy).toBe("strict");
    expect(loaded.entries()).toEqual(store.entries());
    expect(loaded.serialize()).toBe(text);
    expect((await ReplayStore.load(path, { missPolicy: "fall_through" })).missPolicy).toBe("fall_through");
  });

  test("a file without miss_policy reads as fall_through", () => {
    const store = ReplayStore.parse(
      JSON.stringify({ version: 1, entries: [{ key: { question_id: "q" }, entry: { raw_trace: "x" } }] }),
    );
    expect(store.missPolicy).toBe("fall_through");
    expect(store.size).toBe(1);
  });

  test("an unknown version or a malformed entry names the file and the JSON path", async () => {
    const path = join(dir, "bad.json");
    await writeFile(path, JSON.stringify({ version: 2, entries: [] }));
    const version = (await ReplayStore.load(path).catch((e: unknown) => e)) as ReplayFileError;
    expect(version).toBeInstanceOf(ReplayFileError);
    expect(version.message).toBe(
      `${path}: $.version: unsupported version the number 2 (this library reads version 1)`,
    );
    const malformed = () =>
      ReplayStore.parse(
        JSON.stringify({ version: 1, entries: [{ key: { question_id: "q" }, entry: { raw_trace: 7 } }] }),
        "r.json",
      );
    expect(malformed).toThrow("r.json: $.entries[0].entry.raw_trace: expected string, found the number 7");
    expect(() => ReplayStore.parse("[]", "r.json")).toThrow(/r\.json: \$: expected an object/);
    expect(() => ReplayStore.parse("{", "r.json")).toThrow(/r\.json: \$: not valid JSON/);
    expect(() =>
      ReplayStore.parse(
        JSON.stringify({
          version: 1,
          entries: [{ key: { question_id: "q", extra: 1 }, entry: { raw_trace: "" } }],
        }),
        "r.json",
      ),
    ).toThrow('r.json: $.entries[0].key.extra: unknown field "extra"');
  });

  test("a save that cannot be written names the file and the reason", async () => {
    const store = new ReplayStore();
    const error = await store.save(join(dir, "missing-dir", "replay.json")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayFileError);
    expect((error as Error).message).toMatch(/cannot save the replay store \(ENOENT\)/);
  });
});

describe("from manual traces", () => {
  const questions = [
    { id: "urn:uuid:question-custom-id", text: "What is 2+2?" },
    { id: "q-without-trace", text: "What is 3+3?" },
  ];

  test("keys entries by the questions' actual ids, strict by default", () => {
    const traces = new ManualTraces({ questions });
    traces.registerTrace("What is 2+2?", "--- AI Message ---\n4", { mapToId: true });
    const store = replayStoreFromManualTraces(traces, questions);
    expect(store.missPolicy).toBe("strict");
    expect(store.size).toBe(1);
    expect(
      store.lookup({
        question_id: "urn:uuid:question-custom-id",
        answering_model_id: "manual:manual",
        replicate: 3,
      }),
    ).toEqual({
      raw_trace: "--- AI Message ---\n4",
      trace_messages: null,
      parsed_answer_fields: null,
      verify_result: null,
      usage_metadata: null,
      agent_metrics: null,
      captured_model_id: "manual",
      captured_at: null,
    });
    expect(() => store.lookup({ question_id: "q-without-trace" })).toThrow(ReplayMissError);
    expect(
      replayStoreFromManualTraces(traces, questions, { missPolicy: "fall_through" }).lookup({
        question_id: "x",
      }),
    ).toBeNull();
  });
});
