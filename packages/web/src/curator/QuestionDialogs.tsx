import { type KeyboardEvent, useState } from "react";
import { Dialog } from "../dialog/index.js";
import type { GenerationProgress } from "../generate/index.js";
import type { CuratorQuestion, NewQuestionRequest } from "../library-types/index.js";
import { DialogButtons, keywordsOf, problemOf, TextField } from "./form-parts.js";
import { GenerateNowChoice, GenerationProgressLine, useGeneratorChoice } from "./GenerateNow.js";
import { generateTemplateFor } from "./generate-template.js";

type QuestionErrors = { question?: string; answer?: string };

/** The required-field errors of a new or edited question ("Question is required" / "Answer is required"). */
export function questionProblems(question: string, answer: string): QuestionErrors {
  return {
    ...(question.trim() === "" ? { question: "Question is required" } : {}),
    ...(answer.trim() === "" ? { answer: "Answer is required" } : {}),
  };
}

/** The required Question and Answer fields of the add and edit dialogs. */
function QuestionAnswerFields({
  question,
  answer,
  errors,
  onQuestion,
  onAnswer,
}: {
  readonly question: string;
  readonly answer: string;
  readonly errors: QuestionErrors;
  readonly onQuestion: (value: string) => void;
  readonly onAnswer: (value: string) => void;
}) {
  return (
    <>
      {(
        [
          ["Question", question, onQuestion, errors.question],
          ["Answer", answer, onAnswer, errors.answer],
        ] as const
      ).map(([label, value, onChange, error]) => (
        <TextField
          key={label}
          label={label}
          required
          multiline
          value={value}
          onChange={onChange}
          error={error}
        />
      ))}
    </>
  );
}

/** "Add Question" (spec 07 §1.3.7): the server gives it a library id and the placeholder template. */
export function AddQuestionDialog({
  onAdd,
  onGenerated,
  onClose,
}: {
  /** Stores the question (and shows it); resolves with it as stored. */
  readonly onAdd: (request: NewQuestionRequest) => Promise<CuratorQuestion>;
  /** Puts a generated template into the stored question and saves it. */
  readonly onGenerated: (id: string, code: string) => Promise<void>;
  readonly onClose: () => void;
}) {
  const [form, setForm] = useState({ question: "", answer: "", author: "", keywords: "" });
  const [errors, setErrors] = useState<QuestionErrors>({});
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const generator = useGeneratorChoice();
  const [generating, setGenerating] = useState<GenerationProgress | "starting" | null>(null);
  const [notGenerated, setNotGenerated] = useState<string>();
  const set = (key: keyof typeof form) => (value: string) => setForm((old) => ({ ...old, [key]: value }));
  const generate = async (stored: CuratorQuestion) => {
    setGenerating("starting");
    try {
      const code = await generateTemplateFor(stored, generator.settings, generator.apiKey, setGenerating);
      await onGenerated(stored.id, code);
      onClose();
    } catch (error) {
      setGenerating(null);
      setNotGenerated(problemOf(error));
    }
  };
  const add = async () => {
    const found = questionProblems(form.question, form.answer);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    let stored: CuratorQuestion;
    try {
      const keywords = keywordsOf(form.keywords);
      stored = await onAdd({
        question: form.question.trim(),
        raw_answer: form.answer.trim(),
        ...(form.author.trim() === "" ? {} : { author: { "@type": "Person", name: form.author.trim() } }),
        ...(keywords.length === 0 ? {} : { keywords }),
      });
    } catch (error) {
      setProblem(problemOf(error));
      setBusy(false);
      return;
    }
    if (generator.enabled) await generate(stored);
    else onClose();
  };
  if (generating !== null || notGenerated !== undefined)
    return (
      <Dialog
        title="Add Question"
        onClose={onClose}
        footer={
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        }
      >
        <p>The question was added.</p>
        {notGenerated === undefined ? (
          <GenerationProgressLine progress={generating === "starting" ? null : generating} />
        ) : (
          <p className="curator-error" role="alert">
            The template was not generated, so the question keeps the placeholder template: {notGenerated}
          </p>
        )}
      </Dialog>
    );
  return (
    <Dialog
      title="Add Question"
      onClose={onClose}
      footer={
        <DialogButtons
          onCancel={onClose}
          onConfirm={() => void add()}
          confirmLabel="Add Question"
          busy={busy}
        />
      }
    >
      <QuestionAnswerFields
        question={form.question}
        answer={form.answer}
        errors={errors}
        onQuestion={set("question")}
        onAnswer={set("answer")}
      />
      <TextField label="Author name" value={form.author} onChange={set("author")} />
      <TextField label="Keywords (comma-separated)" value={form.keywords} onChange={set("keywords")} />
      <GenerateNowChoice choice={generator} />
      {problem === undefined ? null : (
        <p className="curator-error" role="alert">
          {problem}
        </p>
      )}
    </Dialog>
  );
}

/** The pencil: edits the question and answer text (the id never changes, spec 01 §1.2). */
export function EditQuestionDialog({
  question,
  onSave,
  onClose,
}: {
  readonly question: CuratorQuestion;
  readonly onSave: (text: { question: string; raw_answer: string }) => void;
  readonly onClose: () => void;
}) {
  const [text, setText] = useState(question.question);
  const [answer, setAnswer] = useState(question.raw_answer);
  const [errors, setErrors] = useState<QuestionErrors>({});
  const save = () => {
    const found = questionProblems(text, answer);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    onSave({ question: text.trim(), raw_answer: answer.trim() });
    onClose();
  };
  return (
    <Dialog
      title="Edit Question"
      onClose={onClose}
      footer={<DialogButtons onCancel={onClose} onConfirm={save} confirmLabel="Save" />}
    >
      <QuestionAnswerFields
        question={text}
        answer={answer}
        errors={errors}
        onQuestion={setText}
        onAnswer={setAnswer}
      />
      <p className="curator-note">The question keeps its id ({question.id}).</p>
    </Dialog>
  );
}

type FewShot = { question: string; answer: string };

/** Ctrl/Cmd+S: the dialogs' save key. */
export function isSaveKey(event: KeyboardEvent | globalThis.KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s";
}

/** Few-shot examples (spec 07 §1.3.8): ordered pairs; Esc closes, Ctrl/Cmd+S saves. */
export function FewShotDialog({
  examples,
  onSave,
  onClose,
}: {
  readonly examples: readonly FewShot[];
  readonly onSave: (examples: FewShot[] | null) => void;
  readonly onClose: () => void;
}) {
  const [pairs, setPairs] = useState<FewShot[]>(() => examples.map((pair) => ({ ...pair })));
  const save = () => {
    const kept = pairs.filter((pair) => pair.question.trim() !== "" || pair.answer.trim() !== "");
    onSave(kept.length === 0 ? null : kept);
    onClose();
  };
  const setPair = (index: number, key: keyof FewShot, value: string) =>
    setPairs((old) => old.map((pair, at) => (at === index ? { ...pair, [key]: value } : pair)));
  return (
    <Dialog
      title="Few-shot Examples"
      onClose={onClose}
      footer={<DialogButtons onCancel={onClose} onConfirm={save} confirmLabel="Save Examples" />}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Ctrl/Cmd+S inside the dialog saves (spec 07 §3) */}
      <div
        onKeyDown={(event) => {
          if (!isSaveKey(event)) return;
          event.preventDefault();
          save();
        }}
      >
        <p className="curator-note">Used only when a run enables few-shot prompting. Ctrl/Cmd+S saves.</p>
        {pairs.length === 0 ? <p>No examples yet.</p> : null}
        <ol className="curator-pairs">
          {pairs.map((pair, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: pairs have no id; their place is their identity
            <li key={index}>
              <TextField
                label={`Example ${index + 1} question`}
                multiline
                value={pair.question}
                onChange={(value) => setPair(index, "question", value)}
              />
              <TextField
                label={`Example ${index + 1} answer`}
                multiline
                value={pair.answer}
                onChange={(value) => setPair(index, "answer", value)}
              />
              <button
                type="button"
                className="secondary-button"
                onClick={() => setPairs((old) => old.filter((_, at) => at !== index))}
              >
                Remove example {index + 1}
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="secondary-button"
          onClick={() => setPairs((old) => [...old, { question: "", answer: "" }])}
        >
          Add Example
        </button>
      </div>
    </Dialog>
  );
}
