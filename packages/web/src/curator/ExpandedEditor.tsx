import { useEffect, useRef, useState } from "react";
import { Dialog } from "../dialog/index.js";
import type { CuratorQuestion } from "../library-types/index.js";
import { TemplateEditor } from "../template-editor/index.js";
import { isSaveKey } from "./QuestionDialogs.js";

export interface ExpandedEditorProps {
  readonly question: CuratorQuestion;
  readonly position: string;
  readonly value: string;
  readonly original: string;
  readonly hasDraft: boolean;
  readonly onChange: (next: string) => void;
  readonly onSave: () => void;
  readonly onToggleFinished: () => void;
  readonly onPrevious: (() => void) | undefined;
  readonly onNext: (() => void) | undefined;
  readonly onClose: () => void;
}

/** The expanded editor (spec 07 §1.3.7): full screen; Esc closes, Ctrl/Cmd+←/→ navigate, Ctrl/Cmd+S saves. */
export function ExpandedEditor(props: ExpandedEditorProps) {
  const { question } = props;
  const [showQuestion, setShowQuestion] = useState(true);
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { onPrevious, onNext, onSave } = latest.current;
      if (isSaveKey(event)) {
        event.preventDefault();
        onSave();
      } else if ((event.ctrlKey || event.metaKey) && event.key === "ArrowLeft" && onPrevious) {
        event.preventDefault();
        onPrevious();
      } else if ((event.ctrlKey || event.metaKey) && event.key === "ArrowRight" && onNext) {
        event.preventDefault();
        onNext();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <Dialog title="Expanded Template Editor" onClose={props.onClose}>
      <div className="curator-expanded">
        <div className="curator-buttons">
          <button
            type="button"
            className="secondary-button"
            disabled={!props.onPrevious}
            onClick={props.onPrevious}
          >
            Previous
          </button>
          <span data-testid="expanded-position">{props.position}</span>
          <button type="button" className="secondary-button" disabled={!props.onNext} onClick={props.onNext}>
            Next
          </button>
          <button
            type="button"
            className="secondary-button"
            aria-pressed={question.finished}
            onClick={props.onToggleFinished}
          >
            {question.finished ? "Mark as Unfinished" : "Flag as Finished"}
          </button>
          <button type="button" className="button" disabled={!props.hasDraft} onClick={props.onSave}>
            Save
          </button>
        </div>
        <button
          type="button"
          className="curator-disclosure"
          aria-expanded={showQuestion}
          onClick={() => setShowQuestion((shown) => !shown)}
        >
          Question and answer
        </button>
        {showQuestion ? (
          <div className="curator-expanded-question">
            <p>{question.question}</p>
            <p>
              <strong>Answer:</strong> {question.raw_answer}
            </p>
          </div>
        ) : null}
        <TemplateEditor
          questionId={question.id}
          questionText={question.question}
          language={question.template_language}
          value={props.value}
          savedValue={question.answer_template}
          originalValue={props.original}
          onChange={props.onChange}
          onSave={props.onSave}
          height="expanded"
        />
        <p className="curator-note">
          Esc closes · Ctrl/Cmd+← and → move between questions · Ctrl/Cmd+S saves
        </p>
      </div>
    </Dialog>
  );
}
