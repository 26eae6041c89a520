import { describe, expect, test } from "vitest";
import type { Message } from "../llm/index.js";
import type { TaggedMessage } from "./runtime-types.js";
import { formatTranscript } from "./transcript.js";

const text = (role: Message["role"], value: string): Message => ({
  role,
  content: [{ type: "text", text: value }],
});
const tagged = (agent_id: string, message: Message): TaggedMessage => ({ agent_id, message });
const toolCall = (name: string, input: Record<string, unknown>): Message => ({
  role: "assistant",
  content: [{ type: "tool_use", id: "call_1", name, input }],
});

describe("formatTranscript (spec 08 §4.10.1)", () => {
  test("T-H1: node questions are labelled __user__, agent messages agent:role:type", () => {
    const log = [
      tagged("__user__", text("user", "What is BCL2?")),
      tagged("primary", text("assistant", "BCL2 is a protein.")),
    ];
    expect(formatTranscript(log).split("\n")).toEqual([
      "[__user__] What is BCL2?",
      "[primary:assistant:text] BCL2 is a protein.",
    ]);
  });

  test("T-H2: a tool call shows name(k=v) with Python reprs", () => {
    expect(formatTranscript([tagged("agent", toolCall("search", { q: "BCL2" }))])).toBe(
      "[agent:assistant:tool_use] search(q='BCL2')",
    );
  });

  test("probed: every kind of argument is written as Python repr, in insertion order", () => {
    const call = toolCall("search", { q: "BCL2", n: 3, f: null, l: [1, "a"], d: { k: true } });
    expect(formatTranscript([tagged("agent", call)])).toBe(
      "[agent:assistant:tool_use] search(q='BCL2', n=3, f=None, l=[1, 'a'], d={'k': True})",
    );
  });

  test("strings holding a single quote and no double quote are double-quoted; floats print as Python's", () => {
    const call = toolCall("f", { s: "it's", t: "a \"b\" 'c'", x: 2.5, y: 1e-7, z: false });
    expect(formatTranscript([tagged("a", call)])).toBe(
      `[a:assistant:tool_use] f(s="it's", t='a "b" \\'c\\'', x=2.5, y=1e-07, z=False)`,
    );
  });

  test("T-H3: a tool result shows its content and not is_error", () => {
    const result: Message = {
      role: "tool",
      content: [{ type: "tool_result", tool_use_id: "call_1", content: '{"found": true}', is_error: true }],
    };
    expect(formatTranscript([tagged("agent", result)])).toBe('[agent:tool:tool_result] {"found": true}');
  });

  test("T-H4: thinking blocks are left out", () => {
    const message: Message = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "secret reasoning" },
        { type: "text", text: "visible answer" },
      ],
    };
    const transcript = formatTranscript([tagged("agent", message)]);
    expect(transcript).toBe("[agent:assistant:text] visible answer");
    expect(transcript).not.toContain("secret");
  });

  test("T-H5: a system message carries its agent", () => {
    expect(formatTranscript([tagged("primary", text("system", "You are a careful assistant."))])).toBe(
      "[primary:system:text] You are a careful assistant.",
    );
  });

  test("T-H6: an empty log gives the empty string", () => {
    expect(formatTranscript([])).toBe("");
  });

  test("a __user__ entry is labelled __user__ whatever its role; newlines inside a text are kept", () => {
    const log = [
      tagged("__user__", text("assistant", "odd")),
      tagged("solver", text("assistant", "Yes.\nSecond line.")),
    ];
    expect(formatTranscript(log)).toBe("[__user__] odd\n[solver:assistant:text] Yes.\nSecond line.");
  });

  test("T-H13: the judge's transcript of the T-RUN-3 solver turn", () => {
    const log: TaggedMessage[] = [
      tagged(
        "solver",
        text("system", "You are an expert assistant. Answer the question accurately and concisely."),
      ),
      tagged("__user__", text("user", "What drug class does venetoclax belong to?")),
      tagged("solver", toolCall("search", { q: "BCL2", n: 3, flag: true })),
      tagged("solver", {
        role: "tool",
        content: [{ type: "tool_result", tool_use_id: "call_1", content: "found it", is_error: false }],
      }),
      tagged("solver", text("assistant", "BCL-2 inhibitor")),
    ];
    expect(formatTranscript(log)).toBe(
      "[solver:system:text] You are an expert assistant. Answer the question accurately and concisely.\n" +
        "[__user__] What drug class does venetoclax belong to?\n" +
        "[solver:assistant:tool_use] search(q='BCL2', n=3, flag=True)\n" +
        "[solver:tool:tool_result] found it\n" +
        "[solver:assistant:text] BCL-2 inhibitor",
    );
  });
});
