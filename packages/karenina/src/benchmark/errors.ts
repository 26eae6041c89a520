import { KareninaError } from "../errors/index.js";

/** A question id the benchmark does not hold. */
export class QuestionNotFoundError extends KareninaError {
  override readonly name = "QuestionNotFoundError";

  constructor(readonly questionId: string) {
    super(`Question not found: ${questionId}`);
  }
}

/** A scenario name the benchmark does not hold. */
export class ScenarioNotFoundError extends KareninaError {
  override readonly name = "ScenarioNotFoundError";

  constructor(readonly scenarioName: string) {
    super(`Scenario '${scenarioName}' not found`);
  }
}

/** An explicit question id is already used in the benchmark. */
export class DuplicateQuestionError extends KareninaError {
  override readonly name = "DuplicateQuestionError";

  constructor(readonly questionId: string) {
    super(`Question with ID ${questionId} already exists`);
  }
}

/** A benchmark operation was called with arguments it cannot use. */
export class BenchmarkUsageError extends KareninaError {
  override readonly name = "BenchmarkUsageError";
}

/** A question has only the default placeholder template (or none) where a real one is needed. */
export class MissingTemplateError extends KareninaError {
  override readonly name = "MissingTemplateError";

  constructor(readonly questionId: string) {
    super(`Question ${questionId} has no template`);
  }
}

/** A generated-templates file (`exportGeneratedTemplates`) that cannot be read or is not `{"<id>": "<code>"}`. */
export class GeneratedTemplatesFileError extends KareninaError {
  override readonly name = "GeneratedTemplatesFileError";

  constructor(
    readonly file: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${problem}`, options);
  }
}
