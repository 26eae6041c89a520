/** Which texts the editor can go back to, and which one its diff starts on (spec 07 §1.3.7). */

export type Baseline = "saved" | "original";

/** The revert actions that apply: one "Revert" when there is one other text to go back to, else both. */
export function revertActions(
  value: string,
  saved: string,
  original: string,
): { readonly label: string; readonly text: string }[] {
  const differsSaved = value !== saved;
  const differsOriginal = value !== original;
  if (differsSaved && differsOriginal && saved !== original)
    return [
      { label: "Revert to Original", text: original },
      { label: "Revert to Saved", text: saved },
    ];
  if (differsSaved) return [{ label: "Revert", text: saved }];
  if (differsOriginal) return [{ label: "Revert", text: original }];
  return [];
}

/** The baseline the diff starts on: the saved text when the current one differs from it (spec 07 §1.3.7). */
export const startingBaseline = (value: string, saved: string): Baseline =>
  value !== saved ? "saved" : "original";
