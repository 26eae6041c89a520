/**
 * While a dialog is open the page behind it is `inert`: no focus, no clicks, hidden from assistive technology.
 * Counted, so a dialog opened from a dialog keeps the page inert until both close. The open dialogs are kept
 * in opening order too: keys pressed outside every dialog (focus fell to the body) go to the topmost one.
 */
let openDialogs = 0;
const stack: object[] = [];

export const APP_ROOT_ID = "app";

/** Marks the page behind the dialogs inert; returns the function that releases this dialog's hold. */
export function holdPageInert(): () => void {
  openDialogs += 1;
  document.getElementById(APP_ROOT_ID)?.setAttribute("inert", "");
  let released = false;
  return () => {
    if (released) return;
    released = true;
    openDialogs -= 1;
    if (openDialogs === 0) document.getElementById(APP_ROOT_ID)?.removeAttribute("inert");
  };
}

/** Records an open dialog on top of the others; returns the function that removes it. */
export function pushDialog(dialog: object): () => void {
  stack.push(dialog);
  return () => {
    const at = stack.lastIndexOf(dialog);
    if (at !== -1) stack.splice(at, 1);
  };
}

/** Whether `dialog` is the last opened of the dialogs still open. */
export const isTopmostDialog = (dialog: object) => stack.at(-1) === dialog;
