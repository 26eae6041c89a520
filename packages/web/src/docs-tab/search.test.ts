import { describe, expect, test } from "vitest";
import { searchDocs } from "./search.js";

const pages = [
  { slug: "server", label: "karenina serve", headings: [{ depth: 2, text: "Jobs", id: "jobs" }] },
  {
    slug: "storage",
    label: "Database storage",
    headings: [
      { depth: 2, text: "Opening a database", id: "opening-a-database" },
      { depth: 2, text: "Jobs and runs", id: "jobs-and-runs" },
    ],
  },
];

describe("searching the docs", () => {
  test("finds page labels and headings holding every word, in page order, linking to the heading", () => {
    expect(searchDocs(pages, "jobs")).toEqual([
      { text: "Jobs", page: "karenina serve", hash: "#/docs/server/jobs" },
      { text: "Jobs and runs", page: "Database storage", hash: "#/docs/storage/jobs-and-runs" },
    ]);
    expect(searchDocs(pages, "DATABASE open")).toEqual([
      { text: "Opening a database", page: "Database storage", hash: "#/docs/storage/opening-a-database" },
    ]);
    expect(searchDocs(pages, "storage")).toEqual([
      { text: "Database storage", page: "Database storage", hash: "#/docs/storage" },
    ]);
  });

  test("an empty query finds nothing; the limit holds", () => {
    expect(searchDocs(pages, "   ")).toEqual([]);
    expect(searchDocs(pages, "o", 2)).toHaveLength(2);
  });
});
