import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { ConfirmDialog, connectedDbSlice } from "../database/index.js";
import type { CuratorQuestion, NewQuestionRequest, Rubric } from "../library-types/index.js";
import { RubricEditor } from "../rubric-editor/index.js";
import { useSessionSlice } from "../session/index.js";
import { useAnnounce } from "../status/index.js";
import { TemplateEditor } from "../template-editor/index.js";
import { useToast } from "../toast/index.js";
import { type WorkingBenchmark, workingBenchmarkSlice } from "../working-benchmark/index.js";
import { postQuestion } from "./curation-api.js";
import type { CurationController } from "./curation-controller.js";
import {
  type CurationState,
  deleteQuestion,
  insertStoredQuestion,
  saveTemplates,
  setGlobalRubric,
  setMetadata,
  toggleFinished,
  updateQuestion,
} from "./curation-store.js";
import { type BenchmarkDrafts, withoutTemplateDrafts, withTemplateEdit } from "./curator-session.js";
import { ExpandedEditor } from "./ExpandedEditor.js";
import { FileManagement } from "./FileManagement.js";
import { problemOf } from "./form-parts.js";
import { MetadataDialog } from "./MetadataDialog.js";
import { Navigator } from "./Navigator.js";
import {
  type FinishedFilter,
  filterQuestions,
  neighbourOf,
  searchKeyOf,
  selectionAfterDelete,
} from "./navigator-filter.js";
import { AddQuestionDialog, EditQuestionDialog, FewShotDialog } from "./QuestionDialogs.js";
import { QuestionFacts } from "./QuestionFacts.js";
import { sameRubric, traitNames } from "./rubric-names.js";
import { SaveStatusLine } from "./SaveStatusLine.js";
import { useBenchmarkDrafts } from "./use-benchmark-drafts.js";
import { useCuration } from "./use-curation.js";
import "./curator.css";

type Modal = "add" | "edit" | "clone" | "delete" | "metadata" | "few-shot" | "expanded" | null;

/** Whether the page holds edits a reload would lose (the `beforeunload` warning). */
function useUnloadWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [active]);
}

/** Tab 2, the Template Curator (spec 07 §1.3): loads, edits and autosaves the working benchmark. */
export function CuratorTab() {
  const [{ benchmark }, setWorking] = useSessionSlice(workingBenchmarkSlice);
  const [{ db }] = useSessionSlice(connectedDbSlice);
  const { controller, state } = useCuration(benchmark);
  const curation = state?.state === "loaded" ? state.curation : null;
  const { drafts, editDrafts } = useBenchmarkDrafts(benchmark, curation?.questions);
  const unsaved =
    Object.keys(drafts.templates).length > 0 ||
    drafts.globalRubric !== undefined ||
    (curation !== null && (curation.inFlight !== null || curation.save.state === "failed"));
  useUnloadWarning(unsaved);

  return (
    <section className="curator" aria-labelledby="curator-heading">
      <h2 id="curator-heading">2. Template Curator</h2>
      {curation === null ? null : <DatasetBanner curation={curation} />}
      <FileManagement
        db={benchmark?.db ?? db}
        benchmark={benchmark}
        curation={curation}
        onWorkingChange={(next) => setWorking({ benchmark: next })}
        onMetadataChange={(changes) => controller?.apply((s) => setMetadata(s, changes), true)}
        onReset={() => {
          editDrafts(() => ({ templates: {} }));
          setWorking({ benchmark: null });
        }}
      />
      {curation === null ? null : (
        <SaveStatusLine curation={curation} onRetry={() => void controller?.flush()} />
      )}
      {state?.state === "loading" ? <p className="curator-note">Loading the benchmark…</p> : null}
      {state?.state === "failed" ? (
        <p className="curator-error" role="alert">
          The benchmark could not be loaded: {state.message}
        </p>
      ) : null}
      <Workspace
        benchmark={benchmark}
        curation={curation}
        controller={controller}
        drafts={drafts}
        editDrafts={editDrafts}
      />
    </section>
  );
}

function DatasetBanner({ curation }: { readonly curation: CurationState }) {
  const { metadata } = curation;
  const creator =
    metadata.creator === null
      ? null
      : typeof metadata.creator === "string"
        ? metadata.creator
        : metadata.creator.name;
  return (
    <div className="curator-banner" data-testid="dataset-banner">
      <strong>{metadata.name}</strong>
      {metadata.version === "" ? null : <span> v{metadata.version}</span>}
      {metadata.description === "" ? null : <span> — {metadata.description}</span>}
      {creator === null ? null : <span> · by {creator}</span>}
    </div>
  );
}

interface WorkspaceProps {
  readonly benchmark: WorkingBenchmark | null;
  readonly curation: CurationState | null;
  readonly controller: CurationController | null;
  readonly drafts: BenchmarkDrafts;
  readonly editDrafts: (update: (drafts: BenchmarkDrafts) => BenchmarkDrafts) => void;
}

const EMPTY_QUESTIONS: readonly CuratorQuestion[] = [];

/** Control panel, editor area and global rubric. */
function Workspace({ benchmark, curation, controller, drafts, editDrafts }: WorkspaceProps) {
  const toast = useToast();
  const announce = useAnnounce();
  const questions = curation?.questions ?? EMPTY_QUESTIONS;
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<FinishedFilter>("all");
  const [modal, setModal] = useState<Modal>(null);
  const deferredSearch = useDeferredValue(search);
  const keys = useMemo(() => questions.map(searchKeyOf), [questions]);
  const entries = useMemo(
    () => filterQuestions(questions, keys, deferredSearch, filter),
    [questions, keys, deferredSearch, filter],
  );
  const select = (id: string | undefined) =>
    editDrafts((current) => {
      const { selectedId: _old, ...rest } = current;
      return id === undefined ? rest : { ...rest, selectedId: id };
    });

  // A change of search or filter jumps to the first match (spec 07 §1.3.3); not on the first render.
  const firstRun = useRef(true);
  const firstMatch = entries[0]?.question.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a change of search or filter only
  useEffect(() => {
    if (firstRun.current) {
      firstRun.current = false;
      return;
    }
    select(firstMatch);
  }, [deferredSearch, filter]);

  const selectedIndex = questions.findIndex((q) => q.id === drafts.selectedId);
  const question =
    questions[selectedIndex] ?? (drafts.selectedId === undefined ? questions[0] : undefined) ?? questions[0];
  const number = question === undefined ? 0 : questions.indexOf(question) + 1;
  const positionInList =
    question === undefined ? -1 : entries.findIndex((e) => e.question.id === question.id);
  const position =
    positionInList < 0 ? "Not in the filtered list" : `Question ${positionInList + 1} of ${entries.length}`;
  const previous = neighbourOf(entries, question?.id, -1);
  const next = neighbourOf(entries, question?.id, 1);
  const draft = question === undefined ? undefined : drafts.templates[question.id];
  const hasDraft = draft !== undefined && question !== undefined && draft !== question.answer_template;
  const original =
    question === undefined ? "" : (curation?.originals[question.id] ?? question.answer_template);

  const saveDraftsOf = async (ids: readonly string[]) => {
    if (controller === null) return;
    const saving: Record<string, string> = {};
    for (const id of ids) {
      const text = drafts.templates[id];
      if (text !== undefined) saving[id] = text;
    }
    if (Object.keys(saving).length === 0) return;
    controller.apply((s) => saveTemplates(s, saving), true);
    await controller.flush();
    const after = controller.state;
    if (after.state === "loaded" && after.curation.save.state !== "failed")
      editDrafts((current) =>
        withoutTemplateDrafts(
          current,
          ids.filter((id) => current.templates[id] === saving[id]),
        ),
      );
  };
  const save = () => {
    if (question !== undefined) void saveDraftsOf([question.id]);
  };
  const onTemplateChange = (text: string) => {
    if (question !== undefined)
      editDrafts((current) => withTemplateEdit(current, question.id, text, question.answer_template));
  };
  const toggle = () => {
    if (question !== undefined) controller?.apply((s) => toggleFinished(s, question.id));
  };
  const addQuestion = async (request: NewQuestionRequest) => {
    if (benchmark === null || controller === null) throw new Error("Load or create a benchmark first.");
    const stored = await postQuestion(benchmark, request);
    controller.apply((s) => insertStoredQuestion(s, stored, request.after_id));
    select(stored.id);
    announce(`Added question ${stored.question.slice(0, 40)}`);
    return stored;
  };
  const putGeneratedTemplate = async (id: string, code: string) => {
    if (controller === null) return;
    controller.apply((s) => updateQuestion(s, id, (q) => ({ ...q, answer_template: code })), true);
    await controller.flush();
    const after = controller.state;
    if (after.state === "loaded" && after.curation.save.state === "failed")
      throw new Error(`The template was generated but not saved: ${after.curation.save.message}`);
    announce("The generated template was saved");
  };

  const globalRubric = curation?.globalRubric ?? null;
  const globalDraft = drafts.globalRubric;
  const saveGlobalRubric = async () => {
    if (controller === null || globalDraft === undefined) return;
    controller.apply((s) => setGlobalRubric(s, globalDraft.rubric), true);
    await controller.flush();
    const after = controller.state;
    if (after.state === "loaded" && after.curation.save.state !== "failed")
      editDrafts((current) => {
        if (
          current.globalRubric === undefined ||
          !sameRubric(current.globalRubric.rubric, globalDraft.rubric)
        )
          return current;
        const { globalRubric: _saved, ...rest } = current;
        return rest;
      });
  };
  const onGlobalRubricChange = (rubric: Rubric | null) =>
    editDrafts((current) => {
      const { globalRubric: _old, ...rest } = current;
      return sameRubric(rubric, globalRubric) ? rest : { ...rest, globalRubric: { rubric } };
    });

  const draftNumbers = questions.flatMap((q, index) =>
    drafts.templates[q.id] !== undefined && drafts.templates[q.id] !== q.answer_template ? [index + 1] : [],
  );

  return (
    <>
      <section className="curator-card" aria-labelledby="questions-heading">
        <div className="curator-card-head">
          <h3 id="questions-heading">Questions</h3>
          <span title={curation === null ? "Load, upload or create a benchmark first" : undefined}>
            <button
              type="button"
              className="button"
              disabled={curation === null}
              aria-describedby={curation === null ? "add-question-why" : undefined}
              onClick={() => setModal("add")}
            >
              Add Question
            </button>
          </span>
          {curation === null ? (
            <span id="add-question-why" className="visually-hidden">
              Load, upload or create a benchmark first
            </span>
          ) : null}
        </div>
        <Navigator
          entries={entries}
          total={questions.length}
          selectedId={question?.id}
          onSelect={select}
          search={search}
          onSearch={setSearch}
          filter={filter}
          onFilter={setFilter}
        />
        <div className="curator-buttons">
          <button
            type="button"
            className="secondary-button"
            disabled={previous === undefined}
            onClick={() => select(previous)}
          >
            Previous
          </button>
          <span data-testid="question-position">
            {question === undefined ? "No question selected" : position}
          </span>
          <button
            type="button"
            className="secondary-button"
            disabled={next === undefined}
            onClick={() => select(next)}
          >
            Next
          </button>
        </div>
      </section>
      {question === undefined ? (
        <p className="curator-empty" data-testid="curator-empty">
          {curation === null
            ? "No Questions with Generated Templates: upload a checkpoint, load a benchmark from the database or create one."
            : questions.length === 0
              ? "This benchmark has no questions yet: use Add Question."
              : "Select a question."}
        </p>
      ) : (
        <div className="curator-editor">
          <QuestionFacts
            question={question}
            number={number}
            modified={question.answer_template !== original}
            hasDraft={hasDraft}
            onToggleFinished={toggle}
            onEdit={() => setModal("edit")}
            onClone={() => setModal("clone")}
            onDelete={() => setModal("delete")}
            onMetadata={() => setModal("metadata")}
            onFewShot={() => setModal("few-shot")}
          />
          <section className="curator-template" aria-labelledby="template-heading">
            <div className="curator-card-head">
              <h3 id="template-heading">Answer Template</h3>
              <button type="button" className="secondary-button" onClick={() => setModal("expanded")}>
                Expand
              </button>
            </div>
            <TemplateEditor
              questionId={question.id}
              questionText={question.question}
              language={question.template_language}
              value={hasDraft ? (draft ?? question.answer_template) : question.answer_template}
              savedValue={question.answer_template}
              originalValue={original}
              onChange={onTemplateChange}
              onSave={save}
            />
            <div className="curator-buttons">
              <button type="button" className="button" disabled={!hasDraft} onClick={save}>
                Save
              </button>
              <button
                type="button"
                className="secondary-button"
                aria-pressed={question.finished}
                onClick={toggle}
              >
                {question.finished ? "Mark as Unfinished" : "Flag as Finished"}
              </button>
            </div>
            {draftNumbers.length === 0 ? null : (
              <div className="curator-drafts" role="status" data-testid="drafts-box">
                <p>
                  Unsaved drafts in question{draftNumbers.length === 1 ? "" : "s"} {draftNumbers.join(", ")}.
                  Click Save to persist them permanently.
                </p>
                <button
                  type="button"
                  className="secondary-button"
                  onClick={() => void saveDraftsOf(Object.keys(drafts.templates))}
                >
                  Save all drafts
                </button>
              </div>
            )}
            <RubricEditor
              scope="question"
              title="Question Rubric"
              rubric={question.question_rubric}
              globalTraitNames={traitNames(globalRubric)}
              onChange={(rubric) =>
                controller?.apply((s) =>
                  updateQuestion(s, question.id, (q) => ({ ...q, question_rubric: rubric })),
                )
              }
            />
          </section>
        </div>
      )}
      {curation === null ? null : (
        <section className="curator-card" aria-labelledby="global-rubric-heading">
          <div className="curator-card-head">
            <h3 id="global-rubric-heading">Global Rubric Management</h3>
            <button
              type="button"
              className="button"
              disabled={globalDraft === undefined}
              onClick={() => void saveGlobalRubric()}
            >
              Save Rubric
            </button>
          </div>
          {globalDraft === undefined ? null : (
            <p className="curator-drafts" data-testid="rubric-unsaved">
              The global rubric has unsaved edits{globalDraft.rubric === null ? " (saving removes it)" : ""}.
            </p>
          )}
          <RubricEditor
            scope="global"
            title="Global Rubric"
            rubric={globalDraft === undefined ? globalRubric : globalDraft.rubric}
            onChange={onGlobalRubricChange}
          />
        </section>
      )}
      {modal === "add" ? (
        <AddQuestionDialog
          onAdd={addQuestion}
          onGenerated={putGeneratedTemplate}
          onClose={() => setModal(null)}
        />
      ) : null}
      {modal === "edit" && question !== undefined ? (
        <EditQuestionDialog
          question={question}
          onClose={() => setModal(null)}
          onSave={(text) =>
            controller?.apply((s) => updateQuestion(s, question.id, (q) => ({ ...q, ...text })))
          }
        />
      ) : null}
      {modal === "clone" && question !== undefined ? (
        <ConfirmDialog
          title="Clone Question"
          confirmLabel="Clone"
          onCancel={() => setModal(null)}
          onConfirm={() =>
            void addQuestion({
              question: `[CLONED] ${question.question}`,
              raw_answer: question.raw_answer,
              clone_of: question.id,
              after_id: question.id,
            }).then(
              () => setModal(null),
              (error) => {
                setModal(null);
                toast({ tone: "error", message: `The question was not cloned: ${problemOf(error)}` });
              },
            )
          }
        >
          <p>
            Clone question {number} with its template, metadata, rubric and few-shot examples? The clone gets
            a new id, starts unfinished and goes right after it.
          </p>
        </ConfirmDialog>
      ) : null}
      {modal === "delete" && question !== undefined ? (
        <ConfirmDialog
          title="Delete Question"
          confirmLabel="Delete"
          onCancel={() => setModal(null)}
          onConfirm={() => {
            const after = selectionAfterDelete(questions, question.id);
            controller?.apply((s) => deleteQuestion(s, question.id), true);
            editDrafts((current) => withoutTemplateDrafts(current, [question.id]));
            select(after);
            setModal(null);
            announce(`Deleted question ${number}`);
          }}
        >
          <p>Delete question {number} from the benchmark? This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
      {modal === "metadata" && question !== undefined ? (
        <MetadataDialog
          question={question}
          onClose={() => setModal(null)}
          onSave={(edit) =>
            controller?.apply((s) => updateQuestion(s, question.id, (q) => ({ ...q, ...edit })))
          }
        />
      ) : null}
      {modal === "few-shot" && question !== undefined ? (
        <FewShotDialog
          examples={question.few_shot_examples ?? []}
          onClose={() => setModal(null)}
          onSave={(examples) =>
            controller?.apply((s) =>
              updateQuestion(s, question.id, (q) => ({ ...q, few_shot_examples: examples })),
            )
          }
        />
      ) : null}
      {modal === "expanded" && question !== undefined ? (
        <ExpandedEditor
          question={question}
          position={position}
          value={hasDraft ? (draft ?? question.answer_template) : question.answer_template}
          original={original}
          hasDraft={hasDraft}
          onChange={onTemplateChange}
          onSave={save}
          onToggleFinished={toggle}
          onPrevious={previous === undefined ? undefined : () => select(previous)}
          onNext={next === undefined ? undefined : () => select(next)}
          onClose={() => setModal(null)}
        />
      ) : null}
    </>
  );
}
