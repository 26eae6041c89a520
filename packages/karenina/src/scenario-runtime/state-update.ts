import type { ScenarioNode } from "../scenario/index.js";
import { ScenarioRuntimeError } from "./errors.js";
import { describeError } from "./primitive-check.js";
import type { ScenarioCallables } from "./scenario-callables.js";

/** What a state update needs besides the node and its inputs. */
export interface StateUpdateOptions {
  /** Runs `state_update_source` strings; null when the scenario has none. */
  readonly callables: ScenarioCallables | null;
  /** Receives one message when the update fails and is rolled back. */
  warn(message: string): void;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** A deep copy of plain data (objects and arrays); anything else is kept as it is (PyFloats are immutable). */
function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      Object.defineProperty(copy, key, {
        value: deepCopy(child),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy as T;
  }
  return value;
}

/**
 * Runs the node's `state_update` after a turn (spec 08 §4.7) and returns the new accumulated state. A
 * TypeScript `state_update` runs in process on `accumulated` itself (in-place changes are allowed) and takes
 * precedence over `state_update_source`, which runs through `callables`. A deep copy taken first is returned
 * instead, with a warning, when the update throws or returns anything but a plain object (quirk Q15, fixed:
 * the original lets `null` or a list replace the state). A node without an update gets `accumulated` back.
 * @throws ScenarioRuntimeError the node has a `state_update_source` and no `callables` runner was given.
 */
export async function applyStateUpdate(
  node: ScenarioNode,
  accumulated: Record<string, unknown>,
  parsed: Record<string, unknown>,
  options: StateUpdateOptions,
): Promise<Record<string, unknown>> {
  const update = node.state_update;
  const source = node.state_update_source;
  if (update === undefined && source === null) return accumulated;
  if (update === undefined && options.callables === null) {
    throw new ScenarioRuntimeError(
      `The state_update of node '${node.node_id}' is Python source, and no runner for scenario callables was ` +
        "given: pass a SandboxScenarioCallables when the scenario has callable sources",
      null,
      node.node_id,
    );
  }
  const snapshot = deepCopy(accumulated);
  try {
    const value =
      update !== undefined
        ? await update(accumulated, parsed)
        : await options.callables?.stateUpdate(source as string, accumulated, parsed);
    if (isPlainObject(value)) return value;
    options.warn(
      `The state_update of node '${node.node_id}' returned ${describeReturn(value)} instead of an object; ` +
        "the accumulated state is restored",
    );
  } catch (error) {
    options.warn(
      `The state_update of node '${node.node_id}' raised ${describeError(error)}; the accumulated state is restored`,
    );
  }
  return snapshot;
}

function describeReturn(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}
