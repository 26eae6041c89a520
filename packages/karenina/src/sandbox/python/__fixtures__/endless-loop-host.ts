/**
 * Script used by sandbox-confinement-host-death.test.ts (written for this project), run with `node --import tsx`:
 * a host whose sandbox runs an endless loop when the test kills it with SIGKILL. It prints `looping` once the
 * loop has been sent.
 * - `python`: a PythonSandbox (confined as this machine allows) runs `while True: pass` with a 10-minute limit;
 * - `unconfined`: the escape probe, started without confinement, spins (what happens without the defence).
 */
import { PythonSandbox } from "../python-sandbox.js";
import { noConfinement, startProbe } from "./escape-probes.js";

const TEN_MINUTES_MS = 600_000;

if (process.argv[2] === "python") {
  const sandbox = PythonSandbox.create({ timeoutMs: TEN_MINUTES_MS });
  await sandbox.start();
  const looping = sandbox.run({ code: "while True: pass", entry: "0" });
  console.log("looping");
  await looping;
} else {
  const { child } = await startProbe(noConfinement());
  child.send({ attempt: "spin" });
  console.log("looping");
  setTimeout(() => undefined, TEN_MINUTES_MS);
}
