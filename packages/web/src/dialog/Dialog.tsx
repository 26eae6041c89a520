import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { createPortal } from "react-dom";
import { focusableWithin, wrappedFocusTarget } from "./focus-trap.js";
import { holdPageInert, isTopmostDialog, pushDialog } from "./modal-layer.js";

export const OVERLAYS_ROOT_ID = "overlays";

export interface DialogProps {
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  /** What the footer holds (buttons); the header always has a close button. */
  readonly footer?: ReactNode;
}

function overlaysRoot(): HTMLElement {
  return document.getElementById(OVERLAYS_ROOT_ID) ?? document.body;
}

/**
 * A modal dialog in the app (never `alert`/`confirm`, spec 07 §3): focus moves to its first control and Tab
 * wraps inside it; Escape, the close button and a click on the backdrop close it; the page behind is inert;
 * on close, focus returns to the element that had it before.
 */
export function Dialog({ title, onClose, children, footer }: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const release = holdPageInert();
    const container = panel.current;
    if (container) (focusableWithin(container)[0] ?? container).focus();
    if (container === null)
      return () => {
        release();
        opener?.focus();
      };
    const self = {};
    const pop = pushDialog(self);
    const outside = () => !container.contains(document.activeElement);
    // Keys reach the document when focus left the dialog (its focused control was removed and focus fell to
    // the body): Escape must still close it, and Tab must bring focus back in.
    const onDocumentKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!isTopmostDialog(self) || event.defaultPrevented) return;
      if (event.key === "Escape") {
        event.preventDefault();
        close.current();
      } else if (event.key === "Tab" && outside()) {
        event.preventDefault();
        (focusableWithin(container)[0] ?? container).focus();
      }
    };
    // A control removed while focused drops focus to the body without any event: give it back to the dialog.
    const keepFocus = new MutationObserver(() => {
      const active = document.activeElement;
      if (isTopmostDialog(self) && (active === null || active === document.body)) container.focus();
    });
    keepFocus.observe(container, { childList: true, subtree: true });
    document.addEventListener("keydown", onDocumentKeyDown);
    return () => {
      keepFocus.disconnect();
      document.removeEventListener("keydown", onDocumentKeyDown);
      pop();
      release();
      opener?.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Tab" || panel.current === null) return;
    const target = wrappedFocusTarget(focusableWithin(panel.current), document.activeElement, event.shiftKey);
    if (target === undefined) return;
    event.preventDefault();
    target.focus();
  };

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a mouse shortcut; keyboards close with Escape
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => event.target === event.currentTarget && onClose()}
    >
      <div
        ref={panel}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button
            type="button"
            className="icon-button"
            aria-label={`Close ${title.toLowerCase()}`}
            onClick={onClose}
          >
            <span aria-hidden="true">×</span>
          </button>
        </header>
        <div className="dialog-body">{children}</div>
        {footer === undefined ? null : <footer className="dialog-footer">{footer}</footer>}
      </div>
    </div>,
    overlaysRoot(),
  );
}
