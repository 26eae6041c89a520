import { describe, expect, test } from "vitest";
import { resolveDocImage, resolveDocLink } from "./doc-links.js";

describe("links in a page", () => {
  test("a link to another page of the tab becomes its hash route, with the heading", () => {
    expect(resolveDocLink("server.md", "web-app")).toEqual({ kind: "page", hash: "#/docs/server" });
    expect(resolveDocLink("./server.md#jobs", "web-app")).toEqual({
      kind: "page",
      hash: "#/docs/server/jobs",
    });
    expect(resolveDocLink("../docs/storage.md", "web-app")).toEqual({ kind: "page", hash: "#/docs/storage" });
  });

  test("a heading link on the same page stays on the page", () => {
    expect(resolveDocLink("#jobs", "server")).toEqual({ kind: "page", hash: "#/docs/server/jobs" });
  });

  test("web addresses open outside the app", () => {
    expect(resolveDocLink("https://example.org/x?y=1#z", "server")).toEqual({
      kind: "external",
      href: "https://example.org/x?y=1#z",
    });
    expect(resolveDocLink("mailto:someone@example.org", "server")).toEqual({
      kind: "external",
      href: "mailto:someone@example.org",
    });
    expect(resolveDocLink("//example.org/page", "server")).toEqual({
      kind: "external",
      href: "https://example.org/page",
    });
  });

  test("pages the tab does not show, repository files and other schemes are not links", () => {
    for (const href of [
      "",
      "security.md",
      "decisions.md#x",
      "../packages/karenina/src/index.ts",
      "images/web-app/summary.png",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "../../server.md",
    ]) {
      expect(resolveDocLink(href, "web-app"), href).toEqual({ kind: "unavailable" });
    }
  });
});

describe("images in a page", () => {
  const images = { "images/web-app/summary.png": "/assets/summary-abc.png" };

  test("a bundled image resolves to its asset URL, however the path is written", () => {
    expect(resolveDocImage("images/web-app/summary.png", "web-app", images)).toBe("/assets/summary-abc.png");
    expect(resolveDocImage("./images/web-app/summary.png", "web-app", images)).toBe(
      "/assets/summary-abc.png",
    );
    expect(resolveDocImage("../docs/images/web-app/summary.png", "web-app", images)).toBe(
      "/assets/summary-abc.png",
    );
  });

  test("unknown, remote and escaping images are not loaded", () => {
    for (const src of [
      "images/web-app/missing.png",
      "https://example.org/summary.png",
      "../images/web-app/summary.png",
      "toString",
      "constructor",
    ]) {
      expect(resolveDocImage(src, "web-app", images), src).toBeUndefined();
    }
  });
});
