import {
  type KeyboardEvent,
  type ReactNode,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import type { TracePattern } from "./highlight-patterns.js";
import { searchTrace, type TraceMatch } from "./search-trace.js";
import { blocksFromMessages, type SplitTrace, splitTrace } from "./split-trace.js";
import { useTraceHighlighting } from "./use-trace-highlighting.js";
import "./trace-viewer.css";

export interface TraceViewerProps {
  /** The raw trace text (`template.raw_llm_response`). */
  readonly text: string;
  /** `template.trace_messages`: when not empty, the blocks come from them instead of the header patterns. */
  readonly messages?: readonly Record<string, unknown>[] | null;
  /** Patterns to use instead of the stored ones (the settings' live preview). */
  readonly patterns?: readonly TracePattern[];
  /** What the viewer is called (its landmark's name). */
  readonly label?: string;
}

function useBlocks(text: string, messages: TraceViewerProps["messages"], override?: readonly TracePattern[]) {
  const [settings] = useTraceHighlighting();
  return useMemo((): SplitTrace => {
    if (messages !== undefined && messages !== null && messages.length > 0)
      return { blocks: blocksFromMessages(messages), problems: [] };
    const patterns = override ?? (settings.enabled ? settings.patterns : []);
    const split = splitTrace(text, patterns);
    return split.blocks.some((block) => block.colour !== null)
      ? split
      : { blocks: [{ title: "Trace", colour: null, body: text }], problems: split.problems };
  }, [text, messages, override, settings]);
}

function highlighted(
  body: string,
  matches: readonly TraceMatch[],
  currentMatch: TraceMatch | undefined,
): ReactNode {
  if (matches.length === 0) return body;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const match of matches) {
    if (match.start > at) parts.push(body.slice(at, match.start));
    const isCurrent = match === currentMatch;
    parts.push(
      <mark
        key={match.start}
        className={isCurrent ? "trace-match current" : "trace-match"}
        data-current={isCurrent || undefined}
      >
        {body.slice(match.start, match.end)}
      </mark>,
    );
    at = match.end;
  }
  if (at < body.length) parts.push(body.slice(at));
  return parts;
}

/**
 * A trace split into coloured message blocks (spec 07 §1.6 "Trace viewer"): from `template.trace_messages`
 * when given, else at header lines matching the trace-highlighting patterns; a jump list to each message,
 * "final response only", and a search with case-sensitive and regex toggles, a match counter and
 * next/previous (Enter, Shift+Enter). A bad regex is shown as an error, never thrown.
 */
export function TraceViewer({ text, messages, patterns, label = "Trace" }: TraceViewerProps) {
  const id = useId();
  const { blocks, problems } = useBlocks(text, messages, patterns);
  const [finalOnly, setFinalOnly] = useState(false);
  const [query, setQuery] = useState("");
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [regex, setRegex] = useState(false);
  const [current, setCurrent] = useState(0);
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(
    () => (finalOnly && blocks.length > 0 ? [blocks.length - 1] : blocks.map((_, index) => index)),
    [blocks, finalOnly],
  );
  const search = useMemo(
    () =>
      searchTrace(
        shown.map((index) => blocks[index]?.body ?? ""),
        deferredQuery,
        { caseSensitive, regex },
      ),
    [blocks, shown, deferredQuery, caseSensitive, regex],
  );
  const count = search.matches.length;
  const currentIndex = count === 0 ? 0 : Math.min(current, count - 1);
  const currentMatch = search.matches[currentIndex];
  const blocksRoot = useRef<HTMLElement>(null);

  useEffect(() => {
    if (currentMatch === undefined) return;
    blocksRoot.current?.querySelector("mark[data-current]")?.scrollIntoView?.({ block: "nearest" });
  }, [currentMatch]);

  const step = (by: number) => {
    if (count === 0) return;
    setCurrent((currentIndex + by + count) % count);
  };
  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    step(event.shiftKey ? -1 : 1);
  };
  const jumpTo = (index: number) => {
    const header = document.getElementById(`${id}-block-${index}`);
    header?.scrollIntoView?.({ block: "start" });
    header?.focus();
  };
  const counter =
    deferredQuery === "" || search.error !== undefined
      ? ""
      : count === 0
        ? "No matches"
        : `${currentIndex + 1} of ${count}${search.truncated ? "+" : ""}`;

  return (
    <section className="trace-viewer" aria-label={label}>
      <div className="trace-toolbar">
        <label className="trace-search">
          Search trace{" "}
          <input
            type="search"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setCurrent(0);
            }}
            onKeyDown={onSearchKey}
            aria-invalid={search.error !== undefined}
            aria-describedby={search.error === undefined ? undefined : `${id}-search-error`}
          />
        </label>
        <label>
          <input
            type="checkbox"
            checked={caseSensitive}
            onChange={(event) => setCaseSensitive(event.target.checked)}
          />{" "}
          Case sensitive
        </label>
        <label>
          <input type="checkbox" checked={regex} onChange={(event) => setRegex(event.target.checked)} /> Regex
        </label>
        <button type="button" onClick={() => step(-1)} disabled={count === 0}>
          Previous
        </button>
        <button type="button" onClick={() => step(1)} disabled={count === 0}>
          Next
        </button>
        <span className="trace-counter" role="status">
          {counter}
        </span>
        <label>
          <input
            type="checkbox"
            checked={finalOnly}
            onChange={(event) => setFinalOnly(event.target.checked)}
          />{" "}
          Final response only
        </label>
      </div>
      {search.error === undefined ? null : (
        <p className="trace-error" id={`${id}-search-error`}>
          Invalid regex: {search.error}
        </p>
      )}
      {problems.map(({ pattern, error }) => (
        <p key={pattern.id} className="trace-error">
          Highlight pattern “{pattern.name}” is skipped: {error}
        </p>
      ))}
      {blocks.length > 1 && !finalOnly ? (
        <nav className="trace-jump" aria-label={`${label}: messages`}>
          <ol>
            {blocks.map((block, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no identity but their position
              <li key={index}>
                <button
                  type="button"
                  className={`trace-jump-link ${colourClass(block.colour)}`}
                  onClick={() => jumpTo(index)}
                >
                  {index + 1}. {block.title}
                </button>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it */}
      <section className="trace-blocks" ref={blocksRoot} aria-label={`${label} text`} tabIndex={0}>
        {shown.map((blockIndex, position) => {
          const block = blocks[blockIndex];
          if (block === undefined) return null;
          const matches = search.matches.filter((match) => match.block === position);
          return (
            <article key={blockIndex} className="trace-block" aria-labelledby={`${id}-block-${blockIndex}`}>
              <h4
                id={`${id}-block-${blockIndex}`}
                tabIndex={-1}
                className={`trace-header ${colourClass(block.colour)}`}
              >
                {block.title}
              </h4>
              <pre className="trace-body">{highlighted(block.body, matches, currentMatch)}</pre>
            </article>
          );
        })}
      </section>
    </section>
  );
}

function colourClass(colour: string | null): string {
  return colour === null ? "trace-colour-none" : `trace-colour-${colour}`;
}
