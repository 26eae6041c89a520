import { readFile } from "node:fs/promises";
import { schemaProblems } from "../errors/index.js";
import {
  CheckpointError,
  CheckpointFileError,
  CheckpointProblemsError,
  CheckpointSyntaxError,
  jsonPath,
} from "./errors.js";
import { type DataFeed, DataFeedSchema } from "./jsonld-schema.js";
import { checkNesting, scanTree } from "./nesting.js";
import { checkProtoKeys } from "./proto-keys.js";

/** Reads and validates a checkpoint file. Throws a {@link CheckpointError} naming the file and the JSON path. */
export async function readCheckpointFile(file: string): Promise<DataFeed> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : String(error);
    throw new CheckpointFileError(file, `cannot read the checkpoint: ${reason}`, { cause: error });
  }
  return parseCheckpoint(text, file);
}

/**
 * Parses checkpoint text: JSON syntax, then nesting depth and `__proto__` keys (see `checkNesting`,
 * `checkProtoKeys`), then the JSON-LD shape, then the original's structural rules.
 */
export function parseCheckpoint(text: string, file = "<checkpoint>"): DataFeed {
  return checkpointFromJson(parseCheckpointJson(text, file), file);
}

/**
 * Parses the JSON of a checkpoint-like file (a byte-order mark allowed) and checks the limits every file a
 * stranger wrote must meet before anything walks it: nesting depth and `__proto__` keys outside property values.
 * @throws {CheckpointError} naming the file and where.
 */
export function parseCheckpointJson(text: string, file = "<checkpoint>"): unknown {
  const json = parseJson(text, file);
  const scan = scanTree(json);
  if (scan.tooDeep) checkNesting(json, file, "load");
  if (scan.protoKey) checkProtoKeys(json, file);
  return json;
}

/** A parsed JSON value (limits already checked) as a validated checkpoint document. */
function checkpointFromJson(json: unknown, file: string): DataFeed {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw CheckpointError.expected(file, "$", "a JSON-LD DataFeed object", json);
  }
  const type = (json as Record<string, unknown>)["@type"];
  if (type !== undefined && type !== "DataFeed") {
    throw CheckpointError.expected(file, '$["@type"]', '"DataFeed" (is this a karenina checkpoint?)', type);
  }
  const parsed = DataFeedSchema.safeParse(json);
  if (!parsed.success) {
    const problems = schemaProblems(parsed.error, json).map((p) => ({
      jsonPath: jsonPath(p.path),
      problem: p.message,
    }));
    const [first] = problems;
    if (problems.length > 1) throw new CheckpointProblemsError(file, problems);
    throw new CheckpointError(file, first?.jsonPath ?? "$", first?.problem ?? "invalid checkpoint");
  }
  checkStructure(parsed.data, file);
  return parsed.data;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const reason = (error as Error).message;
    const { line, column } = positionOf(text, reason);
    throw new CheckpointSyntaxError(file, line, column, reason);
  }
}

/** Line and column of a JSON.parse error, from the "position N" its message carries (or the end of text). */
function positionOf(text: string, reason: string): { line: number; column: number } {
  const match = /position (\d+)/.exec(reason);
  const lineColumn = /line (\d+) column (\d+)/.exec(reason);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const offset = match ? Number(match[1]) : text.length;
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return { line, column };
}

/** The original's post-parse checks (spec 01 §7.1 step 4), plus duplicate question ids. */
function checkStructure(doc: DataFeed, file: string): void {
  if (doc.name.trim() === "")
    throw CheckpointError.expected(file, "$.name", "a non-empty benchmark name", doc.name);
  doc.rating?.forEach((rating, index) => {
    if (!rating.additionalType.startsWith("karenina:Global")) {
      throw CheckpointError.expected(
        file,
        `$.rating[${index}].additionalType`,
        "a global trait type (karenina:Global...) at the benchmark level",
        rating.additionalType,
      );
    }
  });
  const seen = new Map<string, number>();
  doc.dataFeedElement.forEach((element, index) => {
    if (element.item.text === "") {
      throw CheckpointError.expected(
        file,
        `$.dataFeedElement[${index}].item.text`,
        "a non-empty question text",
        "",
      );
    }
    const id = element["@id"];
    if (id === undefined) return;
    const first = seen.get(id);
    if (first !== undefined) {
      throw CheckpointError.expected(
        file,
        `$.dataFeedElement[${index}]["@id"]`,
        `a unique question id (already used by $.dataFeedElement[${first}])`,
        id,
      );
    }
    seen.set(id, index);
  });
  if (doc.dataFeedElement.length > 0 && (doc.hasPart?.length ?? 0) > 0) {
    throw CheckpointError.expected(
      file,
      "$.hasPart",
      "either questions or scenarios, not both questions and scenarios",
      doc.hasPart,
    );
  }
}
