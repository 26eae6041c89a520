/** What can take focus by Tab inside a container (disabled and hidden controls excepted). */
const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
  "[contenteditable='true']",
].join(",");

/** The elements Tab visits inside `container`, in document order. */
export function focusableWithin(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => !element.closest("[inert]") && element.getAttribute("aria-hidden") !== "true",
  );
}

/**
 * Where Tab (or Shift+Tab) must send focus to stay inside the dialog: the first element after the last, the
 * last before the first, the first when focus has left the dialog; undefined when the browser's own move stays
 * inside.
 */
export function wrappedFocusTarget(
  focusables: readonly HTMLElement[],
  active: Element | null,
  backwards: boolean,
): HTMLElement | undefined {
  const first = focusables[0];
  const last = focusables[focusables.length - 1];
  if (first === undefined || last === undefined) return undefined;
  const index = active === null ? -1 : focusables.indexOf(active as HTMLElement);
  if (index === -1) return backwards ? last : first;
  if (backwards && index === 0) return last;
  if (!backwards && index === focusables.length - 1) return first;
  return undefined;
}
