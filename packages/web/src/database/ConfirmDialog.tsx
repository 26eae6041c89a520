import type { ReactNode } from "react";
import { Dialog } from "../dialog/index.js";

export interface ConfirmDialogProps {
  readonly title: string;
  /** What the action does and what goes with it. */
  readonly children: ReactNode;
  /** The confirm button's text ("Delete"). */
  readonly confirmLabel: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/** An in-app confirmation (never `confirm()`, spec 07 §3): Cancel comes first, so Enter does not destroy. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="secondary-button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button danger-button" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
