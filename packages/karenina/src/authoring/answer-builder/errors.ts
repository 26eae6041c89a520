import { KareninaError } from "../../errors/index.js";

/** An `AnswerBuilder` call with an argument it cannot use; the message says which and what to give. */
export class AnswerBuilderError extends KareninaError {
  override readonly name = "AnswerBuilderError";
}
