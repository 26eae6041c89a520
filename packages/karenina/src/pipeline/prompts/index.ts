export {
  type AbstentionOutcome,
  type AbstentionPromptInput,
  type AbstentionReply,
  AbstentionReplySchema,
  abstentionPrompt,
  abstentionReplySchema,
  readAbstentionReply,
} from "./abstention.js";
export {
  adapterAdditions,
  type InstructionContext,
  type PromptAdditions,
  type PromptFamily,
  promptFamily,
  schemaBlock,
} from "./adapter-additions.js";
export {
  agenticExtractionPrompt,
  answeringTraceBlock,
  type ExtractionPromptInput,
  type InvestigationCapabilities,
  type InvestigationPromptInput,
  investigationPrompt,
  type JudgeContextMode,
  judgeContextShows,
  MAX_REPORT_CHARS,
  toolsSentence,
  truncateReport,
  unansweredFields,
} from "./agentic-parsing.js";
export {
  type DecisionOutcome,
  type DecisionPromptInput,
  type DecisionReply,
  DecisionReplySchema,
  decisionPrompt,
  readDecisionReply,
} from "./agentic-parsing-decision.js";
export {
  type ScalarTraitReply,
  type SharedInvestigationInput,
  scalarTraitExtraction,
  sharedTraitsInvestigationPrompt,
  type TraitExtraction,
  type TraitInvestigationInput,
  templateTraitExtraction,
  templateTraitSchema,
  traitInvestigationPrompt,
} from "./agentic-rubric.js";
export {
  type AnsweringPromptInput,
  answeringMessages,
  answeringUserText,
  type FewShotPair,
  workspaceParagraph,
} from "./answering.js";
export {
  assemblePrompt,
  type JudgePrompt,
  type PromptSettings,
  type PromptText,
  promptMessages,
} from "./assembly.js";
export {
  type AssessedExcerptRef,
  attributeGuidance,
  type DeepJudgmentAttribute,
  type DeepJudgmentPromptBase,
  deepJudgmentAttributes,
  EXCERPT_RETRY_NOTE,
  type ExcerptPromptInput,
  excerptExtractionPrompt,
  excerptReplySchema,
  formatExcerpts,
  hallucinationPrompt,
  parametersPrompt,
  parametersUserText,
  reasoningOnlyPrompt,
  reasoningPrompt,
} from "./deep-judgment-template.js";
export {
  attributeHallucinationRisk,
  checkTemplateExcerpts,
  type ExcerptAssessment,
  type ExcerptCheck,
  type RejectedExcerpt,
  readExcerptReply,
  readHallucinationReply,
  readReasoningReply,
  type TemplateExcerpt,
  type TemplateExcerptConfidence,
  templateExcerptRejected,
} from "./deep-judgment-template-replies.js";
export {
  type EquivalencePromptInput,
  equivalencePrompt,
  readEquivalenceReply,
} from "./embedding-equivalence.js";
export { fewShotSeed, resolveFewShotExamples } from "./few-shot.js";
export { readJsonObject } from "./json-reply.js";
export { type ParsingPrompt, type ParsingPromptInput, parsingPrompt, parsingSystemText } from "./parsing.js";
export {
  classifyDynamicTraits,
  DYNAMIC_SKIP_REASONS,
  type DynamicConcept,
  type PresencePromptInput,
  type PresenceReply,
  PresenceReplySchema,
  presenceCheckPrompt,
  presenceReplySchema,
  readPresenceReply,
  traitConcept,
} from "./presence-check.js";
export { promptForTask, withUserInstructions } from "./prompt-config.js";
export { PROMPT_TASKS, type PromptTask } from "./prompt-task.js";
export {
  readSufficiencyReply,
  type SufficiencyOutcome,
  type SufficiencyPromptInput,
  type SufficiencyReply,
  SufficiencyReplySchema,
  sufficiencyPrompt,
  sufficiencyReplySchema,
} from "./sufficiency.js";
