import { extname } from "node:path";
import {
  parseResultsJson,
  parseVerificationResult,
  ResultsFileError,
  type VerificationResult,
} from "../results/index.js";

/**
 * The results of a results file's text: a `.jsonl` run log (one result per line; a cut-short last line is
 * ignored, as a crash leaves it) or a `.json` export (format 2.2 or a legacy form). Every row is validated.
 * @param filename decides the format by its extension, and names the file in errors.
 * @throws {ResultsFileError} for text that is neither, or a row that is not a verification result.
 */
export function parseResultsText(text: string, filename: string): VerificationResult[] {
  const extension = extname(filename).toLowerCase();
  if (extension === ".json") return parseResultsJson(text, filename).results;
  if (extension !== ".jsonl") {
    throw new ResultsFileError(filename, "expected a .jsonl run log or a .json results export");
  }
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const results: VerificationResult[] = [];
  for (const [index, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (index === lines.length - 1 && index > 0) break;
      throw new ResultsFileError(filename, `line ${index + 1} is not JSON (one result per line expected)`, {
        cause: error,
      });
    }
    results.push(parseVerificationResult(value, `${filename}: line ${index + 1}`));
  }
  if (results.length === 0) throw new ResultsFileError(filename, "holds no results");
  return results;
}
