export { PythonAssetError } from "./errors.js";
export { pythonAsset } from "./python-asset.js";
