import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { entryLabel, type FinishedFilter, type NavigatorEntry } from "./navigator-filter.js";

const ROW_HEIGHT = 32;

export interface NavigatorProps {
  readonly entries: readonly NavigatorEntry[];
  readonly total: number;
  readonly selectedId: string | undefined;
  readonly onSelect: (id: string) => void;
  readonly search: string;
  readonly onSearch: (search: string) => void;
  readonly filter: FinishedFilter;
  readonly onFilter: (filter: FinishedFilter) => void;
}

/**
 * The question navigator (spec 07 §1.3.3, §3): a searchable combobox whose listbox is virtualised (5,000
 * questions render a screenful of options), with the finished filter and "Showing x of y".
 */
export function Navigator({
  entries,
  total,
  selectedId,
  onSelect,
  search,
  onSearch,
  filter,
  onFilter,
}: NavigatorProps) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const empty = total === 0;

  useEffect(() => {
    if (!open) return;
    const at = entries.findIndex((entry) => entry.question.id === selectedId);
    setActive(at < 0 ? 0 : at);
    if (at >= 0) virtualizer.scrollToIndex(at, { align: "auto" });
  }, [open, entries, selectedId, virtualizer]);

  const moveTo = (index: number) => {
    const bounded = Math.max(0, Math.min(index, entries.length - 1));
    setActive(bounded);
    virtualizer.scrollToIndex(bounded, { align: "auto" });
  };
  const choose = (index: number) => {
    const entry = entries[index];
    if (entry === undefined) return;
    onSelect(entry.question.id);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const page = 10;
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      if (!open) setOpen(true);
      else moveTo(target);
    } else if (event.key === "Enter" && open) {
      event.preventDefault();
      choose(active);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };
  const activeEntry = open ? entries[active] : undefined;
  const optionId = (index: number) => `${id}-option-${index}`;

  return (
    <div className="curator-navigator">
      <div className="curator-navigator-row">
        <div className="curator-combobox">
          <label htmlFor={`${id}-input`} className="visually-hidden">
            Find a question
          </label>
          <input
            id={`${id}-input`}
            role="combobox"
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={activeEntry === undefined ? undefined : optionId(active)}
            data-testid="question-search"
            disabled={empty}
            value={search}
            placeholder={empty ? "No questions loaded yet" : "Search by question, answer, or ID…"}
            onChange={(event) => {
              onSearch(event.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onBlur={(event) => {
              if (!event.currentTarget.parentElement?.contains(event.relatedTarget)) setOpen(false);
            }}
            onKeyDown={onKeyDown}
          />
          <button
            type="button"
            className="icon-button curator-combobox-toggle"
            aria-label={open ? "Close the question list" : "Open the question list"}
            tabIndex={-1}
            disabled={empty}
            onClick={() => setOpen((was) => !was)}
          >
            <span aria-hidden="true">▾</span>
          </button>
          <div ref={scroller} className="curator-listbox-scroller" hidden={!open}>
            <div
              id={listId}
              role="listbox"
              aria-label="Questions"
              className="curator-listbox"
              style={{ height: `${virtualizer.getTotalSize()}px` }}
            >
              {open
                ? virtualizer.getVirtualItems().map((row) => {
                    const entry = entries[row.index];
                    if (entry === undefined) return null;
                    return (
                      // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (aria-activedescendant)
                      <div
                        key={entry.question.id}
                        tabIndex={-1}
                        id={optionId(row.index)}
                        role="option"
                        aria-selected={entry.question.id === selectedId}
                        aria-setsize={entries.length}
                        aria-posinset={row.index + 1}
                        className={
                          row.index === active ? "curator-option curator-option-active" : "curator-option"
                        }
                        style={{ transform: `translateY(${row.start}px)`, height: `${ROW_HEIGHT}px` }}
                        onMouseDown={(event) => event.preventDefault()}
                        onClick={() => choose(row.index)}
                      >
                        <span aria-hidden="true" className="curator-option-mark">
                          {entry.question.finished ? "✓" : "·"}
                        </span>
                        {entryLabel(entry)}
                      </div>
                    );
                  })
                : null}
            </div>
          </div>
        </div>
        {empty ? null : (
          <div className="curator-field curator-inline-field">
            <label htmlFor={`${id}-filter`}>Show</label>
            <select
              id={`${id}-filter`}
              value={filter}
              data-testid="finished-filter"
              onChange={(event) => onFilter(event.target.value as FinishedFilter)}
            >
              <option value="all">Show All</option>
              <option value="finished">Finished Only</option>
              <option value="unfinished">Unfinished Only</option>
            </select>
          </div>
        )}
      </div>
      <p className="curator-note" data-testid="navigator-count" aria-live="polite">
        {empty
          ? "No questions loaded"
          : entries.length === 0
            ? "No questions match your search"
            : `Showing ${entries.length} of ${total} questions`}
      </p>
    </div>
  );
}
