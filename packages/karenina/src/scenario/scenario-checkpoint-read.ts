import type { z } from "zod";
import { checkNesting, jsonPath } from "../checkpoint/index.js";
import { describeValue, schemaProblems } from "../errors/index.js";
import { Question } from "../model/index.js";
import { PROTO_KEY, setOwn } from "../plain-data/index.js";
import { ScenarioError, type ScenarioErrorLocation } from "./errors.js";
import { checkOutcomeNesting } from "./outcome-nesting.js";
import { pythonExpressionProblem } from "./python-expression.js";
import {
  ModelOverrideSchema,
  OutcomeNodeSchema,
  SCENARIO_JSONLD_TYPE,
  SCENARIO_NODE_JSONLD_TYPE,
  type ScenarioDefinition,
  type ScenarioEdge,
  type ScenarioNode,
  type ScenarioOutcomeCriterion,
  StateCheckSchema,
  ToolFilterSchema,
} from "./scenario-schema.js";

/** Where a scenario object sits: its checkpoint file and JSON path (`$.hasPart[0]`). */
export interface ScenarioLocation {
  file: string;
  path: string;
}

type Json = Record<string, unknown>;
type Segment = string | number;

/** Structural problems carry the prefix the original's loader gives them (spec 01 §7 step 3). */
const STRUCTURE = "Invalid JSON-LD benchmark format: ";

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads the fields of one scenario object, naming the file, JSON path and scenario in every error. */
class ScenarioReader {
  scenario: string | undefined;

  constructor(private readonly where: ScenarioLocation) {}

  at(path: readonly Segment[]): ScenarioErrorLocation {
    return {
      scenario: this.scenario,
      file: this.where.file,
      jsonPath: this.where.path + jsonPath(path).slice(1),
    };
  }

  fail(path: readonly Segment[], problem: string): never {
    throw new ScenarioError(problem, this.at(path));
  }

  structure(path: readonly Segment[], expected: string, found: unknown): never {
    return this.fail(path, `${STRUCTURE}expected ${expected}, found ${describeValue(found)}`);
  }

  /** A key's value; null counts as absent (the original's optional fields accept null). */
  optional(object: Json, key: string): unknown {
    const value = Object.hasOwn(object, key) ? object[key] : undefined;
    return value === null ? undefined : value;
  }

  string(object: Json, key: string, path: readonly Segment[], required: boolean): string | undefined {
    const value = this.optional(object, key);
    if (value === undefined && !required) return undefined;
    if (typeof value !== "string") return this.structure([...path, key], "a string", value);
    return value;
  }

  type(object: Json, path: readonly Segment[], literal: string): void {
    const value = this.optional(object, "@type");
    if (value !== undefined && value !== literal)
      this.structure([...path, "@type"], JSON.stringify(literal), value);
  }

  /** A Python callable source: kept byte for byte, refused if it can never be an expression (quirk Q9). */
  source(object: Json, key: string, path: readonly Segment[]): string | null {
    const source = this.string(object, key, path, false);
    if (source === undefined) return null;
    const problem = pythonExpressionProblem(source);
    if (problem !== null)
      this.fail([...path, key], `Cannot compile callable from source string: ${source} (${problem})`);
    return source;
  }

  parse<S extends z.ZodType>(schema: S, value: unknown, path: readonly Segment[]): z.output<S> {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data as z.output<S>;
    const [first] = schemaProblems(parsed.error, value);
    return this.fail([...path, ...((first?.path ?? []) as Segment[])], first?.message ?? "invalid value");
  }
}

/**
 * Reads one root `hasPart` scenario object of a checkpoint (spec 08 §3.2–3.7) into a definition. Mirrors what
 * the original accepts and refuses, except that no Python source is executed (each is only checked to be
 * possibly an expression: quirk Q9) and nothing is graph-validated (quirk Q21; see `scenarioWarnings`).
 * Unknown keys are ignored (dropped on re-save, as the original does), except inside `questionData`, where
 * one fails the load (quirk Q11). The map key is the node id (`nodeId` is ignored).
 * @throws {ScenarioError} naming the file, the JSON path, the scenario and what was expected.
 * @throws {CheckpointNestingError} for a value nested deeper than a checkpoint may.
 */
export function decodeScenario(
  json: unknown,
  where: ScenarioLocation = { file: "<checkpoint>", path: "$.hasPart[0]" },
): ScenarioDefinition {
  checkNesting(json, where.file, "load", where.path);
  const read = new ScenarioReader(where);
  refuseProtoKeys(json, read);
  if (!isObject(json)) return read.structure([], "a karenina:Scenario object", json);
  read.type(json, [], SCENARIO_JSONLD_TYPE);
  const name = read.string(json, "name", [], true) as string;
  read.scenario = name;
  const description = read.string(json, "description", [], false) ?? "";
  const entry = read.string(json, "entryNode", [], true) as string;
  const nodesJson = read.optional(json, "nodes");
  if (!isObject(nodesJson)) return read.structure(["nodes"], "an object of nodes by id", nodesJson);
  const edgesJson = read.optional(json, "edges");
  if (!Array.isArray(edgesJson)) return read.structure(["edges"], "an array of edges", edgesJson);
  const criteriaJson = read.optional(json, "outcomeCriteria") ?? [];
  if (!Array.isArray(criteriaJson)) return read.structure(["outcomeCriteria"], "an array", criteriaJson);
  const metadata = read.optional(json, "metadata") ?? {};
  if (!isObject(metadata)) return read.structure(["metadata"], "an object", metadata);

  const nodes: Record<string, ScenarioNode> = {};
  for (const [id, node] of Object.entries(nodesJson)) setOwn(nodes, id, decodeNode(read, id, node));
  return {
    name,
    description,
    nodes,
    edges: edgesJson.map((edge, index) => decodeEdge(read, edge, ["edges", index])),
    entry_node: entry,
    outcome_criteria: criteriaJson.map((criterion, index) =>
      decodeCriterion(read, criterion, ["outcomeCriteria", index]),
    ),
    metadata: structuredClone(metadata),
  };
}

function decodeNode(read: ScenarioReader, id: string, node: unknown): ScenarioNode {
  const path = ["nodes", id];
  if (!isObject(node)) return read.structure(path, "a karenina:ScenarioNode object", node);
  read.type(node, path, SCENARIO_NODE_JSONLD_TYPE);
  const metadata = read.optional(node, "metadata") ?? {};
  if (!isObject(metadata)) return read.structure([...path, "metadata"], "an object", metadata);
  const override = read.optional(node, "modelOverride");
  const filter = read.optional(node, "toolFilter");
  return {
    node_id: id,
    question: decodeQuestion(read, node, path),
    model_override:
      override === undefined ? null : read.parse(ModelOverrideSchema, override, [...path, "modelOverride"]),
    tool_filter: filter === undefined ? null : read.parse(ToolFilterSchema, filter, [...path, "toolFilter"]),
    metadata: structuredClone(metadata),
    agent_identity: read.string(node, "agentIdentity", path, false) ?? null,
    state_update_source: read.source(node, "stateUpdateSource", path),
  };
}

/** From `questionData` when present (strict), else from the schema.org question of older files (spec 08 §3.3). */
function decodeQuestion(read: ScenarioReader, node: Json, path: readonly Segment[]): Question {
  const data = read.optional(node, "questionData");
  const schemaOrg = read.optional(node, "question");
  if (!isObject(schemaOrg))
    return read.structure([...path, "question"], "a schema.org Question object", schemaOrg);
  if (data !== undefined) {
    if (!isObject(data))
      return read.structure([...path, "questionData"], "an object of question fields", data);
    return newQuestion(read, structuredClone(data), [...path, "questionData"]);
  }
  const text = (key: string, inner?: string) => {
    const at = inner === undefined ? [...path, "question", key] : [...path, "question", key, inner];
    const holder = inner === undefined ? schemaOrg : schemaOrg[key];
    const value = isObject(holder) ? holder[inner ?? key] : undefined;
    return typeof value === "string" ? value : read.structure(at, "a string", value);
  };
  return newQuestion(
    read,
    {
      question: text("text"),
      raw_answer: text("acceptedAnswer", "text"),
      answer_template: text("hasPart", "text"),
    },
    [...path, "question"],
  );
}

function newQuestion(read: ScenarioReader, fields: Json, path: readonly Segment[]): Question {
  try {
    return new Question(fields as ConstructorParameters<typeof Question>[0]);
  } catch (error) {
    return read.fail(path, `invalid question: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function decodeEdge(read: ScenarioReader, edge: unknown, path: readonly Segment[]): ScenarioEdge {
  if (!isObject(edge)) return read.structure(path, "an edge object", edge);
  const condition = read.optional(edge, "condition");
  return {
    source: read.string(edge, "source", path, true) as string,
    target: read.string(edge, "target", path, true) as string,
    condition:
      condition === undefined
        ? null
        : Array.isArray(condition)
          ? condition.map((check, index) =>
              read.parse(StateCheckSchema, check, [...path, "condition", index]),
            )
          : read.parse(StateCheckSchema, condition, [...path, "condition"]),
    condition_source: read.source(edge, "conditionSource", path),
    handover: read.string(edge, "handover", path, false) ?? null,
  };
}

function decodeCriterion(
  read: ScenarioReader,
  criterion: unknown,
  path: readonly Segment[],
): ScenarioOutcomeCriterion {
  if (!isObject(criterion)) return read.structure(path, "an outcome criterion object", criterion);
  const check = read.optional(criterion, "check");
  if (check !== undefined) {
    checkOutcomeNesting(check, read.at([...path, "check"]));
  }
  return {
    name: read.string(criterion, "name", path, true) as string,
    description: read.string(criterion, "description", path, false) ?? "",
    check: check === undefined ? null : read.parse(OutcomeNodeSchema, check, [...path, "check"]),
    evaluate_source: read.source(criterion, "evaluateSource", path),
  };
}

/** A `__proto__` key would vanish in schema parsing or change a copy's prototype: refused, as the reader does. */
function refuseProtoKeys(json: unknown, read: ScenarioReader): void {
  const stack: { value: unknown; path: Segment[] }[] = [{ value: json, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: Segment[] };
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) stack.push({ value: item, path: [...path, index] });
      continue;
    }
    if (Object.hasOwn(value, PROTO_KEY)) {
      read.fail(
        [...path, PROTO_KEY],
        `a key named "${PROTO_KEY}" is not allowed in a scenario; rename or remove it`,
      );
    }
    for (const [key, child] of Object.entries(value)) stack.push({ value: child, path: [...path, key] });
  }
}
