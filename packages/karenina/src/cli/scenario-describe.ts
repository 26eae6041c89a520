// The describers live with the scenario model (src/scenario/), shared by the CLI and the server.
export {
  CALLABLE,
  describeCheck,
  describeEdge,
  describeEdgeCondition,
  describeOutcome,
  describeOutcomeNode,
  describeScope,
  pythonSource,
} from "../scenario/index.js";
