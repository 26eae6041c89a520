import { useEffect } from "react";
import { type SessionFailure, useSessionStore } from "../session/index.js";
import { useToast } from "../toast/index.js";

function failureMessage({ action, error }: SessionFailure): string {
  const reason = error instanceof Error ? error.message : String(error);
  return action === "restore"
    ? `The previous session could not be restored (${reason}); the app started fresh.`
    : `This session could not be saved in the browser (${reason}); a reload will not restore it.`;
}

/** Shows each session store failure as an error toast (renders nothing itself). */
export function SessionFailureToasts() {
  const store = useSessionStore();
  const showToast = useToast();
  useEffect(
    () => store.onFailure((failure) => showToast({ tone: "error", message: failureMessage(failure) })),
    [store, showToast],
  );
  return null;
}
