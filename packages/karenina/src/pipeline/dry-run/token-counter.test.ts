import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { expect, test } from "vitest";
import { systemMessage, userMessage } from "../../llm/index.js";
import { abstentionPrompt, parsingPrompt, sufficiencyPrompt } from "../prompts/index.js";
import { loadTokenCounter } from "./token-counter.js";

const reference = new Tiktoken(o200kBase);
const whole = (text: string) => reference.encode(text, [], []).length;

const schema = {
  type: "object",
  properties: { drug: { type: "string", description: "The drug the response recommends" } },
  required: ["drug"],
};
const question = "Which BCL-2 inhibitor is approved for chronic lymphocytic leukaemia?";
const response = "Venetoclax.\n\nIt is given with obinutuzumab.\n\n\n  - dosing: 400 mg\n\n/see label";

test("counting a prompt paragraph by paragraph gives the count of the whole text", async () => {
  const counter = await loadTokenCounter();
  const prompts = [
    parsingPrompt({ judgeSchema: schema, question, response, interface: "openai_endpoint" }),
    abstentionPrompt({ question, response, interface: "openai_endpoint" }),
    sufficiencyPrompt({ question, response, schema, interface: "claude_tool" }),
  ];
  const texts = [
    ...prompts.flatMap((prompt) => [prompt.system, prompt.user]),
    "Ends with punctuation.\n\nNext paragraph: <|endoftext|>.\n\n\n\nAfter blank lines,\n\n   indented.",
  ];
  for (const text of texts) expect(counter.text(text)).toBe(whole(text));
});

test("a call costs its messages, 3 tokens per message and 3 for the reply; placeholders count as their size", async () => {
  const counter = await loadTokenCounter();
  const messages = [systemMessage("You are a judge."), userMessage(`Response: ⟦answer⟧ (${question})`)];
  const plain = whole("You are a judge.") + whole(`Response:  (${question})`);
  expect(counter.messages(messages, { "⟦answer⟧": 250 })).toBe(plain + 250 + 2 * 3 + 3);
});
