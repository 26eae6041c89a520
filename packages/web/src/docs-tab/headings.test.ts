import { describe, expect, test } from "vitest";
import { createSlugger, headingsOf, plainHeadingText } from "./headings.js";

describe("heading anchors", () => {
  test("are made as GitHub makes them, repeated ones numbered", () => {
    const slug = createSlugger();
    expect(slug("Jobs")).toBe("jobs");
    expect(slug('Results table (spec 07 §1.6 "Table", §3)')).toBe("results-table-spec-07-16-table-3");
    expect(slug("karenina serve: the REST server")).toBe("karenina-serve-the-rest-server");
    expect(slug("Jobs")).toBe("jobs-1");
    expect(slug("Jobs")).toBe("jobs-2");
    expect(slug("Où est l'été?")).toBe("où-est-lété");
  });

  test("inline Markdown in a heading reduces to its text", () => {
    expect(plainHeadingText("`karenina serve`: the **REST** server")).toBe("karenina serve: the REST server");
    expect(plainHeadingText("See [the demo](demo.md) ##")).toBe("See the demo");
    expect(plainHeadingText("`run_id` and *emphasis*")).toBe("run_id and emphasis");
  });

  test("headings are read outside fenced code only", () => {
    const markdown = [
      "# Title",
      "```sh",
      "# a comment",
      "```",
      "## Part",
      "~~~",
      "## not a heading",
      "~~~",
      "## Part",
    ];
    expect(headingsOf(markdown.join("\n"))).toEqual([
      { depth: 1, text: "Title", id: "title" },
      { depth: 2, text: "Part", id: "part" },
      { depth: 2, text: "Part", id: "part-1" },
    ]);
  });
});
