import type { VerificationResult } from "../library-types/index.js";
import { DeepJudgmentSection, RubricDeepJudgmentSection } from "./sections/DeepJudgmentSections.js";
import { MetadataSection, UsageSection } from "./sections/MetadataSections.js";
import { QuestionSection, ResponseSection, SystemPromptsSection } from "./sections/QuestionSections.js";
import { RubricSection } from "./sections/RubricSection.js";
import { CaveatsSection, RetriesSection, StatusSection } from "./sections/StatusSections.js";
import {
  AbstentionSection,
  EmbeddingSection,
  ExtractionSection,
  RegexSection,
  VerifySection,
} from "./sections/TemplateSections.js";
import "./result-detail.css";

/** Every part of one result, each section only when the result has data for it (spec 07 §1.6). */
export function ResultDetail({ result }: { readonly result: VerificationResult }) {
  const { template } = result;
  return (
    <div className="result-detail">
      <StatusSection metadata={result.metadata} />
      <QuestionSection result={result} />
      <ResponseSection result={result} />
      {template === null ? null : (
        <>
          <ExtractionSection template={template} />
          <RegexSection template={template} />
          <VerifySection template={template} />
        </>
      )}
      <RubricSection rubric={result.rubric} />
      {template === null ? null : (
        <>
          <EmbeddingSection template={template} />
          <AbstentionSection template={template} />
        </>
      )}
      <DeepJudgmentSection judgment={result.deep_judgment} />
      <RubricDeepJudgmentSection judgment={result.deep_judgment_rubric} />
      <SystemPromptsSection result={result} />
      <MetadataSection result={result} />
      <CaveatsSection caveats={result.metadata.caveats} />
      <RetriesSection retryCounts={result.metadata.retry_counts} />
      {template === null ? null : <UsageSection template={template} />}
    </div>
  );
}
