import { expect } from "vitest";
import { ScenarioError } from "../errors.js";

/** The ScenarioError `action` throws (the test fails when it throws nothing or another error). */
export function scenarioErrorOf(action: () => unknown): ScenarioError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return error as ScenarioError;
  }
  throw new Error("expected a ScenarioError");
}
