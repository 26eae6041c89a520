/**
 * Child process of the concurrency tests (hand-written test script): opens the database, says `ready`, waits
 * for a line on stdin, then saves results of one run, one result per transaction, and says `done`.
 * Usage: tsx write-results.ts <url> <run id> <answering model> <count>
 */
import { once } from "node:events";
import { createInterface } from "node:readline";
import { openStorage } from "../index.js";
import { manyResults } from "./results.js";

const [url, runId, answeringModel, count] = process.argv.slice(2) as [string, string, string, string];
const storage = await openStorage(url);
const results = manyResults(["q1", "q2", "q3"], Number(count), { answeringModel });
process.stdout.write("ready\n");
await once(createInterface({ input: process.stdin }), "line");
for (const result of results) await storage.saveResults(runId, [result]);
await storage.close();
process.stdout.write("done\n");
process.exit(0);
