export type { DeepJudgmentUsageStage } from "./calls.js";
export { type TemplateDeepJudgmentStage, templateDeepJudgment } from "./template-deep-judgment.js";
