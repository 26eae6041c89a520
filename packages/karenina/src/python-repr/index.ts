export { PyFloat } from "./py-float.js";
export { floatRepr, pyRepr, stringRepr } from "./python-repr.js";
