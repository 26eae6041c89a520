import { type KeyboardEvent, type ReactNode, useId, useRef } from "react";

export interface DialogTab {
  readonly id: string;
  readonly label: string;
  readonly render: () => ReactNode;
}

export interface DialogTabsProps {
  readonly label: string;
  readonly tabs: readonly DialogTab[];
  readonly active: string;
  readonly onSelect: (id: string) => void;
}

/** WAI-ARIA tabs inside a dialog: one tab stop, arrows/Home/End move and select. */
export function DialogTabs({ label, tabs, active, onSelect }: DialogTabsProps) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const current = tabs.find((tab) => tab.id === active) ?? tabs[0];
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.id === current?.id);
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? tabs.length - 1
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next];
    if (tab === undefined) return;
    onSelect(tab.id);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };
  return (
    <div className="dialog-tabs">
      <div ref={list} role="tablist" aria-label={label} className="dialog-tab-list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-controls={`${base}-panel-${tab.id}`}
            aria-selected={tab.id === current?.id}
            tabIndex={tab.id === current?.id ? 0 : -1}
            className="dialog-tab"
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current === undefined ? null : (
        <div
          role="tabpanel"
          id={`${base}-panel-${current.id}`}
          aria-labelledby={`${base}-tab-${current.id}`}
          className="dialog-tab-panel"
        >
          {current.render()}
        </div>
      )}
    </div>
  );
}
