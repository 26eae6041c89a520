import { coerceLaxBoolean } from "../model/registry.js";
import { setOwn } from "../plain-data/index.js";
import { CheckpointError } from "./errors.js";
import type { PropertyValue } from "./jsonld-schema.js";
import { checkNesting } from "./nesting.js";
import { pythonJsonDumps } from "./python-json.js";

/** The question-level `additionalProperty` values that become question fields (spec 01 §6.7). */
export interface QuestionPropertyFields {
  finished: boolean;
  author: unknown;
  sources: unknown;
  few_shot_examples: unknown;
  answer_notes: string | null;
  workspace_path: string | null;
  custom_metadata: Record<string, unknown> | null;
}

const CUSTOM_PREFIX = "custom_";

/** Custom metadata key of a `custom_` property: every occurrence of `custom_` is removed, as the original does. */
export function customKeyOf(propertyName: string): string {
  return propertyName.replaceAll(CUSTOM_PREFIX, "");
}

export function customPropertyName(key: string): string {
  return `${CUSTOM_PREFIX}${key}`;
}

/**
 * Author, sources and few-shot examples are JSON text when created and raw objects after updates; read both.
 * Decoded text is held to the checkpoint's nesting limit (`at` is where the text is, for the message).
 */
function decodeJsonish(value: unknown, file: string, at: string): unknown {
  if (typeof value !== "string") return value ?? null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(value);
  } catch {
    return value;
  }
  checkNesting(decoded, file, "load", at);
  return decoded;
}

/**
 * Reads a question's properties. `path` is the JSON path of the property array, for errors.
 * @throws {CheckpointError} when `finished` is not a boolean the original would accept.
 */
export function readQuestionProperties(
  properties: readonly PropertyValue[] | undefined,
  file: string,
  path: string,
): QuestionPropertyFields {
  const valueAt = (index: number) => `${path}[${index}].value`;
  const fields: QuestionPropertyFields = {
    finished: false,
    author: null,
    sources: null,
    few_shot_examples: null,
    answer_notes: null,
    workspace_path: null,
    custom_metadata: null,
  };
  properties?.forEach((property, index) => {
    const { name, value } = property;
    switch (name) {
      case "finished": {
        const finished = coerceLaxBoolean(value);
        if (finished === undefined) {
          throw CheckpointError.expected(file, `${path}[${index}].value`, "a boolean for `finished`", value);
        }
        fields.finished = finished;
        break;
      }
      case "author":
        fields.author = decodeJsonish(value, file, valueAt(index));
        break;
      case "sources":
        fields.sources = decodeJsonish(value, file, valueAt(index));
        break;
      case "few_shot_examples":
        fields.few_shot_examples = decodeJsonish(value, file, valueAt(index));
        break;
      case "answer_notes":
        fields.answer_notes = value == null ? null : String(value);
        break;
      case "workspace_path":
        fields.workspace_path = value == null ? null : String(value);
        break;
      default:
        if (name.startsWith(CUSTOM_PREFIX)) {
          fields.custom_metadata ??= {};
          // A custom property may be named `__proto__` or `constructor`: it is kept as a key like any other.
          setOwn(fields.custom_metadata, customKeyOf(name), value ?? null);
        }
    }
  });
  return fields;
}

/** What `addQuestion` writes, in the original's order, each only when non-empty. */
export interface NewQuestionProperties {
  finished: boolean;
  author?: unknown;
  sources?: unknown;
  custom_metadata?: Record<string, unknown> | null;
  few_shot_examples?: unknown;
  answer_notes?: string | null;
  workspace_path?: string | null;
}

function isTruthy(value: unknown): boolean {
  if (value == null || value === "" || value === false || value === 0) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/**
 * The properties `addQuestion` writes for a new question.
 * @throws {CheckpointNestingError} when author, sources or few-shot examples nest deeper than a checkpoint may
 * (they are written as JSON text by a recursive writer, which would overflow the stack).
 */
export function newQuestionProperties(fields: NewQuestionProperties): PropertyValue[] {
  for (const name of ["author", "sources", "few_shot_examples"] as const) {
    checkNesting(fields[name], "<benchmark>", "save", name);
  }
  const properties: PropertyValue[] = [property("finished", fields.finished)];
  if (isTruthy(fields.author)) properties.push(property("author", pythonJsonDumps(fields.author)));
  if (isTruthy(fields.sources)) properties.push(property("sources", pythonJsonDumps(fields.sources)));
  if (fields.custom_metadata && isTruthy(fields.custom_metadata)) {
    for (const [key, value] of Object.entries(fields.custom_metadata)) {
      properties.push(property(customPropertyName(key), value));
    }
  }
  if (isTruthy(fields.few_shot_examples)) {
    properties.push(property("few_shot_examples", pythonJsonDumps(fields.few_shot_examples)));
  }
  if (isTruthy(fields.answer_notes)) properties.push(property("answer_notes", fields.answer_notes));
  if (isTruthy(fields.workspace_path)) properties.push(property("workspace_path", fields.workspace_path));
  return properties;
}

export function property(name: string, value: unknown): PropertyValue {
  return value === null || value === undefined
    ? { "@type": "PropertyValue", name }
    : { "@type": "PropertyValue", name, value };
}

/** Replaces the value of the property with this name in place, or appends a new one. */
export function upsertProperty(properties: PropertyValue[], name: string, value: unknown): void {
  const existing = properties.find((p) => p.name === name);
  if (!existing) {
    properties.push(property(name, value));
  } else if (value === null || value === undefined) {
    delete existing.value;
  } else {
    existing.value = value;
  }
}

/** Removes every property with this name; true when one was there. */
export function removeProperty(properties: PropertyValue[], name: string): boolean {
  const before = properties.length;
  for (let i = properties.length - 1; i >= 0; i--) if (properties[i]?.name === name) properties.splice(i, 1);
  return properties.length !== before;
}
