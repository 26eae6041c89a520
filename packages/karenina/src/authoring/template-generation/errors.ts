import { KareninaError } from "../../errors/index.js";

/** The phases of template generation (spec 06 §7), as named in messages. */
export type GenerationPhase = "plan" | "ground-truth spec" | "field descriptions";

/**
 * A phase of template generation could not produce a usable reply. The message names the question (its first
 * characters), the phase and the last problem found:
 * `template generation for "Which drug…": ground-truth spec: no usable reply after 3 attempts: attributes.0.type: …`.
 */
export class TemplateGenerationError extends KareninaError {
  override readonly name: string = "TemplateGenerationError";

  constructor(
    readonly question: string,
    readonly phase: GenerationPhase,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    const shown = question.length > 50 ? `${question.slice(0, 49)}…` : question;
    super(`template generation for ${JSON.stringify(shown)}: ${phase}: ${problem}`, options);
  }
}

/** The backup file of a template-generation job cannot be read. */
export class TemplateBackupError extends KareninaError {
  override readonly name: string = "TemplateBackupError";

  constructor(
    readonly file: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${problem}`, options);
  }
}
