import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { OVERLAYS_ROOT_ID } from "../dialog/index.js";
import { INFO_TOAST_MS, type NewToast, type Toast, withToast } from "./toasts.js";

type ShowToast = (toast: NewToast) => void;

const ToastContext = createContext<ShowToast | undefined>(undefined);

/** Shows a toast (an in-app message; the app never uses `alert`). */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (show === undefined) throw new Error("useToast needs a <ToastProvider> above it");
  return show;
}

function ToastItem({
  toast,
  onDismiss,
}: {
  readonly toast: Toast;
  readonly onDismiss: (id: number) => void;
}) {
  useEffect(() => {
    if (toast.tone !== "info") return;
    const timer = setTimeout(() => onDismiss(toast.id), INFO_TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  return (
    <li className={`toast toast-${toast.tone}`}>
      {/* The role is on the message, not the <li>: a list may only hold list items (axe "list"). */}
      <span className="toast-message" role={toast.tone === "error" ? "alert" : "status"}>
        {toast.message}
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label="Dismiss notification"
        onClick={() => onDismiss(toast.id)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

/** Holds the toasts and shows them in a labelled region outside the page, so an open dialog never makes them inert. */
export function ToastProvider({ children }: { readonly children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const show = useCallback<ShowToast>((toast) => {
    const id = nextId.current++;
    setToasts((list) => withToast(list, { ...toast, id }));
  }, []);
  const dismiss = useCallback(
    (id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)),
    [],
  );
  return (
    <ToastContext value={show}>
      {children}
      {createPortal(
        <section className="toasts" aria-label="Notifications">
          <ul>
            {toasts.map((toast) => (
              <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
            ))}
          </ul>
        </section>,
        document.getElementById(OVERLAYS_ROOT_ID) ?? document.body,
      )}
    </ToastContext>
  );
}
