// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import { SHOWN_ROWS, SummaryTable } from "./SummaryTable.js";

afterEach(cleanup);

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => [`Replicate ${i + 1}`, String(i), "10", "50 %"] as const);
const head = ["Replicate", "Passed", "Judged", "Pass rate"];

describe("a summary table", () => {
  test("shows every row when there are few, with no button", () => {
    render(<SummaryTable title="Replicate Statistics" head={head} rows={rows(3)} />);
    const region = screen.getByRole("region", { name: "Replicate Statistics" });
    expect(within(region).getAllByRole("row")).toHaveLength(4);
    expect(within(region).queryByRole("button")).toBeNull();
  });

  test("shows the first rows of a long table, and all of them (virtualised) on request", () => {
    render(<SummaryTable title="Replicate Statistics" head={head} rows={rows(100_000)} />);
    const region = screen.getByRole("region", { name: "Replicate Statistics" });
    expect(within(region).getAllByRole("row")).toHaveLength(SHOWN_ROWS + 1);
    expect(region.textContent).toContain("First 20 of 100,000 rows.");
    const button = within(region).getByRole("button", { name: "Show all 100,000" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(button);
    const table = within(region).getByRole("table", { name: "Replicate Statistics" });
    expect(table.getAttribute("aria-rowcount")).toBe("100001");
    // Only the rows in view are in the page (none in jsdom, which lays nothing out), never all 100,000.
    expect(within(table).getAllByRole("row").length).toBeLessThan(100);
    expect(within(region).getByRole("button", { name: "Show the first 20" })).toBeDefined();
  });
});
