import { useCallback, useEffect, useState } from "react";
import { ResultDetailDialog } from "./ResultDetailDialog.js";
import { hashWithoutResult, type ResultLink, resultLinkOf } from "./result-path.js";

function currentLink(): ResultLink | null {
  return resultLinkOf(window.location.hash);
}

/**
 * Opens the detail of the result a link names (`#/benchmark?result=<id>&db=<name>&run_id=<run>`): a result can
 * be shared or bookmarked. Closing the dialog drops the query from the hash (no new history entry).
 */
export function ResultDeepLink() {
  const [link, setLink] = useState<ResultLink | null>(currentLink);

  useEffect(() => {
    const follow = () => setLink(currentLink());
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);

  const close = useCallback(() => {
    window.history.replaceState(window.history.state, "", hashWithoutResult(window.location.hash));
    setLink(null);
  }, []);

  if (link === null) return null;
  return (
    <ResultDetailDialog
      key={`${link.db}/${link.runId}/${link.resultId}`}
      db={link.db}
      resultId={link.resultId}
      {...(link.runId === undefined ? {} : { runId: link.runId })}
      onClose={close}
    />
  );
}
