export { ToastProvider, useToast } from "./ToastProvider.js";
export { INFO_TOAST_MS, MAX_TOASTS, type NewToast, type Toast, withToast } from "./toasts.js";
