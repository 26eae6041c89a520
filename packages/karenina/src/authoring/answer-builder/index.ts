export { AnswerBuilder, type RegexCheckOptions, type RegexMatchType } from "./answer-builder.js";
export { AnswerBuilderError } from "./errors.js";
