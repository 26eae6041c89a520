/**
 * One consumer process of the queue-engine bench (forked by queue-engines.ts with `--import tsx`), as a real
 * worker would be. Messages from the parent: `init` (connect, answer `ready`), `go` (start taking tasks; CPU
 * and round trips are counted from here), `finish` (stop, wait for tasks in flight, answer `report`, exit).
 * While running it sends `progress` (tasks done, every 100 ms) or, with `reportEach`, `started`/`completed`
 * for every task.
 */
import {
  type Consumer,
  type EngineTarget,
  installRoundTripCounters,
  type Lease,
  openConsumer,
  roundTripsSent,
  type TaskData,
} from "./queue-engines-adapters.js";

export type ToConsumer =
  | { type: "init"; target: EngineTarget; lease?: Lease; concurrency: number; reportEach: boolean }
  | { type: "go" }
  | { type: "finish" };

export type FromConsumer =
  | { type: "ready" }
  | { type: "progress"; completed: number }
  | { type: "started"; i: number }
  | { type: "completed"; i: number }
  | { type: "report"; cpuMs: number; roundTrips: number; completed: number };

const send = (message: FromConsumer) => process.send?.(message);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let consumer: Consumer | undefined;
let init: Extract<ToConsumer, { type: "init" }> | undefined;
let completed = 0;
let cpuAtGo = process.cpuUsage();
let roundTripsAtGo = 0;
let progressTimer: NodeJS.Timeout | undefined;

async function handle(task: TaskData): Promise<void> {
  if (init?.reportEach) send({ type: "started", i: task.i });
  if (task.sleepMs > 0) await sleep(task.sleepMs);
  completed += 1;
  if (init?.reportEach) send({ type: "completed", i: task.i });
}

function go(): void {
  if (consumer === undefined || init === undefined) return;
  cpuAtGo = process.cpuUsage();
  roundTripsAtGo = roundTripsSent();
  if (!init.reportEach) {
    let sent = -1;
    progressTimer = setInterval(() => {
      if (completed !== sent) send({ type: "progress", completed });
      sent = completed;
    }, 100);
  }
  consumer.run(init.concurrency, handle);
}

async function finish(): Promise<void> {
  clearInterval(progressTimer);
  await consumer?.close();
  const cpu = process.cpuUsage(cpuAtGo);
  send({
    type: "report",
    cpuMs: (cpu.user + cpu.system) / 1000,
    roundTrips: roundTripsSent() - roundTripsAtGo,
    completed,
  });
  process.disconnect?.();
  setTimeout(() => process.exit(0), 200).unref();
}

process.on("message", (message: ToConsumer) => {
  if (message.type === "init") {
    init = message;
    installRoundTripCounters();
    openConsumer(message.target, message.lease).then(
      (opened) => {
        consumer = opened;
        send({ type: "ready" });
      },
      (error: Error) => {
        console.error(`consumer could not connect: ${error.message}`);
        process.exit(1);
      },
    );
  } else if (message.type === "go") go();
  else void finish();
});
