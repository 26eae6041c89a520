export type { RubricEditorProps } from "./RubricEditor.js";
export { RubricEditor } from "./RubricEditor.js";
