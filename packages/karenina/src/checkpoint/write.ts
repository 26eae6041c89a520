import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { setOwn } from "../plain-data/index.js";
import { floatRepr } from "../python-repr/index.js";
import { CheckpointFileError } from "./errors.js";
import {
  AnswerSchema,
  CHECKPOINT_CONTEXT,
  type DataFeed,
  DataFeedItemSchema,
  DataFeedSchema,
  PropertyValueSchema,
  RatingSchema,
  SchemaOrgQuestionSchema,
  SoftwareSourceCodeSchema,
} from "./jsonld-schema.js";
import { checkNesting } from "./nesting.js";
import { pythonFloatRepr } from "./python-json.js";

// Random per process, so that no string in a checkpoint can pass for a marked float and turn into a number.
const FLOAT_TAG = `karenina-float-${randomBytes(8).toString("hex")}`;
const FLOAT_MARK = `\u0000${FLOAT_TAG}\u0000`;
const FLOAT_MARK_PATTERN = new RegExp(`"\\\\u0000${FLOAT_TAG}\\\\u0000(-?[0-9][0-9.e+-]*)"`, "g");

type Json = Record<string, unknown>;

/** Copies an object with the schema's keys first, in schema order, then any other keys; null values dropped. */
function ordered(
  source: Json,
  keys: readonly string[],
  fill: (key: string, value: unknown) => unknown = (_, v) => v,
): Json {
  const out: Json = {};
  for (const key of keys) {
    const value = source[key];
    if (value !== null && value !== undefined) setOwn(out, key, fill(key, value));
  }
  for (const key of Object.keys(source)) {
    if (!Object.hasOwn(out, key) && !keys.includes(key)) {
      const value = source[key];
      if (value !== null && value !== undefined) setOwn<unknown>(out, key, value);
    }
  }
  return out;
}

const keysOf = (schema: { shape: object }) => Object.keys(schema.shape);
const FEED_KEYS = keysOf(DataFeedSchema);
const ITEM_KEYS = keysOf(DataFeedItemSchema);
const QUESTION_KEYS = keysOf(SchemaOrgQuestionSchema);
const ANSWER_KEYS = keysOf(AnswerSchema);
const CODE_KEYS = keysOf(SoftwareSourceCodeSchema);
const RATING_KEYS = keysOf(RatingSchema);
const PROPERTY_KEYS = keysOf(PropertyValueSchema);

const property = (p: unknown) => ordered(p as Json, PROPERTY_KEYS);
const properties = (list: unknown) => (list as unknown[]).map(property);

function rating(source: unknown): Json {
  return ordered(source as Json, RATING_KEYS, (key, value) => {
    if (key === "bestRating" || key === "worstRating")
      return `${FLOAT_MARK}${pythonFloatRepr(value as number)}`;
    if (key === "additionalProperty") return properties(value);
    return value;
  });
}

function question(source: unknown): Json {
  return ordered(source as Json, QUESTION_KEYS, (key, value) => {
    switch (key) {
      case "acceptedAnswer":
        return ordered(value as Json, ANSWER_KEYS);
      case "hasPart":
        return ordered(value as Json, CODE_KEYS);
      case "rating":
        return (value as unknown[]).map(rating);
      case "additionalProperty":
        return properties(value);
      default:
        return value;
    }
  });
}

/** An item as the original saves it: keywords found only on the DataFeedItem move into the question. */
function item(source: unknown): Json {
  const { keywords, ...rest } = source as Json;
  const q = rest.item as Json;
  const movedKeywords =
    Array.isArray(keywords) && keywords.length > 0 && !(Array.isArray(q.keywords) && q.keywords.length > 0);
  return ordered(rest, ITEM_KEYS, (key, value) =>
    key === "item" ? question(movedKeywords ? { ...(value as Json), keywords } : value) : value,
  );
}

/** How {@link serializeCheckpoint} writes. */
export interface SerializeCheckpointOptions {
  /**
   * Writes one root `hasPart` entry (a scenario). `float` marks a number to print as a Python float (`3.0`).
   * Default: the entry as it is.
   */
  scenario?: (entry: unknown, float: (value: number) => unknown) => unknown;
}

/** A number the file prints as a Python float (`3.0`, `0.1`). */
const pythonFloat = (value: number): unknown =>
  Number.isFinite(value) ? `${FLOAT_MARK}${floatRepr(value)}` : value;

/**
 * The file text of a checkpoint, as the original writes it (spec 01 §6.1, §8): the standard `@context`,
 * keys in format order, null values omitted, two-space indentation, ratings' best/worst as floats (`5.0`),
 * no trailing newline. Keys this format does not know are kept after the known ones.
 * @param file names the checkpoint in errors.
 * @throws {CheckpointNestingError} when the document nests deeper than a checkpoint may (or contains itself).
 */
export function serializeCheckpoint(
  doc: DataFeed,
  file = "<benchmark>",
  options: SerializeCheckpointOptions = {},
): string {
  checkNesting(doc, file, "save");
  const tree = ordered({ ...doc, "@context": CHECKPOINT_CONTEXT }, FEED_KEYS, (key, value) => {
    switch (key) {
      case "rating":
        return (value as unknown[]).map(rating);
      case "dataFeedElement":
        return (value as unknown[]).map(item);
      case "hasPart": {
        const { scenario } = options;
        return scenario ? (value as unknown[]).map((entry) => scenario(entry, pythonFloat)) : value;
      }
      case "additionalProperty":
        return properties(value);
      default:
        return value;
    }
  });
  return JSON.stringify(tree, null, 2).replace(FLOAT_MARK_PATTERN, "$1");
}

/**
 * The path a checkpoint is saved to: the original replaces any extension other than `.jsonld` or `.json`
 * with `.jsonld` (`bench.txt` → `bench.jsonld`).
 */
export function checkpointPath(path: string): string {
  const extension = extname(path);
  if (extension === ".jsonld" || extension === ".json") return path;
  return extension === "" ? `${path}.jsonld` : `${path.slice(0, -extension.length)}.jsonld`;
}

/**
 * Writes text to a file atomically: a temporary file beside it, then a rename. If anything fails, the
 * previous file is untouched and the temporary file is removed.
 */
export async function writeFileAtomic(path: string, text: string | Uint8Array): Promise<void> {
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temporary, text, { encoding: "utf8", flag: "wx" });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CheckpointFileError(path, `cannot write the file (${reason}); the previous file is unchanged`, {
      cause: error,
    });
  }
}

/** Serializes and saves a checkpoint atomically; returns the path written (see {@link checkpointPath}). */
export async function writeCheckpointFile(
  path: string,
  doc: DataFeed,
  options: SerializeCheckpointOptions = {},
): Promise<string> {
  const target = checkpointPath(path);
  await writeFileAtomic(target, serializeCheckpoint(doc, target, options));
  return target;
}
