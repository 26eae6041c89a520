/** A short message shown in the corner: `info` goes away by itself, `error` stays until dismissed. */
export interface Toast {
  readonly id: number;
  readonly message: string;
  readonly tone: "info" | "error";
}

export type NewToast = Omit<Toast, "id">;

/** How long an info toast stays (errors stay until dismissed: they may need reading twice). */
export const INFO_TOAST_MS = 6000;

/** At most this many toasts are shown; older ones give way. */
export const MAX_TOASTS = 4;

/** The list after adding a toast: newest last, the oldest dropped past {@link MAX_TOASTS}. */
export function withToast(toasts: readonly Toast[], toast: Toast): Toast[] {
  return [...toasts, toast].slice(-MAX_TOASTS);
}
