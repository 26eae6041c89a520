import { appendFile, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, test } from "vitest";
import { openStorage, type Storage } from "../../storage/index.js";
import { EventLog } from "./event-log.js";
import type { JobEvent } from "./job-events.js";
import { type JobContext, type JobKind, JobRunner, type JobSubscriber } from "./job-runner.js";

setFlagsFromString("--expose-gc");
/** A full garbage collection (so a test can see which events the runner still holds). */
const collectGarbage = runInNewContext("gc") as () => void;

/** A job kind whose tasks the test reports by hand, and which ends when the test says. */
function handDrivenKind() {
  let context!: (job: JobContext<unknown>) => void;
  const started = new Promise<JobContext<unknown>>((resolve) => {
    context = resolve;
  });
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const kind: JobKind<unknown> = {
    kind: "hand-driven",
    resumable: false,
    parseInput: (stored) => stored,
    run: async (job) => {
      context(job);
      await finished;
      return { ok: true };
    },
  };
  let next = 0;
  /** Reports `count` tasks started and completed (two events each). */
  const reportTasks = async (count: number) => {
    const job = await started;
    for (let i = 0; i < count; i++) {
      const task = { key: `t${next}`, question_id: `q${next}` };
      next++;
      job.taskStarted(task);
      job.taskCompleted(task, true);
    }
  };
  return { kind, started, finish, reportTasks };
}

/** A subscriber that records what it gets. */
function recorder() {
  const events: JobEvent[] = [];
  let ends = 0;
  const subscriber: JobSubscriber = {
    onEvent: (event) => events.push(event),
    onEnd: () => {
      ends++;
    },
  };
  return {
    subscriber,
    events,
    get ends() {
      return ends;
    },
  };
}

const storages: Storage[] = [];
afterEach(async () => {
  for (const storage of storages.splice(0)) await storage.close();
});

async function runnerWith(recentEvents: number) {
  const dir = await mkdtemp(join(tmpdir(), "karenina-job-runner-"));
  const storage = await openStorage(join(dir, "karenina.db"));
  storages.push(storage);
  const runner = new JobRunner({ storage, workDir: dir, recentEvents });
  const driven = handDrivenKind();
  runner.register(driven.kind);
  const view = await runner.start("hand-driven", {});
  await driven.started;
  return { runner, driven, id: view.job_id };
}

/** The seqs of the events after the snapshot, which must come first. */
function seqsAfterSnapshot(events: readonly JobEvent[]): number[] {
  expect(events[0]?.type).toBe("snapshot");
  return events.slice(1).map((event) => event.seq);
}

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("JobRunner: a running job's events in memory", () => {
  test("a running job keeps only its latest events in memory: the earlier ones are released", async () => {
    const { runner, driven, id } = await runnerWith(4);
    const held: WeakRef<JobEvent>[] = [];
    await runner.subscribe(id, undefined, {
      onEvent: (event) => {
        if (event.type !== "snapshot") held.push(new WeakRef(event));
      },
      onEnd: () => undefined,
    });
    await driven.reportTasks(20);
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();

    const alive = held.map((ref) => ref.deref() !== undefined);
    expect(held).toHaveLength(40);
    expect(alive.slice(0, 30).every((isAlive) => !isAlive)).toBe(true);
    expect(alive.slice(-4)).toEqual([true, true, true, true]);
    driven.finish();
    await runner.drain();
  });

  test("a subscriber from seq 0 of a job past its memory gets every event once, in order, then the end", async () => {
    const { runner, driven, id } = await runnerWith(4);
    await driven.reportTasks(10); // job_started + 20 events: most only in the log
    const late = recorder();
    const subscribing = runner.subscribe(id, 0, late.subscriber);
    // Live events while the late subscriber catches up from the log.
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      await driven.reportTasks(1);
    }
    await subscribing;
    await driven.reportTasks(2);
    driven.finish();
    await runner.drain();

    const seqs = seqsAfterSnapshot(late.events);
    expect(seqs).toEqual(oneTo(1 + 2 * 17 + 1));
    expect(late.events.at(-1)?.type).toBe("job_completed");
    expect(late.ends).toBe(1);
  });

  test("a subscriber after a seq still in memory gets the events after it, and one from the present only live ones", async () => {
    const { runner, driven, id } = await runnerWith(4);
    await driven.reportTasks(5); // seq 1..11
    const recent = recorder();
    const present = recorder();
    await runner.subscribe(id, 8, recent.subscriber);
    await runner.subscribe(id, undefined, present.subscriber);
    await driven.reportTasks(1);
    driven.finish();
    await runner.drain();

    expect(seqsAfterSnapshot(recent.events)).toEqual([9, 10, 11, 12, 13, 14]);
    expect(seqsAfterSnapshot(present.events)).toEqual([12, 13, 14]);
  });

  test("a finished job's events are replayed from its log", async () => {
    const { runner, driven, id } = await runnerWith(2);
    await driven.reportTasks(3);
    driven.finish();
    await runner.drain();
    const after = recorder();
    await runner.subscribe(id, 3, after.subscriber);

    expect(seqsAfterSnapshot(after.events)).toEqual([4, 5, 6, 7, 8]);
    expect(after.ends).toBe(1);
  });
});

describe("EventLog.replay", () => {
  test("streams the events after a seq, skipping a torn last line; a missing log has none", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "karenina-event-log-")), "events.jsonl");
    const line = (seq: number) => `${JSON.stringify({ type: "task_started", seq })}\n`;
    await writeFile(path, [1, 2, 3, 4].map(line).join(""));
    await appendFile(path, '{"type":"task_comp');
    const seqs: number[] = [];
    await EventLog.replay(path, 2, (event) => seqs.push(event.seq));

    expect(seqs).toEqual([3, 4]);
    expect(await EventLog.lastSeq(path)).toBe(4);
    expect(await EventLog.read(`${path}.missing`)).toEqual([]);
  });
});
