import { describe, expect, test } from "vitest";
import { docHash, docRouteOf } from "./doc-route.js";
import { DEFAULT_DOC_SLUG } from "./pages.js";

describe("the Docs tab's hash routes", () => {
  test("a page and a heading on it round-trip through the hash", () => {
    expect(docRouteOf(docHash("server"))).toEqual({ slug: "server" });
    expect(docRouteOf(docHash("server", "jobs"))).toEqual({ slug: "server", anchor: "jobs" });
    expect(docRouteOf(docHash("web-app", "what-é-does"))).toEqual({ slug: "web-app", anchor: "what-é-does" });
  });

  test("#/docs alone names the default page; another tab's hash names none", () => {
    expect(docRouteOf("#/docs")).toEqual({ slug: DEFAULT_DOC_SLUG });
    expect(docRouteOf("#/docs/")).toEqual({ slug: DEFAULT_DOC_SLUG });
    expect(docRouteOf("#/benchmark")).toBeUndefined();
    expect(docRouteOf("#/docsx")).toBeUndefined();
    expect(docRouteOf("")).toBeUndefined();
  });

  test("a badly encoded part falls back instead of throwing", () => {
    expect(docRouteOf("#/docs/%E0%A4%A")).toEqual({ slug: DEFAULT_DOC_SLUG });
    expect(docRouteOf("#/docs/server/%E0%A4%A")).toEqual({ slug: "server" });
  });
});
