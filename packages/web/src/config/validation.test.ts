import { describe, expect, test } from "vitest";
import { defaultsProblems, envKeyProblem, envValueProblem } from "./validation.js";

const base = {
  default_interface: "langchain",
  default_provider: "anthropic",
  default_model: "claude-haiku-4-5",
};

describe("the configuration dialog's validation", () => {
  test("env keys follow ^[A-Z_][A-Z0-9_]*$ and are not set twice", () => {
    expect(envKeyProblem("OPENAI_API_KEY")).toBeUndefined();
    expect(envKeyProblem("_X1")).toBeUndefined();
    expect(envKeyProblem("")).toMatch(/Give the variable a name/);
    expect(envKeyProblem("openai_key")).toMatch(/upper-case/);
    expect(envKeyProblem("1KEY")).toMatch(/not starting with a digit/);
    expect(envKeyProblem("A-B")).toMatch(/upper-case/);
    expect(envKeyProblem("K".repeat(101))).toMatch(/100/);
    expect(envKeyProblem("KEY", ["KEY"])).toMatch(/set already/);
  });

  test("env values are one line of at most 1000 characters", () => {
    expect(envValueProblem("sk-123")).toBeUndefined();
    expect(envValueProblem("a\nB=1")).toMatch(/one line/);
    expect(envValueProblem("x".repeat(1001))).toMatch(/1000/);
  });

  test("defaults: a model, a provider unless claude_*, an endpoint URL for openai_endpoint", () => {
    expect(defaultsProblems(base)).toEqual({});
    expect(defaultsProblems({ ...base, default_model: " " })).toHaveProperty("default_model");
    expect(defaultsProblems({ ...base, default_provider: "" })).toHaveProperty("default_provider");
    expect(defaultsProblems({ ...base, default_interface: "claude_tool", default_provider: "" })).toEqual({});
    expect(defaultsProblems({ ...base, default_interface: "openai_endpoint" })).toHaveProperty(
      "default_endpoint_base_url",
    );
    expect(
      defaultsProblems({
        ...base,
        default_interface: "openai_endpoint",
        default_endpoint_base_url: "ftp://x",
      }),
    ).toEqual({ default_endpoint_base_url: "Use an http:// or https:// URL." });
    expect(defaultsProblems({ ...base, default_anthropic_base_url: "not a url" })).toHaveProperty(
      "default_anthropic_base_url",
    );
  });
});
