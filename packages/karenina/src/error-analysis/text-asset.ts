import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MaterializationError } from "./errors.js";

/**
 * A text file the library ships beside this module (under `assets/`; the build copies it into `dist/`), read the
 * first time it is needed and kept.
 */
export function textAsset(file: URL): () => string {
  let text: string | undefined;
  return () => {
    if (text !== undefined) return text;
    try {
      text = readFileSync(file, "utf8").replace(/\r\n/g, "\n");
    } catch (error) {
      throw new MaterializationError(
        `cannot read the packaged file ${fileURLToPath(file)} (${(error as NodeJS.ErrnoException).code}); reinstall karenina`,
      );
    }
    return text;
  };
}

/** The analyst prompt shipped with the library (placeholders not substituted). */
export const defaultPrompt = textAsset(new URL("./assets/PROMPT.md", import.meta.url));
/** The rubric reference copied beside the prompt. */
export const rubricGuide = textAsset(new URL("./assets/RUBRIC_GUIDE.md", import.meta.url));
