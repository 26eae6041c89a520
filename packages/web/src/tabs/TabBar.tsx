import { type KeyboardEvent, useRef } from "react";
import { TABS, type TabId, tabIndexAfterKey } from "./tabs.js";

export function tabButtonId(id: TabId): string {
  return `tab-${id}`;
}

export function tabPanelId(id: TabId): string {
  return `panel-${id}`;
}

export interface TabBarProps {
  readonly active: TabId;
  readonly onSelect: (id: TabId) => void;
  /** A tab's notice (the curator's "N question(s) with unsaved changes"): a pulsing dot with it as tooltip. */
  readonly notices?: Partial<Record<TabId, string | undefined>>;
}

/** The numbered tabs (WAI-ARIA tabs: one tab stop, arrows/Home/End move and select). */
export function TabBar({ active, onSelect, notices = {} }: TabBarProps) {
  const buttons = useRef(new Map<TabId, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = TABS.findIndex((tab) => tab.id === active);
    const next = tabIndexAfterKey(current, event.key, TABS.length);
    const tab = next === undefined ? undefined : TABS[next];
    if (tab === undefined) return;
    event.preventDefault();
    onSelect(tab.id);
    buttons.current.get(tab.id)?.focus();
  };

  return (
    <div className="tab-bar" role="tablist" aria-label="Tabs" onKeyDown={onKeyDown}>
      {TABS.map((tab) => {
        const selected = tab.id === active;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) buttons.current.set(tab.id, element);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={tabButtonId(tab.id)}
            aria-selected={selected}
            aria-controls={tabPanelId(tab.id)}
            tabIndex={selected ? 0 : -1}
            className="tab"
            onClick={() => onSelect(tab.id)}
            title={notices[tab.id]}
          >
            <span className="tab-number">{tab.number}.</span> {tab.label}
            {notices[tab.id] === undefined ? null : (
              <span className="tab-dot" data-testid={`tab-dot-${tab.id}`} />
            )}
          </button>
        );
      })}
    </div>
  );
}
