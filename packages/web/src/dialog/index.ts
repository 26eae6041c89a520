export { Dialog, type DialogProps, OVERLAYS_ROOT_ID } from "./Dialog.js";
export { focusableWithin, wrappedFocusTarget } from "./focus-trap.js";
export { APP_ROOT_ID, holdPageInert } from "./modal-layer.js";
