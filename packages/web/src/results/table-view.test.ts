import { describe, expect, test } from "vitest";
import {
  cardFilteredView,
  EMPTY_VIEW,
  exportHref,
  facetsPath,
  isFiltered,
  pagePath,
  type TableView,
  tableViewSlice,
  toggledSort,
} from "./table-view.js";

const source = { db: null, runIds: ["r1", "r 2"], label: "2 runs" };

describe("the table view's query", () => {
  test("an empty view asks for the source's rows in saving order", () => {
    expect(pagePath(source, EMPTY_VIEW, 3, 100)).toBe(
      "/api/v2/results?run_id=r1&run_id=r+2&page=3&page_size=100",
    );
    expect(facetsPath({ ...source, db: "lab" })).toBe("/api/v2/results/facets?db=lab&run_id=r1&run_id=r+2");
    expect(isFiltered(EMPTY_VIEW)).toBe(false);
  });

  test("filters and sort become repeated parameters; blank texts and empty selections are left out", () => {
    const view = {
      text: { question: "  BCL2 ", raw_answer: " ", time_min: "1.5" },
      multi: { status: ["failed", "abstained"], keyword: [] },
      sort: "execution_time",
      order: "desc" as const,
    };
    expect(isFiltered(view)).toBe(true);
    expect(pagePath(source, view, 1, 100)).toBe(
      "/api/v2/results?run_id=r1&run_id=r+2&question=BCL2&time_min=1.5&status=failed&status=abstained" +
        "&sort=execution_time&order=desc&page=1&page_size=100",
    );
    expect(isFiltered({ ...EMPTY_VIEW, text: { question: "  " }, multi: { status: [] } })).toBe(false);
  });

  test("the export link carries the view's filters (or none for all rows) and the token", () => {
    const view = { ...EMPTY_VIEW, multi: { verification: ["passed"] } };
    expect(exportHref(source, view, "csv", "t0k")).toBe(
      "/api/v2/results/export?run_id=r1&run_id=r+2&verification=passed&format=csv&token=t0k",
    );
    expect(exportHref(source, null, "json", "t0k")).toBe(
      "/api/v2/results/export?run_id=r1&run_id=r+2&format=json&token=t0k",
    );
  });

  test("a header cycles ascending, descending, saving order", () => {
    const asc = toggledSort(EMPTY_VIEW, "timestamp");
    expect([asc.sort, asc.order]).toEqual(["timestamp", "asc"]);
    const desc = toggledSort(asc, "timestamp");
    expect([desc.sort, desc.order]).toEqual(["timestamp", "desc"]);
    expect(toggledSort(desc, "timestamp")).toEqual(EMPTY_VIEW);
    expect(toggledSort(desc, "question_text").order).toBe("asc");
  });

  test("a stored view is restored keeping only known filters of the right shape", () => {
    expect(
      tableViewSlice.parse({
        text: { question: "x", evil: "y", time_max: 3 },
        multi: { status: ["failed"], keyword: "oops", other: ["z"] },
        sort: "timestamp",
        order: "desc",
      }),
    ).toEqual({ text: { question: "x" }, multi: { status: ["failed"] }, sort: "timestamp", order: "desc" });
    expect(tableViewSlice.parse({ text: {}, multi: {}, sort: "row", order: "sideways" })).toBeUndefined();
    expect(tableViewSlice.parse(null)).toBeUndefined();
  });
});

describe("a summary card's filter on the table's view", () => {
  const view: TableView = {
    text: { question: "venetoclax" },
    multi: { status: ["failed"], answering_model: ["gpt"] },
    sort: "question_text",
    order: "desc",
  };

  test("replaces the status and verification filters and keeps the others and the sort", () => {
    expect(cardFilteredView(view, "passed")).toEqual({
      ...view,
      multi: { answering_model: ["gpt"], verification: ["passed"] },
    });
    expect(cardFilteredView(view, "completed").multi).toEqual({
      answering_model: ["gpt"],
      status: ["completed"],
    });
  });

  test("errors are every row that did not complete, abstentions included", () => {
    expect(cardFilteredView(EMPTY_VIEW, "errors").multi).toEqual({ status: ["failed", "abstained"] });
    expect(cardFilteredView(EMPTY_VIEW, "abstained").multi).toEqual({ status: ["abstained"] });
    expect(cardFilteredView(EMPTY_VIEW, "failed").multi).toEqual({ verification: ["failed"] });
  });
});
