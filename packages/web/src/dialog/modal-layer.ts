/**
 * While a dialog is open the page behind it is `inert`: no focus, no clicks, hidden from assistive technology.
 * Counted, so a dialog opened from a dialog keeps the page inert until both close.
 */
let openDialogs = 0;

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
