import type { ReactNode } from "react";
import { BenchmarkTab } from "../benchmark/index.js";
import { CuratorTab } from "../curator/index.js";
import { DocsTab } from "../docs-tab/index.js";
import { GenerateTab } from "../generate/index.js";
import type { TabId } from "../tabs/index.js";

/** What each tab shows. Each screen replaces its placeholder as it is built. */
export const TAB_CONTENT: Readonly<Record<TabId, () => ReactNode>> = {
  generate: () => <GenerateTab />,
  curate: () => <CuratorTab />,
  benchmark: () => <BenchmarkTab />,
  docs: () => <DocsTab />,
};
