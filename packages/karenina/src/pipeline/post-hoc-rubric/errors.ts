import { KareninaError } from "../../errors/index.js";

/** Post-hoc rubric judging was asked in a way it cannot run (spec 08 §10.2); the message says what to change. */
export class PostHocRubricError extends KareninaError {
  override readonly name: string = "PostHocRubricError";
}
