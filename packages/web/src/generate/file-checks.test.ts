import { describe, expect, test } from "vitest";
import { formatBytes, MAX_UPLOAD_BYTES, uploadProblem } from "./file-checks.js";

const file = (name: string, size = 100, type = "") => ({ name, size, type });

describe("uploadProblem", () => {
  test("accepts each allowed extension, in any case, with an empty or spreadsheet MIME type", () => {
    for (const name of ["a.xlsx", "b.XLS", "c.csv", "d.tsv", "e.txt"])
      expect(uploadProblem(file(name))).toBeNull();
    expect(uploadProblem(file("a.csv", 100, "text/csv"))).toBeNull();
    expect(
      uploadProblem(file("a.xlsx", 100, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")),
    ).toBeNull();
  });

  test("refuses other extensions with the list of allowed ones", () => {
    expect(uploadProblem(file("notes.pdf"))).toBe(
      "Invalid file type. Allowed extensions: .xlsx, .xls, .csv, .tsv, .txt",
    );
    expect(uploadProblem(file("no-extension"))).toMatch(/^Invalid file type/);
  });

  test("refuses a dangerous or foreign MIME type behind an allowed extension", () => {
    expect(uploadProblem(file("x.csv", 100, "application/x-msdownload"))).toMatch(/Invalid file type/);
    expect(uploadProblem(file("x.csv", 100, "image/png"))).toMatch(/Invalid file type/);
  });

  test("refuses files over 50 MB and empty files", () => {
    expect(uploadProblem(file("big.csv", MAX_UPLOAD_BYTES))).toBeNull();
    expect(uploadProblem(file("big.csv", MAX_UPLOAD_BYTES + 1))).toBe(
      "File too large (50.0 MB). The maximum is 50.0 MB.",
    );
    expect(uploadProblem(file("empty.csv", 0))).toMatch(/is empty/);
  });

  test("formats sizes", () => {
    expect([formatBytes(12), formatBytes(2048), formatBytes(1.5 * 1024 * 1024)]).toEqual([
      "12 B",
      "2 KB",
      "1.5 MB",
    ]);
  });
});
