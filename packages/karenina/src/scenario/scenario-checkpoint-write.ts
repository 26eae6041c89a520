import { firstCodePoints, type Question } from "../model/index.js";
import { MODEL_CONFIG_KEYS, type ModelConfig } from "../pipeline/config/model/index.js";
import { setOwn } from "../plain-data/index.js";
import { type Primitive, primitiveFloatParameters } from "../templates/index.js";
import {
  OUTCOME_NODE_CLASSES,
  type OutcomeNode,
  SCENARIO_JSONLD_TYPE,
  SCENARIO_NODE_JSONLD_TYPE,
  type ScenarioDefinition,
  type ScenarioEdge,
  type ScenarioNode,
  type ScenarioOutcomeCriterion,
  type Scope,
  type StateCheck,
} from "./scenario-schema.js";

type Json = Record<string, unknown>;

/** How {@link encodeScenario} writes. */
export interface EncodeScenarioOptions {
  /**
   * What to put where the original has a Python float (`NumericRange.min`, a model's `temperature`), so that
   * the checkpoint writer prints it as `3.0`. Default: the number itself (which JSON prints as `3`).
   */
  float?: (value: number) => unknown;
}

/** Model config fields the original never writes into a scenario: credentials and manual traces. */
const UNSAVED_MODEL_KEYS = new Set(["endpoint_api_key", "anthropic_api_key", "manual_traces"]);
const MODEL_FLOAT_KEYS = new Set([
  "temperature",
  "mcp_http_timeout",
  "mcp_sse_read_timeout",
  "request_timeout",
]);
const RETRY_FLOAT_KEYS = new Set(["backoff_min", "backoff_max", "backoff_multiplier"]);
const ESCALATION_FLOAT_KEYS = new Set(["increment", "multiplier", "max_timeout"]);

/** Copies a JSON value (data only: a `__proto__` key stays an own key). */
const copy = <T>(value: T): T => structuredClone(value);

/**
 * A scenario as the original writes it into the root `hasPart` of a checkpoint (spec 08 §3.2–3.6): key
 * order, omitted nulls on typed objects, nulls kept inside free-form objects, primitives as their parameters
 * then `type`, check nodes with their class name first. The same definition always gives the same object
 * (a loaded scenario re-saves as a fresh save would, unlike the original: quirk Q8). TypeScript callables are
 * not written (they cannot be).
 * @example
 * const definition = new Scenario("one-turn")
 *   .addNode("ask", { question: { question: "Capital of Australia?", raw_answer: "Canberra" } })
 *   .addEdge("ask", END)
 *   .setEntry("ask")
 *   .validate();
 * encodeScenario(definition).nodes.ask["@type"]; // "karenina:ScenarioNode"
 */
export function encodeScenario(definition: ScenarioDefinition, options: EncodeScenarioOptions = {}): Json {
  const float = options.float ?? ((value: number) => value);
  const nodes: Json = {};
  for (const [id, node] of Object.entries(definition.nodes))
    setOwn<unknown>(nodes, id, encodeNode(id, node, float));
  return {
    "@type": SCENARIO_JSONLD_TYPE,
    name: definition.name,
    description: definition.description,
    entryNode: definition.entry_node,
    nodes,
    edges: definition.edges.map((edge) => encodeEdge(edge, float)),
    outcomeCriteria: definition.outcome_criteria.map((criterion) => encodeCriterion(criterion, float)),
    metadata: copy(definition.metadata),
  };
}

type Float = (value: number) => unknown;

function encodeNode(id: string, node: ScenarioNode, float: Float): Json {
  const out: Json = {
    "@type": SCENARIO_NODE_JSONLD_TYPE,
    nodeId: id,
    question: schemaOrgQuestion(node.question),
  };
  if (node.model_override !== null) {
    const override: Json = {};
    const { answering_model, parsing_model } = node.model_override;
    if (answering_model !== null) override.answering_model = encodeModel(answering_model, float);
    if (parsing_model !== null) override.parsing_model = encodeModel(parsing_model, float);
    out.modelOverride = override;
  }
  if (node.tool_filter !== null) {
    out.toolFilter = {
      remove: node.tool_filter.remove.map((entry) => ({ server: entry.server, tool: entry.tool })),
    };
  }
  if (node.state_update_source !== null) out.stateUpdateSource = node.state_update_source;
  out.questionData = copy(node.question.toJSON());
  if (node.agent_identity !== null) out.agentIdentity = node.agent_identity;
  out.metadata = copy(node.metadata);
  return out;
}

/** The schema.org Question the original writes beside `questionData` (template name: first 40 code points). */
function schemaOrgQuestion(question: Question): Json {
  const text = question.question;
  const long = firstCodePoints(text, 41).length > 40;
  return {
    "@type": "Question",
    text,
    acceptedAnswer: { "@type": "Answer", text: question.raw_answer || "" },
    hasPart: {
      "@type": "SoftwareSourceCode",
      name: long ? `${firstCodePoints(text, 40)}... Answer Template` : `${text} Answer Template`,
      text: question.answer_template ?? "",
      programmingLanguage: "Python",
    },
  };
}

/** A ModelConfig dump in field order, without nulls, credentials and manual traces (spec 08 §3.3). */
function encodeModel(model: ModelConfig, float: Float): Json {
  const out: Json = {};
  const fields = model as unknown as Json;
  for (const key of MODEL_CONFIG_KEYS) {
    const value = fields[key];
    if (value === null || value === undefined || UNSAVED_MODEL_KEYS.has(key)) continue;
    if (MODEL_FLOAT_KEYS.has(key) && typeof value === "number") out[key] = float(value);
    else if (key === "retry_policy") out[key] = encodeRetryPolicy(value as Json, float);
    else out[key] = copy(value);
  }
  return out;
}

function encodeRetryPolicy(policy: Json, float: Float): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(policy)) {
    const floats = key === "timeout_escalation" ? ESCALATION_FLOAT_KEYS : RETRY_FLOAT_KEYS;
    out[key] = value !== null && typeof value === "object" ? floatsAt(value as Json, floats, float) : value;
  }
  return out;
}

function floatsAt(object: Json, keys: ReadonlySet<string>, float: Float): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) {
    setOwn(out, key, keys.has(key) && typeof value === "number" ? float(value) : copy(value));
  }
  return out;
}

function encodeEdge(edge: ScenarioEdge, float: Float): Json {
  const out: Json = { source: edge.source, target: edge.target };
  if (edge.condition !== null) {
    out.condition = Array.isArray(edge.condition)
      ? edge.condition.map((check) => encodeStateCheck(check, float))
      : encodeStateCheck(edge.condition as StateCheck, float);
  }
  if (edge.condition_source !== null) out.conditionSource = edge.condition_source;
  if (edge.handover !== null) out.handover = edge.handover;
  return out;
}

function encodeStateCheck(check: StateCheck, float: Float): Json {
  return {
    type: "state_check",
    field: check.field,
    expected: copy(check.expected ?? null),
    verify_with: encodePrimitive(check.verify_with, float),
  };
}

/** A primitive's parameters in declaration order (nulls kept, floats marked), then `type` (spec 08 §3.6). */
export function encodePrimitive(primitive: Primitive, float: Float = (value) => value): Json {
  return floatsAt(primitive.toJSON(), primitiveFloatParameters(primitive.type), float);
}

function encodeCriterion(criterion: ScenarioOutcomeCriterion, float: Float): Json {
  const out: Json = { name: criterion.name, description: criterion.description };
  if (criterion.check !== null) out.check = encodeOutcomeNode(criterion.check, float);
  if (criterion.evaluate_source !== null) out.evaluateSource = criterion.evaluate_source;
  return out;
}

/**
 * An outcome node with its class name as `type` and its fields in the order of spec 08 §2.7. Recursive over
 * compositions, whose depth the builder and the reader bound (`MAX_OUTCOME_NESTING`).
 */
export function encodeOutcomeNode(node: OutcomeNode, float: Float = (value) => value): Json {
  const type = OUTCOME_NODE_CLASSES[node.type];
  switch (node.type) {
    case "turn_check":
      return {
        type,
        scope: encodeScope(node.scope),
        field: node.field,
        expected: copy(node.expected ?? null),
        verify_with: encodePrimitive(node.verify_with, float),
      };
    case "result_check":
      return {
        type,
        field: node.field,
        expected: copy(node.expected ?? null),
        verify_with: encodePrimitive(node.verify_with, float),
      };
    case "cross_turn_check":
      return {
        type,
        source_turn: encodeScope(node.source_turn),
        source_field: node.source_field,
        target_turn: encodeScope(node.target_turn),
        target_field: node.target_field,
        comparison: node.comparison,
        normalize: copy(node.normalize),
      };
    case "all_of":
    case "any_of":
      return { type, conditions: node.conditions.map((child) => encodeOutcomeNode(child, float)) };
    case "at_least_n":
      return { type, n: node.n, conditions: node.conditions.map((child) => encodeOutcomeNode(child, float)) };
    case "count_turns":
    case "first_match_index":
      return { type, node_id: copy(node.node_id), verify_result: node.verify_result };
  }
}

/** A scope keeps its lowercase tag: `{"type": "turn_at", "index": 1}`. */
function encodeScope(scope: Scope): Json {
  switch (scope.type) {
    case "turn_at":
      return { type: scope.type, index: scope.index };
    case "any_turn":
    case "all_turns":
      return { type: scope.type, node_id: copy(scope.node_id) };
    default:
      return { type: scope.type };
  }
}
