export { ConfigDialog, type ConfigDialogProps } from "./ConfigDialog.js";
