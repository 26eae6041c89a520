export { questionsPythonFile } from "./questions-python-file.js";
