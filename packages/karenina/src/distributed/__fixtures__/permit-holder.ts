/**
 * A worker that takes one shared permit and holds it forever (the test kills it with SIGKILL).
 * Usage: node --import tsx permit-holder.ts <database url> <scope> <endpoint> <lease seconds>
 * Prints "holding" once its call runs.
 */
import pg from "pg";
import { PostgresCallLimits } from "../postgres-call-limits.js";

const [url, scope, endpoint, lease] = process.argv.slice(2) as [string, string, string, string];
const pool = new pg.Pool({ connectionString: url, max: 2 });
const limits = new PostgresCallLimits({
  pool,
  scope,
  holder: `doomed-${process.pid}`,
  globalLimit: 10,
  endpointLimits: { [endpoint]: 1 },
  leaseSeconds: Number(lease),
});
// The interval keeps the process alive: the renewal timer is unref'd, as it should be in a worker.
setInterval(() => undefined, 60_000);
await limits.hold(endpoint, () => {
  process.stdout.write("holding\n");
  return new Promise<never>(() => undefined);
});
