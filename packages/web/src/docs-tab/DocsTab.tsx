import { lazy, Suspense } from "react";

// The pages, their renderer and its Markdown parser load when the tab is first opened, not with the app.
const DocsView = lazy(() => import("./DocsView.js").then((module) => ({ default: module.DocsView })));

/** Tab 4, Docs: the project's user guides, rendered in the app. */
export function DocsTab() {
  return (
    <Suspense fallback={<p className="docs-loading">Loading the docs…</p>}>
      <DocsView />
    </Suspense>
  );
}
