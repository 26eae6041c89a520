import type { ReactNode } from "react";
import { SessionContext, type SessionStore } from "../session/index.js";
import { StatusRegion } from "../status/index.js";
import { ToastProvider } from "../toast/index.js";
import { SessionFailureToasts } from "./SessionFailureToasts.js";

/** Everything the screens take from above: the session store, the status region, the toasts. */
export function Providers({
  store,
  children,
}: {
  readonly store: SessionStore;
  readonly children: ReactNode;
}) {
  return (
    <SessionContext value={store}>
      <StatusRegion>
        <ToastProvider>
          <SessionFailureToasts />
          {children}
        </ToastProvider>
      </StatusRegion>
    </SessionContext>
  );
}
