export { PyFloat } from "./py-float.js";
export { type FloatSpec, type PythonJsonOptions, pythonJson } from "./python-json.js";
export { floatRepr, pyRepr, stringRepr } from "./python-repr.js";
