import type { ReactNode } from "react";
import { BenchmarkTab } from "../benchmark/index.js";
import { ComingPanel } from "../coming/index.js";
import type { TabId } from "../tabs/index.js";

/** What each tab shows. Each screen replaces its placeholder as it is built. */
export const TAB_CONTENT: Readonly<Record<TabId, () => ReactNode>> = {
  generate: () => (
    <ComingPanel title="1. Template Generation">
      <p>
        Here you will extract questions from a spreadsheet (CSV, TSV or Excel) and have an LLM write their
        answer templates.
      </p>
    </ComingPanel>
  ),
  curate: () => (
    <ComingPanel title="2. Template Curator">
      <p>
        Here you will load a checkpoint, edit answer templates and rubrics, and mark questions finished for a
        run.
      </p>
    </ComingPanel>
  ),
  benchmark: () => <BenchmarkTab />,
  docs: () => (
    <ComingPanel title="4. Docs">
      <p>Here you will read the guides to generation, curation, benchmarking and configuration.</p>
    </ComingPanel>
  ),
};
