export { TemplateEditor, type TemplateEditorProps } from "./TemplateEditor.js";
