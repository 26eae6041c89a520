import { type KeyboardEvent, type ReactElement, useEffect, useRef, useState } from "react";
import type { BuilderParseResult } from "../library-types/index.js";
import { parseTemplate } from "./builder-api.js";
import { CodeEditor } from "./code/CodeEditor.js";
import { DiffControls } from "./DiffControls.js";
import { FormEditor } from "./form/FormEditor.js";
import { PressedButtons } from "./PressedButtons.js";
import { QuickCheck } from "./QuickCheck.js";
import { SampleTest } from "./SampleTest.js";
import { usePrimitives } from "./use-server-lists.js";
import "./template-editor.css";

/** Props of the template editor: the curator owns the text; the editor reports every edit through `onChange`. */
export interface TemplateEditorProps {
  readonly questionId: string;
  /** For "Test with a sample answer" and the judge. */
  readonly questionText: string;
  readonly language: "Python" | "JavaScript";
  /** The current text (draft, else saved). */
  readonly value: string;
  /** The last saved text. */
  readonly savedValue: string;
  /** The text as first loaded in this page. */
  readonly originalValue: string;
  /** Every edit (an applied form edit sends the regenerated code). */
  readonly onChange: (next: string) => void;
  /** Ctrl/Cmd+S inside the editor. */
  readonly onSave?: () => void;
  readonly height?: "normal" | "expanded";
}

/** How long after a code edit the code is read back into the form. */
const PARSE_DELAY_MS = 300;

/** A reading of the code (`source`), numbered so the form remounts on each new one. */
type Parsed = { readonly version: number; readonly source: string } & (
  | { readonly result: BuilderParseResult }
  | { readonly error: string }
);

const EMPTY_TEMPLATE: BuilderParseResult = {
  mode: "verified",
  spec: { class_name: "Answer", verify_strategy: null, fields: [] },
  lossy: [],
  reason: null,
};

/**
 * Reads the code into a TemplateSpec whenever it changes other than by the form itself (`ownCode`): a code edit,
 * a revert, another draft. The first reading is immediate, later ones wait for a pause in typing.
 */
function useParsedTemplate(
  value: string,
  language: string,
  ownCode: { current: string | null },
): Parsed | null {
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const version = useRef(0);
  const first = useRef(true);
  useEffect(() => {
    if (language !== "Python" || value === ownCode.current) return;
    const abort = new AbortController();
    const next = (outcome: { result: BuilderParseResult } | { error: string }) => {
      version.current += 1;
      setParsed({ version: version.current, source: value, ...outcome });
    };
    const delay = first.current ? 0 : PARSE_DELAY_MS;
    first.current = false;
    const timer = setTimeout(() => {
      if (value.trim() === "") return next({ result: EMPTY_TEMPLATE });
      parseTemplate(value, abort.signal).then(
        (result) => !abort.signal.aborted && next({ result }),
        (error: unknown) =>
          !abort.signal.aborted && next({ error: error instanceof Error ? error.message : String(error) }),
      );
    }, delay);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [value, language, ownCode]);
  return parsed;
}

function whyNoForm(parsed: Parsed | null, language: string): string | null {
  if (language !== "Python") return "The form editor reads Python templates; this one is JavaScript.";
  if (parsed === null) return null;
  if ("error" in parsed) return `The form cannot read this code: ${parsed.error}`;
  const { mode, reason, spec } = parsed.result;
  if (mode === "classic")
    return `This is a classic template (written by hand, without VerifiedField): it is edited as code. ${reason ?? ""}`;
  if (mode === "mixed" && spec === null)
    return `This template mixes VerifiedFields with hand-written code the form cannot separate: it is edited as code. ${reason ?? ""}`;
  return null;
}

function TemplateEditorBody(props: TemplateEditorProps): ReactElement {
  const { value, language, onChange } = props;
  const ownCode = useRef<string | null>(null);
  const parsed = useParsedTemplate(value, language, ownCode);
  const { primitives, error: primitivesError } = usePrimitives();
  const [view, setView] = useState<"form" | "code" | null>(language === "Python" ? null : "code");
  const noForm = whyNoForm(parsed, language);

  useEffect(() => {
    if (view === null && parsed !== null) setView(noForm === null ? "form" : "code");
  }, [view, parsed, noForm]);

  const save = () => props.onSave?.();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || !(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== "s")
      return;
    event.preventDefault();
    save();
  };
  // The text the form's spec stands for. A form edit is applied only onto that text: when the text has changed
  // elsewhere meanwhile (typed in the code view, reverted), the late edit is dropped and the form re-reads it.
  const formBase = useRef<string | null>(null);
  const valueNow = useRef(value);
  valueNow.current = value;
  useEffect(() => {
    if (parsed !== null) formBase.current = parsed.source;
  }, [parsed]);
  const formCode = (code: string) => {
    if (formBase.current !== null && valueNow.current !== formBase.current) return;
    formBase.current = code;
    ownCode.current = code;
    onChange(code);
  };
  const expanded = props.height === "expanded";
  const spec = parsed !== null && "result" in parsed ? parsed.result : null;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl/Cmd+S is heard from the inputs inside
    <div className={expanded ? "template-editor te-expanded" : "template-editor"} onKeyDown={onKeyDown}>
      <div className="te-toolbar">
        <span className="te-muted">Editor:</span>
        <PressedButtons
          choices={[
            { value: "form", label: "Form editor", disabled: language !== "Python" },
            { value: "code", label: "Code editor" },
          ]}
          chosen={view}
          onChoose={setView}
        />
      </div>
      {view === null && <p className="te-muted">Reading the template…</p>}
      {view === "form" && (noForm !== null || spec?.spec == null) && (
        <div className="te-notice" role="status">
          <p>{noForm ?? "Reading the template…"}</p>
          {noForm !== null && (
            <button type="button" className="button te-secondary" onClick={() => setView("code")}>
              Switch to Code editor
            </button>
          )}
        </div>
      )}
      {view !== null && noForm === null && spec?.spec != null && (
        // Kept mounted (hidden) in the code view, so an edit still being applied is not lost by the toggle.
        <div hidden={view !== "form"}>
          {primitivesError && <p className="te-bad">The primitives could not be loaded: {primitivesError}</p>}
          <FormEditor
            key={parsed?.version}
            spec={spec.spec}
            lossy={spec.lossy}
            remainder={spec.remainder}
            primitives={primitives}
            onCode={formCode}
          />
        </div>
      )}
      {view === "code" && (
        <>
          {noForm !== null && <p className="te-notice">{noForm}</p>}
          <CodeEditor
            value={value}
            language={language}
            label={`Answer template code (${language})`}
            onChange={onChange}
            onSave={save}
            expanded={expanded}
          />
          <p className="te-muted te-keys">
            Tab indents by four spaces; press Escape then Tab to leave the editor.
          </p>
        </>
      )}
      <QuickCheck code={value} language={language} />
      <DiffControls
        value={value}
        savedValue={props.savedValue}
        originalValue={props.originalValue}
        language={language}
        onChange={onChange}
      />
      <SampleTest code={value} language={language} questionText={props.questionText} />
    </div>
  );
}

/**
 * Edits one question's answer template (spec 07 §1.3.5–§1.3.7): a form on its TemplateSpec or CodeMirror on its
 * code, a live Quick Check, a sample-answer test, a diff against the saved or original text, and revert.
 */
export function TemplateEditor(props: TemplateEditorProps): ReactElement {
  return <TemplateEditorBody key={props.questionId} {...props} />;
}
