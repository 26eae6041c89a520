import type { CuratorQuestion } from "../library-types/index.js";

export interface QuestionFactsProps {
  readonly question: CuratorQuestion;
  readonly number: number;
  readonly modified: boolean;
  readonly hasDraft: boolean;
  readonly onToggleFinished: () => void;
  readonly onEdit: () => void;
  readonly onClone: () => void;
  readonly onDelete: () => void;
  readonly onMetadata: () => void;
  readonly onFewShot: () => void;
}

/** The left column (spec 07 §1.3.1): the question's text, answer, id and badges, with its actions. */
export function QuestionFacts({
  question,
  number,
  modified,
  hasDraft,
  onToggleFinished,
  onEdit,
  onClone,
  onDelete,
  onMetadata,
  onFewShot,
}: QuestionFactsProps) {
  const fewShot = question.few_shot_examples?.length ?? 0;
  const hasMetadata =
    question.author !== null ||
    (question.sources?.length ?? 0) > 0 ||
    (question.keywords?.length ?? 0) > 0 ||
    Object.keys(question.custom_metadata ?? {}).length > 0;
  return (
    <section className="curator-facts" aria-labelledby="question-facts-heading">
      <div className="curator-facts-head">
        <h3 id="question-facts-heading">Question {number}</h3>
        <button
          type="button"
          className="icon-button"
          aria-label="Edit question text"
          title="Edit question text"
          onClick={onEdit}
        >
          <span aria-hidden="true">✎</span>
        </button>
      </div>
      <p className="curator-question-text" data-testid="question-text">
        {question.question}
      </p>
      <h4>Answer</h4>
      <p data-testid="raw-answer">{question.raw_answer}</p>
      <h4>Id</h4>
      <p className="curator-id">{question.id}</p>
      <div className="curator-badges">
        <button
          type="button"
          className={question.finished ? "curator-badge curator-badge-finished" : "curator-badge"}
          aria-pressed={question.finished}
          title={question.finished ? "Mark as unfinished" : "Flag as finished"}
          onClick={onToggleFinished}
        >
          {question.finished ? "Finished" : "Not Finished"}
        </button>
        {modified ? <span className="curator-badge curator-badge-modified">Modified</span> : null}
        {hasDraft ? <span className="curator-badge curator-badge-draft">Unsaved draft</span> : null}
        {question.has_template ? null : <span className="curator-badge">Placeholder template</span>}
        {fewShot > 0 ? <span className="curator-badge">Few-shot ({fewShot})</span> : null}
        {hasMetadata ? <span className="curator-badge">Metadata</span> : null}
      </div>
      <div className="curator-buttons">
        <button type="button" className="secondary-button" onClick={onMetadata}>
          Metadata
        </button>
        <button type="button" className="secondary-button" onClick={onFewShot}>
          Few-shot Examples
        </button>
        <button type="button" className="secondary-button" onClick={onClone}>
          Clone
        </button>
        <button type="button" className="secondary-button danger-button" onClick={onDelete}>
          Delete
        </button>
      </div>
    </section>
  );
}
