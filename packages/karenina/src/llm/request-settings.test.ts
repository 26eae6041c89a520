import { expect, test } from "vitest";
import { requestSettings } from "./request-settings.js";

test("common arguments become the SDK's settings and a stop string becomes a list", () => {
  expect(
    requestSettings({ top_p: 0.5, frequency_penalty: 0.1, presence_penalty: 0.2, seed: 7, stop: "END" }),
  ).toEqual({ topP: 0.5, frequencyPenalty: 0.1, presencePenalty: 0.2, seed: 7, stopSequences: ["END"] });
});

test("an OpenAI-compatible provider gets every other argument, top_k included, in its body entry", () => {
  expect(requestSettings({ top_p: 0.5, top_k: 20, repetition_penalty: 1.1 }, "openai_endpoint")).toEqual({
    topP: 0.5,
    providerOptions: { openai_endpoint: { top_k: 20, repetition_penalty: 1.1 } },
  });
  // a value the SDK setting cannot take is still sent as given
  expect(requestSettings({ top_p: "0.5" }, "openrouter")).toEqual({
    providerOptions: { openrouter: { top_p: "0.5" } },
  });
});

test("other providers get top_k as topK and no other argument", () => {
  expect(requestSettings({ top_k: 20, repetition_penalty: 1.1, top_p: "0.5" })).toEqual({ topK: 20 });
  expect(requestSettings(undefined)).toEqual({});
});
