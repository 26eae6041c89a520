import type { VerificationResult } from "../../library-types/index.js";
import { TraceViewer } from "../../trace-viewer/index.js";
import { DetailSection, Facts, Verbatim } from "./parts.js";

/** The question as asked and the reference answer. */
export function QuestionSection({ result }: { readonly result: VerificationResult }) {
  const { question_text: question, raw_answer: answer } = result.metadata;
  return (
    <>
      {question === "" ? null : (
        <DetailSection title="Raw Question">
          <Verbatim text={question} />
        </DetailSection>
      )}
      {answer === null ? null : (
        <DetailSection title="Raw Answer (Expected)">
          <Verbatim text={answer} />
        </DetailSection>
      )}
    </>
  );
}

/** The answering model's trace in the trace viewer, and what the judge read when it was not the full trace. */
export function ResponseSection({ result }: { readonly result: VerificationResult }) {
  const { template } = result;
  const hasTrace =
    template !== null && (template.raw_llm_response !== "" || template.trace_messages.length > 0);
  const partial = !result.used_full_trace && result.evaluation_input !== null;
  if (!hasTrace && !partial && result.trace_extraction_error === null) return null;
  return (
    <DetailSection title="Raw LLM Response (Generated)">
      {hasTrace && template !== null ? (
        <TraceViewer
          text={template.raw_llm_response}
          messages={template.trace_messages}
          label="Answer trace"
        />
      ) : null}
      <Facts
        entries={[
          ["Judge read", result.used_full_trace ? undefined : "the final answer only (not the full trace)"],
          ["Trace extraction error", result.trace_extraction_error ?? undefined],
        ]}
      />
      {partial && result.evaluation_input !== null ? (
        <>
          <h4>Evaluation input</h4>
          <Verbatim text={result.evaluation_input} />
        </>
      ) : null}
    </DetailSection>
  );
}

/** The system prompts the models were given. */
export function SystemPromptsSection({ result }: { readonly result: VerificationResult }) {
  const { answering_system_prompt: answering, parsing_system_prompt: parsing } = result.metadata;
  if (answering === null && parsing === null) return null;
  return (
    <DetailSection title="System Prompts">
      {answering === null ? null : (
        <>
          <h4>Answering model</h4>
          <Verbatim text={answering} />
        </>
      )}
      {parsing === null ? null : (
        <>
          <h4>Parsing model</h4>
          <Verbatim text={parsing} />
        </>
      )}
    </DetailSection>
  );
}
