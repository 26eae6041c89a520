import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  formatTurnsAsXml,
  groupEntriesIntoTurns,
  parseTranscriptEntries,
  reformatTranscriptAsXml,
  type TranscriptEntry,
} from "./trace-xml.js";

const entry = (
  role: TranscriptEntry["role"],
  agent_id: string | null,
  content_type: TranscriptEntry["content_type"],
  content: string,
): TranscriptEntry => ({ role, agent_id, content_type, content });

describe("parseTranscriptEntries", () => {
  test("tagged lines open entries; other lines continue the open one; lines before the first tag are dropped", () => {
    const transcript = [
      "stray line",
      "[sys:tem:system:text] Be precise.",
      "[__user__] Question?",
      "[a:assistant:text] Yes.",
      "Second line.",
      "[a:assistant:tool_use] search(q='x')",
      "[a:tool:tool_result]",
    ].join("\n");
    expect(parseTranscriptEntries(transcript)).toEqual([
      entry("system", "sys:tem", "text", "Be precise."),
      entry("user", null, "text", "Question?"),
      entry("assistant", "a", "text", "Yes.\nSecond line."),
      entry("assistant", "a", "tool_use", "search(q='x')"),
      entry("tool", "a", "tool_result", ""),
    ]);
  });

  test("a line whose tag has no valid role or type is a continuation", () => {
    expect(parseTranscriptEntries("[__user__] Q\n[a:robot:text] no\n[a:assistant:image] no")).toEqual([
      entry("user", null, "text", "Q\n[a:robot:text] no\n[a:assistant:image] no"),
    ]);
  });
});

describe("groupEntriesIntoTurns", () => {
  test("a system entry is the prompt of the next turn; blocks name the turn's agent", () => {
    const turns = groupEntriesIntoTurns([
      entry("system", "solver", "text", "P"),
      entry("user", null, "text", "Q1"),
      entry("assistant", "solver", "text", "A1"),
      entry("user", null, "text", "Q2"),
      entry("assistant", "other", "text", "A2"),
      entry("system", "judge", "text", "J"),
    ]);
    expect(turns).toEqual([
      {
        system_prompt: "P",
        system_agent: "solver",
        user_content: "Q1",
        agent_id: "solver",
        blocks: [entry("assistant", "solver", "text", "A1")],
      },
      {
        system_prompt: null,
        system_agent: null,
        user_content: "Q2",
        agent_id: "other",
        blocks: [entry("assistant", "other", "text", "A2")],
      },
      { system_prompt: "J", system_agent: "judge", user_content: null, agent_id: null, blocks: [] },
    ]);
  });

  test("without any user entry, one synthetic turn holds every non-system entry", () => {
    const turns = groupEntriesIntoTurns([
      entry("assistant", "a", "text", "one"),
      entry("system", "a", "text", "P"),
      entry("tool", "a", "tool_result", "two"),
    ]);
    expect(turns).toEqual([
      {
        system_prompt: null,
        system_agent: null,
        user_content: null,
        agent_id: "a",
        blocks: [entry("assistant", "a", "text", "one"), entry("tool", "a", "tool_result", "two")],
      },
      { system_prompt: "P", system_agent: "a", user_content: null, agent_id: null, blocks: [] },
    ]);
  });
});

describe("formatTurnsAsXml", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "karenina-trace-xml-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("Q42 (mirrored): a tool result is named after the last tool call of its turn", async () => {
    const xml = await formatTurnsAsXml(
      groupEntriesIntoTurns([
        entry("user", null, "text", "Q"),
        entry("assistant", "a", "tool_use", "first(x=1)"),
        entry("assistant", "a", "tool_use", "second(y=2)"),
        entry("tool", "a", "tool_result", "result of first"),
        entry("tool", "a", "tool_result", "result of second"),
        entry("assistant", "a", "tool_use", "not a call"),
      ]),
      null,
    );
    expect(xml.split("\n")).toEqual([
      '<turn number="1">',
      "  <user>",
      "    Q",
      "  </user>",
      '  <assistant agent="a">',
      '    <tool_call name="first">',
      "      x=1",
      "    </tool_call>",
      '    <tool_call name="second">',
      "      y=2",
      "    </tool_call>",
      '    <tool_result name="second">',
      "      result of first",
      "    </tool_result>",
      '    <tool_result name="second">',
      "      result of second",
      "    </tool_result>",
      '    <tool_call name="unknown">',
      "      not a call",
      "    </tool_call>",
      "  </assistant>",
      "</turn>",
      "",
    ]);
  });

  test("a system prompt without an agent takes the turn's agent, else unknown; bodies are stripped", async () => {
    const xml = await formatTurnsAsXml(
      [
        { system_prompt: "  P\n", system_agent: null, user_content: null, agent_id: "a", blocks: [] },
        {
          system_prompt: "P",
          system_agent: "",
          user_content: "",
          agent_id: null,
          blocks: [entry("assistant", null, "text", "\n  T  \n")],
        },
      ],
      null,
    );
    expect(xml).toBe(
      [
        '<turn number="1">',
        '  <system_prompt agent="a">',
        "    P",
        "  </system_prompt>",
        "</turn>",
        "",
        '<turn number="2">',
        '  <system_prompt agent="unknown">',
        "    P",
        "  </system_prompt>",
        "  <user>",
        "    ",
        "  </user>",
        '  <assistant agent="unknown">',
        "    <text>",
        "      T",
        "    </text>",
        "  </assistant>",
        "</turn>",
        "",
      ].join("\n"),
    );
  });

  test("long bodies are offloaded with one counter over the document; short ones and prompts stay inline", async () => {
    const long = "x".repeat(2500);
    const artifacts = join(dir, "artifacts");
    const xml = await formatTurnsAsXml(
      groupEntriesIntoTurns([
        entry("system", "a", "text", long),
        entry("user", null, "text", long),
        entry("assistant", "a", "text", long),
        entry("assistant", "a", "text", "short"),
        entry("assistant", "a", "tool_use", `f(${"y".repeat(2001)})`),
        entry("tool", "a", "tool_result", `  ${"z".repeat(2000)}  `),
      ]),
      artifacts,
    );
    expect(xml).toContain(
      `    <text offloaded="true">\n      [Content offloaded: 2,500 chars]\n      File: ${join(artifacts, "text_001.txt")}\n    </text>`,
    );
    expect(xml).toContain(
      `    <tool_call name="f" offloaded="true">\n      [Content offloaded: 2,001 chars]\n      File: ${join(artifacts, "tool_call_002.txt")}`,
    );
    expect(xml).toContain(`    <tool_result name="f">\n      ${"z".repeat(2000)}\n    </tool_result>`);
    expect(xml).toContain("    <text>\n      short\n    </text>");
    expect(xml).toContain(`  <user>\n    ${long}\n  </user>`);
    expect((await readdir(artifacts)).sort()).toEqual(["text_001.txt", "tool_call_002.txt"]);
    expect(await readFile(join(artifacts, "text_001.txt"), "utf8")).toBe(long);
    expect(await readFile(join(artifacts, "tool_call_002.txt"), "utf8")).toBe("y".repeat(2001));
  });

  test("the offload threshold counts characters as Python does (code points)", async () => {
    const emoji = "😀".repeat(5);
    const turns = groupEntriesIntoTurns([
      entry("user", null, "text", "Q"),
      entry("assistant", "a", "text", emoji),
    ]);
    expect(await formatTurnsAsXml(turns, join(dir, "artifacts"), 5)).toContain(`      ${emoji}\n`);
    expect(await formatTurnsAsXml(turns, join(dir, "artifacts"), 4)).toContain(
      "[Content offloaded: 5 chars]",
    );
  });
});

describe("reformatTranscriptAsXml", () => {
  test("text without a transcript is kept as is", async () => {
    expect(await reformatTranscriptAsXml("Just a question\n\n---\n\nmore", null)).toBe(
      "Just a question\n\n---\n\nmore",
    );
    expect(await reformatTranscriptAsXml("[__user__] Q without a separator", null)).toBe(
      "[__user__] Q without a separator",
    );
  });

  test("Q39 (mirrored): the split is at the first separator and tag-like lines inside a message become entries", async () => {
    const nested = "[__user__] Q1\n[a:assistant:text] A1";
    const text = `[a:system:text] P\n[__user__] ${nested}\n\n---\n\nOld question\n[a:assistant:text] A2\n\n---\n\nReview.`;
    const result = await reformatTranscriptAsXml(text, null);
    expect(result).toBe(
      [
        '<turn number="1">',
        '  <system_prompt agent="a">',
        "    P",
        "  </system_prompt>",
        "  <user>",
        "    [__user__] Q1",
        "  </user>",
        '  <assistant agent="a">',
        "    <text>",
        "      A1",
        "    </text>",
        "  </assistant>",
        "</turn>",
        "",
        "",
        "Old question\n[a:assistant:text] A2\n\n---\n\nReview.",
      ].join("\n"),
    );
  });
});
