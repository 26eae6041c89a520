export { ScenarioError, type ScenarioErrorLocation } from "./errors.js";
export { checkOutcomeNesting } from "./outcome-nesting.js";
export {
  allOf,
  allTurns,
  anyOf,
  anyTurn,
  atLeastN,
  countTurns,
  crossTurn,
  firstMatchIndex,
  firstTurn,
  firstTurnScope,
  lastTurn,
  lastTurnScope,
  statusIs,
  type TurnFilter,
  turnAt,
  turnCountEq,
  turnCountGte,
} from "./outcome-sugar.js";
export { pythonExpressionProblem } from "./python-expression.js";
export {
  type AddEdgeOptions,
  type AddNodeOptions,
  Scenario,
  type ScenarioOptions,
  type StateShorthand,
  type When,
} from "./scenario-builder.js";
export { decodeScenario, type ScenarioLocation } from "./scenario-checkpoint-read.js";
export {
  type EncodeScenarioOptions,
  encodeOutcomeNode,
  encodePrimitive,
  encodeScenario,
} from "./scenario-checkpoint-write.js";
export {
  CALLABLE,
  describeCheck,
  describeEdge,
  describeEdgeCondition,
  describeOutcome,
  describeOutcomeNode,
  describeScope,
  pythonSource,
} from "./scenario-describe.js";
export { checkScenarioGraph, type ScenarioGraph, scenarioWarnings } from "./scenario-graph.js";
export * from "./scenario-schema.js";
export { pythonTypeName, SHORTHAND_OPERATORS, stateCheckFromShorthand, sugarPrimitive } from "./shorthand.js";
