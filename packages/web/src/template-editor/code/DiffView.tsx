import { type ReactElement, useEffect, useRef, useState } from "react";
import type { EditorLanguage } from "./codemirror.js";

export interface DiffViewProps {
  readonly value: string;
  readonly original: string;
  readonly language: EditorLanguage;
  readonly label: string;
}

/** A unified, read-only line diff of the current text against `original` (@codemirror/merge, loaded on use). */
export function DiffView(props: DiffViewProps): ReactElement {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const { value, original, language, label } = props;

  useEffect(() => {
    let cancelled = false;
    let destroy = () => {};
    import("./codemirror.js")
      .then(({ createDiffView }) => {
        if (cancelled || host.current === null) return;
        destroy = createDiffView({ parent: host.current, value, original, language, label }).destroy;
      })
      .catch((error: unknown) => {
        if (!cancelled) setFailed(error instanceof Error ? error.message : String(error));
      });
    return () => {
      cancelled = true;
      destroy();
    };
  }, [value, original, language, label]);

  if (failed !== null) return <p role="alert">The diff could not be shown: {failed}</p>;
  return <div ref={host} className="te-diff" data-testid="template-diff" />;
}
