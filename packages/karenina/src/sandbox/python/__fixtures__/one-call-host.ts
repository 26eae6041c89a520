/**
 * Script used by snapshot-cache.test.ts (written for this project), run with `node --import tsx`: a host that
 * starts one PythonSandbox, runs one call and prints its result, with the environment the test gives it.
 */
import { PythonSandbox } from "../python-sandbox.js";

const sandbox = PythonSandbox.create();
console.log(JSON.stringify(await sandbox.run({ code: "", entry: "6 * 7" })));
await sandbox.close();
