import { describe, expect, test } from "vitest";
import { ModelConfigSchema } from "../config/index.js";
import { applyToolFilter, hydrateOverride } from "./turn-models.js";

const model = (fields: Record<string, unknown>) =>
  ModelConfigSchema.parse({ id: "m", model_name: "m", interface: "openai_endpoint", ...fields });

describe("tool filters (quirk Q3, fixed: applied)", () => {
  const agent = model({
    endpoint_base_url: "http://127.0.0.1:9/v1",
    mcp_urls_dict: { search: "http://127.0.0.1:9/mcp", files: "http://127.0.0.1:9/files" },
    mcp_tool_filter: ["find", "fetch", "read"],
  });

  test("a server without a tool name goes entirely; a named tool leaves the allow-list", () => {
    const filtered = applyToolFilter(
      agent,
      {
        remove: [
          { server: "files", tool: null },
          { server: "search", tool: "fetch" },
        ],
      },
      () => undefined,
    );
    expect(filtered.mcp_urls_dict).toEqual({ search: "http://127.0.0.1:9/mcp" });
    expect(filtered.mcp_tool_filter).toEqual(["find", "read"]);
    expect(agent.mcp_tool_filter).toEqual(["find", "fetch", "read"]);
  });

  test("a named tool without an allow-list stays, with a warning saying why", () => {
    const warnings: string[] = [];
    const open = { ...agent, mcp_tool_filter: null };
    const filtered = applyToolFilter(open, { remove: [{ server: "search", tool: "fetch" }] }, (w) =>
      warnings.push(w),
    );
    expect(filtered.mcp_urls_dict).toEqual(open.mcp_urls_dict);
    expect(warnings).toEqual([expect.stringContaining("'fetch' of server 'search' stays")]);
  });

  test("removing every server leaves a model without MCP", () => {
    const filtered = applyToolFilter(
      agent,
      {
        remove: [
          { server: "files", tool: null },
          { server: "search", tool: null },
        ],
      },
      () => undefined,
    );
    expect(filtered.mcp_urls_dict).toBeNull();
  });
});

describe("override models (spec 08 §4.11)", () => {
  const base = model({
    endpoint_base_url: "http://127.0.0.1:9/v1",
    endpoint_api_key: "base-key",
    request_timeout: 30,
  });

  test("an override on the same URL inherits the base key; one elsewhere does not", () => {
    const same = hydrateOverride(model({ id: "o", model_name: "o" }), base);
    expect(same.endpoint_base_url).toBe("http://127.0.0.1:9/v1");
    expect(same.endpoint_api_key?.reveal()).toBe("base-key");
    expect(same.request_timeout).toBe(30);
    const elsewhere = hydrateOverride(
      model({ id: "o", model_name: "o", endpoint_base_url: "http://127.0.0.1:8/v1" }),
      base,
    );
    expect(elsewhere.endpoint_api_key).toBeNull();
  });
});
