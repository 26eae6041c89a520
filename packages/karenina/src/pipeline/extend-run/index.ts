export { ExtendRunError } from "./errors.js";
export { extendRubric } from "./extend-rubric.js";
export { extendTemplate } from "./extend-template.js";
export { mergeRubricRow } from "./merge-rubric.js";
export { observedFanOut, priorAnswers } from "./prior-run.js";
export type { ExtendedRun, ExtendOptions, ExtendSource } from "./source.js";
