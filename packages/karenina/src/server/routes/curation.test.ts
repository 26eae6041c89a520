import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { PROTO_KEY } from "../../plain-data/index.js";
import { conformancePath, hasConformance, SKIP_REASON } from "../../test-support/conformance.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import type {
  CheckpointImported,
  Curation,
  CurationChanges,
  CurationSaved,
  CuratorQuestion,
  CuratorQuestionInput,
} from "../api-types/curator.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

type ErrorBody = { error: { code: string; message: string; details?: unknown } };

let counter = 0;
/** A new stored benchmark with questions, through the public routes. */
async function benchmarkWithQuestions(texts: readonly string[]): Promise<{ name: string; ids: string[] }> {
  const name = `bench-${++counter}`;
  expect((await call("POST", "/api/v2/benchmarks", { name })).status).toBe(201);
  const ids: string[] = [];
  for (const text of texts) {
    const added = await call<CuratorQuestion>("POST", `/api/v2/benchmarks/${name}/curation/questions`, {
      question: text,
      raw_answer: `Answer to ${text}`,
    });
    expect(added.status).toBe(201);
    ids.push(added.body.id);
  }
  return { name, ids };
}

const curation = async (name: string) =>
  (await call<Curation>("GET", `/api/v2/benchmarks/${name}/curation`)).body;
const patch = <T = CurationSaved>(name: string, changes: CurationChanges | string) =>
  call<T>("PATCH", `/api/v2/benchmarks/${name}/curation`, changes);

function asInput(question: CuratorQuestion): CuratorQuestionInput {
  return { ...question };
}

describe("GET /api/v2/benchmarks/{name}/curation", () => {
  test("answers metadata, rubric and questions in order; new questions are unfinished placeholders", async () => {
    const { name, ids } = await benchmarkWithQuestions(["What is 2+2?", "Capital of France?"]);
    const body = await curation(name);
    expect(body.name).toBe(name);
    expect(body.metadata).toMatchObject({ name, version: "1.0.0", license: null, keywords: [], custom: {} });
    expect(body.global_rubric).toBeNull();
    expect(body.questions.map((q) => q.id)).toEqual(ids);
    expect(ids[0]).toMatch(/^urn:uuid:question-what-is-2\+2-[0-9a-f]{8}$/);
    expect(body.questions[0]).toMatchObject({
      question: "What is 2+2?",
      has_template: false,
      finished: false,
      template_language: "Python",
      question_rubric: null,
    });
  });

  test("an unknown benchmark is a 404", async () => {
    const res = await call<ErrorBody>("GET", "/api/v2/benchmarks/nope/curation");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});

describe("PATCH /api/v2/benchmarks/{name}/curation", () => {
  test("saves only the questions sent, stamps date_modified, and keeps the others as they were", async () => {
    const { name, ids } = await benchmarkWithQuestions(["Q one?", "Q two?"]);
    const before = await curation(name);
    const [first, second] = before.questions as [CuratorQuestion, CuratorQuestion];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const saved = await patch(name, {
      upsert: [
        {
          ...asInput(first),
          answer_template: "class Answer(BaseAnswer):\n    value: int\n",
          finished: true,
          keywords: ["k"],
          custom_metadata: { level: 2 },
          question_rubric: { llm_traits: [{ name: "exact", description: "Exact?", kind: "boolean" }] },
        },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name, question_count: 2, finished_count: 1, deleted: [] });
    expect(saved.body.saved_questions[0]).toMatchObject({ id: ids[0], finished: true, has_template: true });
    const after = await curation(name);
    expect(after.questions[0]?.date_modified).not.toBe(first.date_modified);
    expect(after.questions[0]).toMatchObject({ keywords: ["k"], custom_metadata: { level: 2 } });
    expect(after.questions[0]?.question_rubric?.llm_traits[0]?.name).toBe("exact");
    expect(after.questions[1]).toEqual(second);
  });

  test("adds a new id at the end, deletes (unknown ids ignored), reorders, sets rubric and metadata", async () => {
    const { name, ids } = await benchmarkWithQuestions(["A?", "B?", "C?"]);
    const [a] = (await curation(name)).questions as [CuratorQuestion];
    const fresh: CuratorQuestionInput = {
      ...asInput(a),
      id: "urn:uuid:question-custom-1",
      question: "D?",
      raw_answer: "d",
    };
    const saved = await patch(name, {
      upsert: [fresh],
      delete: [ids[1] as string, "not-there"],
      order: ["urn:uuid:question-custom-1", ids[2] as string, ids[0] as string],
      global_rubric: { regex_traits: [{ name: "cites", description: "Cites", pattern: "\\[\\d+\\]" }] },
      metadata: {
        description: "Edited",
        creator: { "@type": "Person", name: "Ada", email: "ada@example.org" },
        license: "MIT",
        keywords: ["x"],
        publisher: "Press",
        custom: { domain: "letters" },
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.deleted).toEqual([ids[1]]);
    const after = await curation(name);
    expect(after.questions.map((q) => q.id)).toEqual(["urn:uuid:question-custom-1", ids[2], ids[0]]);
    expect(after.global_rubric?.regex_traits[0]?.name).toBe("cites");
    expect(after.metadata).toMatchObject({
      name,
      description: "Edited",
      creator: { "@type": "Person", name: "Ada", email: "ada@example.org" },
      license: "MIT",
      keywords: ["x"],
      publisher: "Press",
      custom: { domain: "letters" },
    });
    const listed = await call<{ items: { name: string; creator: string; description: string }[] }>(
      "GET",
      "/api/v2/benchmarks",
    );
    expect(listed.body.items.find((b) => b.name === name)).toMatchObject({
      creator: "Ada",
      description: "Edited",
    });
  });

  test("an invalid template language is a 422 naming the question id and the field; nothing is written", async () => {
    const { name } = await benchmarkWithQuestions(["Q?"]);
    const [q] = (await curation(name)).questions as [CuratorQuestion];
    const res = await patch<ErrorBody>(name, {
      upsert: [{ ...asInput(q), template_language: "Rust" as "Python" }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain(JSON.stringify(q.id));
    expect(res.body.error.message).toContain("template_language");
  });

  test("a bad question rubric is a 422 naming the question id; a wrong order is a 422 on body.order", async () => {
    const { name, ids } = await benchmarkWithQuestions(["Q1?", "Q2?"]);
    const [q] = (await curation(name)).questions as [CuratorQuestion];
    const clash = await patch<ErrorBody>(name, {
      upsert: [
        {
          ...asInput(q),
          raw_answer: "changed",
          question_rubric: {
            llm_traits: [{ name: "same", description: "d", kind: "boolean" }],
            regex_traits: [{ name: "same", description: "d", pattern: "x" }],
          },
        },
      ],
    });
    expect(clash.status).toBe(422);
    expect(clash.body.error.message).toContain(JSON.stringify(q.id));
    const order = await patch<ErrorBody>(name, { order: [ids[0] as string] });
    expect(order.status).toBe(422);
    expect(order.body.error.message).toMatch(/^body\.order: /);
    expect((await curation(name)).questions[0]?.raw_answer).toBe(q.raw_answer);
  });

  test("renaming through metadata.name is a 422 rename_not_supported", async () => {
    const { name } = await benchmarkWithQuestions([]);
    const res = await patch<ErrorBody>(name, { metadata: { name: "renamed" } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("rename_not_supported");
    expect((await patch(name, { metadata: { name } })).status).toBe(200);
  });

  test("attack: __proto__ keys in custom_metadata and metadata.custom stay data; nothing is polluted", async () => {
    const { name } = await benchmarkWithQuestions(["Q?"]);
    const [q] = (await curation(name)).questions as [CuratorQuestion];
    const body = JSON.stringify({
      upsert: [{ ...q, custom_metadata: { ok: 1 } }],
      metadata: { custom: { ok: 2 } },
    })
      .replace('"custom_metadata":{"ok":1}', '"custom_metadata":{"__proto__":{"polluted":true},"ok":1}')
      .replace('"custom":{"ok":2}', '"custom":{"__proto__":{"polluted":true},"ok":2}');
    const res = await patch(name, body);
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const text = await (await fetch(`${server.url}/api/v2/benchmarks/${name}/curation`)).text();
    const after = JSON.parse(text) as Curation;
    const custom = after.questions[0]?.custom_metadata as Record<string, unknown>;
    expect(Object.hasOwn(custom, PROTO_KEY)).toBe(true);
    expect(custom.ok).toBe(1);
    expect(Object.hasOwn(after.metadata.custom, PROTO_KEY)).toBe(true);
  });

  test("attack: a 10 MB template is stored and read back (within the 16 MiB body limit)", async () => {
    const { name } = await benchmarkWithQuestions(["Big?"]);
    const [q] = (await curation(name)).questions as [CuratorQuestion];
    const big = `# ${"x".repeat(10 * 1024 * 1024)}\n`;
    const res = await patch(name, { upsert: [{ ...asInput(q), answer_template: big }] });
    expect(res.status).toBe(200);
    expect((await curation(name)).questions[0]?.answer_template.length).toBe(big.length);
  });
});

describe("POST /api/v2/benchmarks/{name}/curation/questions", () => {
  test("a clone copies template, metadata, rubric and few-shot under [CLONED], unfinished, right after the source", async () => {
    const { name, ids } = await benchmarkWithQuestions(["Source?", "Last?"]);
    const [source] = (await curation(name)).questions as [CuratorQuestion];
    await patch(name, {
      upsert: [
        {
          ...asInput(source),
          answer_template: "class Answer(BaseAnswer):\n    value: str\n",
          finished: true,
          custom_metadata: { k: "v" },
          few_shot_examples: [{ question: "q", answer: "a" }],
          question_rubric: { llm_traits: [{ name: "t", description: "d", kind: "boolean" }] },
        },
      ],
    });
    const clone = await call<CuratorQuestion>("POST", `/api/v2/benchmarks/${name}/curation/questions`, {
      question: "ignored for a clone",
      raw_answer: "ignored",
      clone_of: ids[0],
      after_id: ids[0],
    });
    expect(clone.status).toBe(201);
    expect(clone.body.id).not.toBe(ids[0]);
    expect(clone.body).toMatchObject({
      question: "[CLONED] Source?",
      answer_template: "class Answer(BaseAnswer):\n    value: str\n",
      finished: false,
      custom_metadata: { k: "v" },
      few_shot_examples: [{ question: "q", answer: "a" }],
    });
    expect(clone.body.question_rubric?.llm_traits[0]?.name).toBe("t");
    expect((await curation(name)).questions.map((q) => q.id)).toEqual([ids[0], clone.body.id, ids[1]]);
  });

  test("a second question with the same text gets a different id; unknown clone_of is a 404", async () => {
    const { name, ids } = await benchmarkWithQuestions(["Same?", "Same?"]);
    expect(new Set(ids).size).toBe(2);
    const res = await call<ErrorBody>("POST", `/api/v2/benchmarks/${name}/curation/questions`, {
      question: "x",
      raw_answer: "y",
      clone_of: "nope",
    });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain("clone_of");
  });
});

describe("GET /api/v2/benchmarks/{name}/checkpoint", () => {
  test("downloads the library's serialization, which loads back into an equal benchmark", async () => {
    const { name } = await benchmarkWithQuestions(["Q?"]);
    const res = await fetch(`${server.url}/api/v2/benchmarks/${name}/checkpoint`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="karenina_checkpoint_\d{8}_\d{6}\.jsonld"$/,
    );
    expect(res.headers.get("content-type")).toMatch(/^application\/ld\+json/);
    const text = await res.text();
    const stored = await server.deps.storage.loadBenchmark(name);
    expect(text).toBe(stored.serialize({ saveDeepJudgmentConfig: true }));
    expect(Benchmark.parse(text).equals(stored)).toBe(true);
  });
});

describe("POST /api/v2/benchmarks/imports", () => {
  const imports = <T>(body: unknown) => call<T>("POST", "/api/v2/benchmarks/imports", body);

  test.skipIf(!hasConformance)(
    `stores a conformance checkpoint with counts${hasConformance ? "" : ` (${SKIP_REASON})`}`,
    async () => {
      const content = await readFile(conformancePath("checkpoints/with_rubrics.jsonld"), "utf8");
      const expected = Benchmark.parse(content);
      const res = await imports<CheckpointImported>({
        file_name: "with_rubrics.jsonld",
        content,
        name: "imported-1",
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        name: "imported-1",
        format: "jsonld",
        question_count: expected.questionCount,
        finished_count: expected.finishedCount,
        with_template_count: expected.getQuestionIds().filter((id) => expected.hasTemplate(id)).length,
        has_global_rubric: expected.getGlobalRubric() !== null,
      });
      const again = await imports<ErrorBody>({
        file_name: "with_rubrics.jsonld",
        content,
        name: "imported-1",
      });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("benchmark_exists");
      const replaced = await imports<CheckpointImported>({
        file_name: "with_rubrics.jsonld",
        content,
        name: "imported-1",
        replace: true,
      });
      expect(replaced.status).toBe(201);
      expect((await curation("imported-1")).questions).toHaveLength(expected.questionCount);
    },
  );

  test("converts the original GUI's legacy v2.0 file", async () => {
    const content = JSON.stringify({
      version: "2.0",
      checkpoint: {
        "q-1": {
          question: "What is 2+2?",
          raw_answer: "4",
          original_answer_template: "",
          answer_template: "class Answer(BaseAnswer):\n    value: int\n",
          last_modified: "2024-05-01T10:00:00",
          finished: true,
        },
      },
      global_rubric: null,
      dataset_metadata: { name: "legacy-import", version: "1.0.0" },
    });
    const res = await imports<CheckpointImported>({ file_name: "old.json", content });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "legacy-import",
      format: "legacy-v2",
      question_count: 1,
      finished_count: 1,
    });
    expect((await curation("legacy-import")).questions[0]?.date_modified).toBe("2024-05-01T10:00:00");
  });

  test("attack: a legacy file with a wrong type is a 422 naming the file, the item and the field", async () => {
    const content = JSON.stringify({
      version: "2.0",
      checkpoint: {
        "q-1": {
          question: "Q?",
          raw_answer: "A",
          original_answer_template: "",
          answer_template: 42,
          last_modified: "2024",
          finished: true,
        },
      },
    });
    const res = await imports<ErrorBody>({ file_name: "bad.json", content, name: "never-stored" });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain("bad.json");
    expect(res.body.error.message).toContain('$.checkpoint["q-1"].answer_template');
    expect((await call("GET", "/api/v2/benchmarks/never-stored/curation")).status).toBe(404);
  });

  test("attack: a legacy file whose template loops at import time, with a callable trait, is imported without running anything", async () => {
    // A pickled callable that would loop forever when unpickled: exec("while True: pass").
    const loopingPickle = "gASVLAAAAAAAAACMCGJ1aWx0aW5zlIwEZXhlY5STlIwQd2hpbGUgVHJ1ZTogcGFzc5SFlFKULg==";
    const content = JSON.stringify({
      version: "2.0",
      checkpoint: {
        "q-loop": {
          question: "Does this hang?",
          raw_answer: "No",
          original_answer_template: "",
          answer_template: "while True:\n    pass\n\nclass Answer(BaseAnswer):\n    value: int\n",
          last_modified: "2024-05-01T10:00:00",
          finished: true,
          question_rubric: {
            callable_traits: [{ name: "loops", kind: "boolean", callable_code: loopingPickle }],
          },
        },
      },
      dataset_metadata: { name: "legacy-looping", version: "1.0.0" },
    });
    const res = await fetch(`${server.url}/api/v2/benchmarks/imports`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ file_name: "loop.json", content }),
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as CheckpointImported).question_count).toBe(1);
    const [question] = (await curation("legacy-looping")).questions;
    expect(question?.answer_template).toContain("while True:");
    expect(question?.question_rubric?.callable_traits).toMatchObject([
      { name: "loops", callable_code: loopingPickle },
    ]);
  }, 10_000);

  test("attack: a legacy file's __proto__-keyed custom metadata pollutes nothing", async () => {
    const item = {
      question: "Q?",
      raw_answer: "A",
      original_answer_template: "",
      answer_template: "",
      last_modified: "2024",
      finished: false,
      custom_metadata: { ok: 1 },
    };
    const content = JSON.stringify({
      version: "2.0",
      checkpoint: { "q-1": item },
      dataset_metadata: { name: "legacy-proto", custom: { ok: 2 } },
    })
      .replace('"custom_metadata":{"ok":1}', '"custom_metadata":{"__proto__":{"polluted":true},"ok":1}')
      .replace('"custom":{"ok":2}', '"custom":{"__proto__":{"polluted":true},"ok":2}');
    const res = await imports<CheckpointImported | ErrorBody>({ file_name: "proto.json", content });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    if (res.status === 201) {
      const after = await curation("legacy-proto");
      const custom = after.questions[0]?.custom_metadata as Record<string, unknown>;
      expect(Object.getPrototypeOf(custom)).not.toEqual({ polluted: true });
      expect(custom.ok).toBe(1);
    } else {
      expect(res.status).toBe(422);
      expect((res.body as ErrorBody).error.message).toContain("__proto__");
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("attack: text that is not JSON, or a checkpoint with a __proto__ key, is a 422", async () => {
    expect((await imports({ file_name: "x.jsonld", content: "{nope" })).status).toBe(422);
    const proto =
      '{"@context":{},"@type":"DataFeed","name":"p","dateCreated":"x","dateModified":"x","dataFeedElement":[],"__proto__":{"polluted":true}}';
    const res = await imports<ErrorBody>({ file_name: "p.jsonld", content: proto });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain("__proto__");
  });
});
