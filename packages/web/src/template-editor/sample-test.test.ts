import { describe, expect, test } from "vitest";
import type { ModelDefaults } from "../library-types/index.js";
import { judgeFromDefaults, judgeModelConfig } from "./SampleTest.js";

describe("the sample test's judge", () => {
  test("starts as the server's default model and becomes the test route's parsing model", () => {
    const judge = judgeFromDefaults({
      default_interface: "openai_endpoint",
      default_provider: "openai",
      default_model: "judge-1",
      default_endpoint_base_url: "http://127.0.0.1:9/v1",
    } as ModelDefaults);
    expect(judgeModelConfig({ ...judge, apiKey: "sk-test" })).toEqual({
      id: "judge-1",
      model_name: "judge-1",
      model_provider: "openai",
      interface: "openai_endpoint",
      temperature: 0,
      endpoint_base_url: "http://127.0.0.1:9/v1",
      endpoint_api_key: "sk-test",
    });
    expect(judgeModelConfig({ ...judge, interface: "langchain", provider: "" })).toEqual({
      id: "judge-1",
      model_name: "judge-1",
      model_provider: null,
      interface: "langchain",
      temperature: 0,
    });
  });
});
