/** The app's numbered tabs (spec 07 §0), each with its hash route (`#/generate` …). */
export const TABS = [
  { id: "generate", number: 1, label: "Template Generation" },
  { id: "curate", number: 2, label: "Template Curator" },
  { id: "benchmark", number: 3, label: "Benchmark" },
  { id: "docs", number: 4, label: "Docs" },
] as const;

export type Tab = (typeof TABS)[number];
export type TabId = Tab["id"];

export const DEFAULT_TAB: TabId = "generate";

export function isTabId(value: unknown): value is TabId {
  return TABS.some((tab) => tab.id === value);
}

/** The hash route of a tab: `#/benchmark`. */
export function hashOf(id: TabId): string {
  return `#/${id}`;
}

/** The tab a location hash names (`#/benchmark`, `#/benchmark/…` later), or undefined. */
export function tabOfHash(hash: string): TabId | undefined {
  const id = /^#\/([^/?]+)/.exec(hash)?.[1];
  return isTabId(id) ? id : undefined;
}

/**
 * The index of the tab a key moves to in the tab list (WAI-ARIA tabs: arrows wrap, Home and End jump), or
 * undefined when the key does not move.
 */
export function tabIndexAfterKey(current: number, key: string, count: number): number | undefined {
  switch (key) {
    case "ArrowRight":
      return (current + 1) % count;
    case "ArrowLeft":
      return (current - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return undefined;
  }
}
