export { describeValue, KareninaError } from "./karenina-error.js";
export { dottedPath, type SchemaProblem, schemaProblems, valueAt } from "./zod-issues.js";
