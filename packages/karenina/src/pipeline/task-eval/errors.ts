import { KareninaError } from "../../errors/index.js";

/** A TaskEval set up or asked in a way it cannot evaluate. The message says what to change. */
export class TaskEvalError extends KareninaError {
  override readonly name: string = "TaskEvalError";
}

/** A scope (the global one, or a step) has nothing to evaluate the logged output with (spec 05 §9). */
export class NothingToEvaluateError extends TaskEvalError {
  override readonly name: string = "NothingToEvaluateError";

  /** @param stepId the step, or null for the global scope (or for the whole TaskEval, when nothing is attached anywhere). */
  constructor(readonly stepId: string | null) {
    super(
      stepId === null
        ? "nothing to evaluate: attach a template (addTemplate with a question from addQuestion) or a rubric (addRubric, addDynamicRubric) before evaluate()"
        : `nothing to evaluate in step "${stepId}": attach a template (addTemplate with a question from addQuestion) or a rubric (addRubric, addDynamicRubric) with { stepId: "${stepId}" }`,
    );
  }
}

/** A rubric added to a scope has a trait whose name another rubric of that scope already uses. */
export class DuplicateTraitError extends TaskEvalError {
  override readonly name: string = "DuplicateTraitError";

  constructor(
    readonly traitName: string,
    readonly stepId: string | null,
    readonly dynamic: boolean,
  ) {
    const scope = stepId === null ? "the global scope" : `step "${stepId}"`;
    const kind = dynamic ? "dynamic rubric" : "rubric";
    super(
      `trait "${traitName}" is already in the ${kind} of ${scope}: rubrics added to one scope are merged, so trait names must be unique (rename one of them)`,
    );
  }
}
