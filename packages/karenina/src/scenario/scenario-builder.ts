import type { z } from "zod";
import { Question, type QuestionInput } from "../model/index.js";
import { PROTO_KEY } from "../plain-data/index.js";
import { pyRepr } from "../templates/index.js";
import { ScenarioError } from "./errors.js";
import { checkOutcomeNesting } from "./outcome-nesting.js";
import { pythonExpressionProblem } from "./python-expression.js";
import { checkScenarioGraph } from "./scenario-graph.js";
import {
  type ConditionFn,
  END,
  HANDOVER_STRATEGIES,
  type HandoverFn,
  type ModelOverrideInput,
  ModelOverrideSchema,
  type OutcomeNode,
  type ScenarioDefinition,
  type ScenarioEdge,
  type ScenarioNode,
  type ScenarioOutcomeCriterion,
  type ScenarioOutcomeCriterionInput,
  ScenarioOutcomeCriterionSchema,
  type StateCheck,
  StateCheckSchema,
  type StateUpdateFn,
  type ToolFilterInput,
  ToolFilterSchema,
  USER_AGENT_ID,
} from "./scenario-schema.js";
import { pythonTypeName, stateCheckFromShorthand } from "./shorthand.js";

/** What `addNode` takes besides the id (the original's keyword arguments; extra ones go in `metadata`). */
export interface AddNodeOptions {
  /** The node's question; copied, so later changes to it do not reach the scenario. */
  question: Question | QuestionInput;
  modelOverride?: ModelOverrideInput | null;
  toolFilter?: ToolFilterInput | null;
  /** Python source (`"lambda acc, p: {**acc, 'x': 1}"`, saved) or a TypeScript function (not saved). */
  stateUpdate?: string | StateUpdateFn | null;
  agentIdentity?: string | null;
  metadata?: Record<string, unknown>;
}

/** An edge shorthand: `{ "verify_result": true }`, `{ "node_visits.retry": { gte: 3 } }`. */
export type StateShorthand = Record<string, unknown>;

/**
 * An edge condition (spec 08 §2.8): nothing (unconditional), a StateCheck, a shorthand, a list of them (AND),
 * a Python source string (saved), or a TypeScript function (not saved).
 */
export type When =
  | StateCheck
  | StateShorthand
  | readonly (StateCheck | StateShorthand)[]
  | string
  | ConditionFn
  | null;

export interface AddEdgeOptions {
  when?: When;
  /** A handover strategy (saved) or a TypeScript function (not saved). */
  handover?: string | HandoverFn | null;
}

export interface ScenarioOptions {
  /** Hears each warning as it is raised (they are also kept in `warnings`). Default: `process.emitWarning`. */
  onWarning?: (message: string) => void;
}

const isStateCheck = (value: unknown): value is StateCheck =>
  typeof value === "object" &&
  value !== null &&
  (value as { type?: unknown }).type === "state_check" &&
  "field" in value &&
  "verify_with" in value;

const notSaved = (what: string) =>
  `${what} is a TypeScript function: it runs in this process and will not be serialized ` +
  "(a saved checkpoint does not have it; pass the Python source string to keep it)";

function schemaMessage(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "value"}: ${issue.message}`).join("; ");
}

/**
 * Builds a scenario (spec 08 §2.8–2.9): add nodes and edges, set the entry, add outcome criteria, then
 * `validate()` checks the graph and returns the immutable {@link ScenarioDefinition}. Errors carry the
 * original's messages.
 * @example
 * const s = new Scenario("pushback")
 *   .addNode("ask", { question: { question: "Capital of Australia?", raw_answer: "Canberra" } })
 *   .addNode("push", { question: { question: "Are you sure?", raw_answer: "Canberra" } })
 *   .addEdge("ask", "push", { when: { verify_result: true } })
 *   .addEdge("ask", END)
 *   .setEntry("ask");
 * s.validate().entry_node; // "ask"
 */
export class Scenario {
  /** Warnings raised so far (unsaved callables, extra unconditional edges found by `validate`). */
  readonly warnings: string[] = [];
  readonly #nodes: Record<string, ScenarioNode> = {};
  readonly #edges: ScenarioEdge[] = [];
  readonly #criteria: ScenarioOutcomeCriterion[] = [];
  #entry: string | null = null;
  readonly #onWarning: (message: string) => void;

  constructor(
    readonly name: string,
    readonly description = "",
    options: ScenarioOptions = {},
  ) {
    this.#onWarning =
      options.onWarning ?? ((message) => process.emitWarning(message, { type: "KareninaScenarioWarning" }));
  }

  #fail(problem: string): never {
    throw new ScenarioError(problem, { scenario: this.name });
  }

  #warn(message: string): void {
    this.warnings.push(message);
    this.#onWarning(message);
  }

  /**
   * Adds a node. The question is deep-copied.
   * @throws {ScenarioError} `Node '<id>' already exists`; a reserved id (`__end__`, `__proto__`) or agent
   *   identity (`__user__`); a state update source that is not a Python expression
   *   (`Cannot compile callable from source string: <src>`); a bad model override or tool filter.
   */
  addNode(nodeId: string, options: AddNodeOptions): this {
    if (Object.hasOwn(this.#nodes, nodeId)) this.#fail(`Node '${nodeId}' already exists`);
    if (options.agentIdentity === USER_AGENT_ID) {
      this.#fail(
        `agent_identity '${USER_AGENT_ID}' is reserved for the user messages of the log; choose another`,
      );
    }
    if (nodeId === END) this.#fail(`Node id '${END}' is reserved: edges use it to mean END`);
    if (nodeId === PROTO_KEY)
      this.#fail(`Node id '${PROTO_KEY}' cannot be saved in a checkpoint; choose another`);
    const { stateUpdate = null } = options;
    let source: string | null = null;
    let fn: StateUpdateFn | undefined;
    if (typeof stateUpdate === "string") source = this.#checkedSource(stateUpdate);
    else if (typeof stateUpdate === "function") {
      fn = stateUpdate;
      this.#warn(notSaved(`state_update of node '${nodeId}'`));
    }
    const node: ScenarioNode = {
      node_id: nodeId,
      question: copyQuestion(options.question, this.name, nodeId),
      model_override: this.#parse(
        ModelOverrideSchema.nullable(),
        options.modelOverride ?? null,
        "model_override",
      ),
      tool_filter: this.#parse(ToolFilterSchema.nullable(), options.toolFilter ?? null, "tool_filter"),
      metadata: structuredClone(options.metadata ?? {}),
      agent_identity: options.agentIdentity ?? null,
      state_update_source: source,
      ...(fn ? { state_update: fn } : {}),
    };
    Object.defineProperty(this.#nodes, nodeId, {
      value: node,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return this;
  }

  /**
   * Adds an edge; node existence is checked by `validate`. Edge order matters: the first passing edge is taken.
   * @throws {ScenarioError} `Unsupported 'when' type: int`, the shorthand's errors, `Unknown handover strategy
   *   '<s>'. Known strategies: [...]`, `Unsupported handover type: <T>`.
   */
  addEdge(source: string, target: string, options: AddEdgeOptions = {}): this {
    const edge: ScenarioEdge = {
      source,
      target,
      condition: null,
      condition_source: null,
      handover: null,
      ...this.#condition(options.when ?? null, `${source} → ${target}`),
      ...this.#handover(options.handover ?? null, `${source} → ${target}`),
    };
    this.#edges.push(edge);
    return this;
  }

  #condition(when: When, label: string): Partial<ScenarioEdge> {
    if (when === null) return {};
    if (typeof when === "string") return { condition_source: this.#checkedSource(when) };
    if (typeof when === "function") {
      this.#warn(notSaved(`the condition of edge ${label}`));
      return { condition_callable: when as ConditionFn };
    }
    if (Array.isArray(when)) return { condition: when.map((item) => this.#stateCheck(item)) };
    if (typeof when === "object") return { condition: this.#stateCheck(when) };
    return this.#fail(`Unsupported 'when' type: ${pythonTypeName(when)}`);
  }

  #stateCheck(item: unknown): StateCheck {
    if (isStateCheck(item)) return this.#parse(StateCheckSchema, item, "when");
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      return this.#fail(`Unsupported 'when' type: ${pythonTypeName(item)}`);
    }
    try {
      return stateCheckFromShorthand(item as StateShorthand);
    } catch (error) {
      if (error instanceof ScenarioError) this.#fail(error.problem);
      throw error;
    }
  }

  #handover(handover: string | HandoverFn | null, label: string): Partial<ScenarioEdge> {
    if (handover === null) return {};
    if (typeof handover === "string") {
      if (!(HANDOVER_STRATEGIES as readonly string[]).includes(handover)) {
        this.#fail(
          `Unknown handover strategy '${handover}'. Known strategies: ${pyRepr([...HANDOVER_STRATEGIES].sort())}`,
        );
      }
      return { handover };
    }
    if (typeof handover === "function") {
      this.#warn(notSaved(`the handover of edge ${label}`));
      return { handover_callable: handover };
    }
    return this.#fail(`Unsupported handover type: ${pythonTypeName(handover)}`);
  }

  /** Adds a criterion judging the whole execution with a declarative check. */
  addOutcome(name: string, check: OutcomeNode, options: { description?: string } = {}): this {
    return this.addOutcomeCriterion({ name, description: options.description ?? "", check });
  }

  /**
   * Appends a criterion. A TypeScript `evaluate` without `evaluate_source` runs in process and is not saved
   * (a warning says so).
   * @throws {ScenarioError} for a malformed check, one nested too deep, or a source that is not an expression.
   */
  addOutcomeCriterion(criterion: ScenarioOutcomeCriterionInput): this {
    checkOutcomeNesting(criterion.check, { scenario: this.name });
    const parsed = this.#parse(ScenarioOutcomeCriterionSchema, criterion, `outcome '${criterion.name}'`);
    if (parsed.evaluate_source !== null) this.#checkedSource(parsed.evaluate_source);
    if (parsed.evaluate !== undefined && parsed.evaluate_source === null) {
      this.#warn(notSaved(`evaluate of outcome '${parsed.name}'`));
    }
    this.#criteria.push(parsed);
    return this;
  }

  /** @throws {ScenarioError} `'<id>' is not a known node`. */
  setEntry(nodeId: string): this {
    if (!Object.hasOwn(this.#nodes, nodeId)) this.#fail(`'${nodeId}' is not a known node`);
    this.#entry = nodeId;
    return this;
  }

  /**
   * Checks the graph (spec 08 §2.8: entry set and known, edge ends known, every node reachable, a fallback for
   * conditional edges) and returns the definition: a copy, unaffected by later builder calls.
   * @throws {ScenarioError} the first failure, with the original's message.
   */
  validate(): ScenarioDefinition {
    const nodes = { ...this.#nodes };
    const edges = this.#edges.map((edge) => ({ ...edge }));
    for (const warning of checkScenarioGraph({ nodes, edges, entry_node: this.#entry }, this.name)) {
      this.#warn(warning);
    }
    return {
      name: this.name,
      description: this.description,
      nodes,
      edges,
      entry_node: this.#entry as string,
      outcome_criteria: this.#criteria.map((criterion) => ({ ...criterion })),
      metadata: {},
    };
  }

  /** Same as {@link Scenario.validate}. */
  build(): ScenarioDefinition {
    return this.validate();
  }

  #checkedSource(source: string): string {
    if (pythonExpressionProblem(source) !== null)
      this.#fail(`Cannot compile callable from source string: ${source}`);
    return source;
  }

  #parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) this.#fail(`invalid ${what}: ${schemaMessage(parsed.error)}`);
    return parsed.data as z.output<S>;
  }
}

function copyQuestion(question: Question | QuestionInput, scenario: string, nodeId: string): Question {
  const fields = question instanceof Question ? question.toJSON() : question;
  try {
    return new Question(structuredClone(fields) as QuestionInput);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ScenarioError(
      `invalid question of node '${nodeId}': ${reason}`,
      { scenario },
      { cause: error },
    );
  }
}
