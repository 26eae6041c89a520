import { loadTemplate } from "../../templates/index.js";
import type { Stage } from "../stage.js";

/**
 * Stage 1 (spec 04 §5.1): loads the question's template, which validates it. Runs even after an error. A
 * question without template code fails here, before any LLM call.
 */
export const validateTemplateStage: Stage = {
  name: "ValidateTemplate",
  needs: [],
  gives: ["template", "templateValidationError"],
  shouldRun: () => true,
  async run(ctx) {
    const source = ctx.task.question.template;
    if (source === null || source.code.trim() === "") {
      fail(ctx, "the question has no answer template");
      return;
    }
    try {
      ctx.artifacts.template = await loadTemplate(source.code, source.language, {
        pythonSandbox: ctx.services.pythonSandbox,
      });
      ctx.artifacts.templateValidationError = null;
    } catch (error) {
      fail(ctx, error instanceof Error ? error.message : String(error));
    }
  },
};

function fail(ctx: Parameters<Stage["run"]>[0], reason: string): void {
  const message = `Template validation failed: ${reason}`;
  ctx.artifacts.templateValidationError = message;
  ctx.markError(message);
}
