import { type ReactElement, useEffect, useRef, useState } from "react";
import type { CodeView, EditorLanguage } from "./codemirror.js";

export interface CodeEditorProps {
  readonly value: string;
  readonly language: EditorLanguage;
  readonly label: string;
  readonly onChange: (next: string) => void;
  readonly onSave: () => void;
  readonly expanded: boolean;
}

/**
 * The template's code in CodeMirror 6 (loaded on first use), controlled by `value`: an echo of the user's own
 * edit changes nothing, another text replaces only what differs, so the cursor stays where it was.
 */
export function CodeEditor(props: CodeEditorProps): ReactElement {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<CodeView | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    import("./codemirror.js")
      .then(({ createCodeView }) => {
        if (cancelled || host.current === null) return;
        view.current = createCodeView({
          parent: host.current,
          value: latest.current.value,
          language: latest.current.language,
          label: latest.current.label,
          onChange: (next) => latest.current.onChange(next),
          onSave: () => latest.current.onSave(),
        });
      })
      .catch((error: unknown) => {
        if (!cancelled) setFailed(error instanceof Error ? error.message : String(error));
      });
    return () => {
      cancelled = true;
      view.current?.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    view.current?.setValue(props.value);
  }, [props.value]);

  useEffect(() => {
    view.current?.setLanguage(props.language);
  }, [props.language]);

  if (failed !== null)
    return (
      <textarea
        className="te-code-fallback"
        aria-label={props.label}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        spellCheck={false}
      />
    );
  return (
    <div
      ref={host}
      className={props.expanded ? "te-code te-code-expanded" : "te-code"}
      data-testid="template-code-editor"
    />
  );
}
