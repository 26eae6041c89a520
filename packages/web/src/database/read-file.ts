/** A picked file's text (the browser's File API). */
export function fileText(file: File): Promise<string> {
  return file.text();
}

/** A short message for any failure (an API error's message is already written for people). */
export function problemOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
