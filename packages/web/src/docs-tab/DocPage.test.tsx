// @vitest-environment jsdom
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import { DocPage } from "./DocPage.js";
import { DOC_IMAGES } from "./doc-sources.js";
import { headingElementId, headingsOf } from "./headings.js";
import { DOC_PAGES } from "./pages.js";

afterEach(cleanup);

const DOC_MARKDOWN = Object.fromEntries(
  DOC_PAGES.map((page) => [
    page.slug,
    readFileSync(join(import.meta.dirname, "../../../../docs", `${page.slug}.md`), "utf8"),
  ]),
);

const images = { "images/web-app/summary.png": "/assets/summary-abc.png" };

function renderPage(markdown: string, slug = "web-app") {
  return render(<DocPage slug={slug} markdown={markdown} images={images} />).container;
}

describe("a docs page", () => {
  test("raw HTML in the Markdown is not rendered as HTML", () => {
    const container = renderPage(
      'Text <img src="x" onerror="window.hacked = 1"> and <script>window.hacked = 2</script>\n\n<div id="raw">block</div>',
    );
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("#raw")).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  test("headings move one level down (the app's name is the h1) and carry their anchor", () => {
    renderPage("# The web app\n\n## Build\n\n###### Deep");
    expect(screen.getByRole("heading", { level: 2, name: "The web app" }).id).toBe("doc-the-web-app");
    const anchor = screen.getByRole("link", { name: "Link to section: The web app" });
    expect(anchor.getAttribute("href")).toBe("#/docs/web-app/the-web-app");
    expect(screen.getByRole("heading", { level: 3, name: "Build" }).id).toBe("doc-build");
    expect(screen.getByRole("heading", { level: 6, name: "Deep" })).toBeTruthy();
  });

  test("links: pages inside the tab, web addresses in a new tab, the rest as text", () => {
    renderPage(
      "[serve](server.md#jobs) [site](https://example.org) [code](../packages/x.ts) [bad](javascript:alert(1))",
    );
    expect(screen.getByRole("link", { name: "serve" }).getAttribute("href")).toBe("#/docs/server/jobs");
    const external = screen.getByRole("link", { name: /site/ });
    expect(external.getAttribute("href")).toBe("https://example.org/");
    expect(external.getAttribute("target")).toBe("_blank");
    expect(external.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.queryByRole("link", { name: "code" })).toBeNull();
    expect(screen.queryByRole("link", { name: "bad" })).toBeNull();
    expect(screen.getByText("bad").tagName).toBe("SPAN");
  });

  test("images: bundled ones load from their asset URL, others show their alt text", () => {
    renderPage("![The summary](images/web-app/summary.png)\n\n![Gone](images/missing.png)");
    expect(screen.getByRole("img", { name: "The summary" }).getAttribute("src")).toBe(
      "/assets/summary-abc.png",
    );
    expect(screen.getByText("[image: Gone]")).toBeTruthy();
  });

  test("tables and code blocks render", () => {
    const container = renderPage("| a | b |\n| - | - |\n| 1 | 2 |\n\n```sh\nkarenina serve\n```");
    expect(screen.getAllByRole("row")).toHaveLength(2);
    expect(container.querySelector("pre code")?.textContent).toBe("karenina serve\n");
  });
});

describe("the bundled user guides", () => {
  test("the images the pages show are bundled", () => {
    for (const markdown of Object.values(DOC_MARKDOWN)) {
      for (const [, src] of markdown.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)) {
        expect(Object.keys(DOC_IMAGES), src).toContain(src);
      }
    }
  });

  test("the headings the search knows are the anchors the rendered pages have", () => {
    for (const page of DOC_PAGES) {
      const markdown = DOC_MARKDOWN[page.slug] ?? "";
      const container = render(
        <DocPage slug={page.slug} markdown={markdown} images={DOC_IMAGES} />,
      ).container;
      const rendered = [...container.querySelectorAll(".doc-heading")].map((heading) => heading.id);
      expect(rendered, page.slug).toEqual(
        headingsOf(markdown).map((heading) => headingElementId(heading.id)),
      );
      cleanup();
    }
  });
});
