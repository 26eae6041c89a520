import { expect, test } from "vitest";
import * as results from "../../results/index.js";
import {
  canonicalKey,
  displayString,
  ModelConfigSchema,
  ModelIdentitySchema,
  modelIdentity,
} from "./index.js";

const agent = ModelConfigSchema.parse({
  id: "with-tools",
  model_name: "gpt-5",
  model_provider: "openai",
  mcp_urls_dict: { search: "http://s", files: "http://f" },
});

test("an answering model's identity lists its MCP servers and its config id", () => {
  const identity = modelIdentity(agent, "answering");
  expect(identity).toEqual({
    interface: "langchain",
    model_name: "gpt-5",
    tools: ["files", "search"],
    config_id: "with-tools",
  });
  expect(displayString(identity)).toBe("langchain:gpt-5 (with-tools) +[files, search]");
  expect(canonicalKey(identity)).toBe("langchain:gpt-5:with-tools:files|search");
});

test("a parsing model has no tools, and no config id when the id is the model name", () => {
  const judge = ModelConfigSchema.parse({ ...agent, id: "gpt-5" });
  const identity = modelIdentity(judge, "parsing");
  expect(displayString(identity)).toBe("langchain:gpt-5");
  expect(canonicalKey(identity)).toBe("langchain:gpt-5:");
});

test("the identity type and helpers are the results' own, re-exported", () => {
  expect(canonicalKey).toBe(results.canonicalKey);
  expect(displayString).toBe(results.displayString);
  const identity = modelIdentity(agent, "answering");
  expect(ModelIdentitySchema.parse(identity)).toEqual(identity);
});
