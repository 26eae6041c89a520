export { pythonCompatSetup } from "./compat/compat-setup.js";
export { defaultPythonSandbox } from "./default-sandbox.js";
export { type LoadPythonTemplateOptions, loadPythonTemplate, PythonTemplate } from "./python-template.js";
export { createTemplateSandbox, TEMPLATE_ISOLATIONS, type TemplateIsolation } from "./template-sandbox.js";
