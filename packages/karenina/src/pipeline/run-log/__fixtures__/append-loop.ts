// Test fixture for run-log.test.ts: appends results { task, index, payload } forever (or up to argv[4]),
// skipping tasks already in the log, like a resumed run. The test kills it with SIGKILL mid-run.
import { finishedKeys, RunLogWriter, readRunLog } from "../index.js";

const path = process.argv[2] ?? "";
const payload = "x".repeat(Number(process.argv[3] ?? "200"));
const limit = Number(process.argv[4] ?? "Infinity");

const { results } = await readRunLog<{ task: string }>(path);
const done = finishedKeys(results, (r) => r.task).keys;
const writer = await RunLogWriter.open(path);
for (let index = 0; index < limit; index += 1) {
  const task = `task-${index}`;
  if (done.has(task)) continue;
  await writer.append({ task, index, payload });
}
await writer.close();
