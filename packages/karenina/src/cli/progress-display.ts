import cliProgress from "cli-progress";
import type { ProgressEvent } from "../pipeline/index.js";
import { passRateOf } from "../results/index.js";
import type { CliIo } from "./cli-io.js";

/** Shows a run's progress; `stop` is idempotent. */
export interface ProgressDisplay {
  update(event: ProgressEvent): void;
  stop(): void;
}

const NO_DISPLAY: ProgressDisplay = { update: () => {}, stop: () => {} };

/** The progress bar's pass rate: `passRateOf` in %, one decimal (`66.7%`); `-` before any result passed or failed. */
function progressPassRate(passed: number, failed: number): string {
  return passed + failed === 0 ? "-" : `${(100 * passRateOf(passed, failed)).toFixed(1)}%`;
}

/**
 * A live progress bar on an interactive stderr: done/total, pass rate, ETA, tokens and cost. Nothing when
 * stderr is not a terminal (CI logs, pipes) or when disabled; the summary line is printed either way.
 */
export function createProgressDisplay(
  _io: CliIo,
  enabled: boolean,
  stream: NodeJS.WriteStream = process.stderr,
): ProgressDisplay {
  if (!enabled || !stream.isTTY) return NO_DISPLAY;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format:
        "{bar} {value}/{total} · {passed} passed, {failed} failed · pass rate {passRate} · ETA {eta_formatted} · {tokens} tokens · {cost}",
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let stopped = false;
  return {
    update(event) {
      if (stopped) return;
      if (event.type === "start") {
        bar.start(event.total, event.resumed, {
          passed: 0,
          failed: 0,
          passRate: "-",
          tokens: 0,
          cost: "$0.0000",
        });
        started = true;
      } else if (event.type === "result" && started) {
        bar.update(event.done, {
          passed: event.passed,
          failed: event.failed,
          // The pass rate of every summary (results/outcome.ts): passed / (passed + failed).
          passRate: progressPassRate(event.passed, event.failed),
          tokens: event.stats.inputTokens + event.stats.outputTokens,
          cost: `$${event.stats.costUsd.toFixed(4)}`,
        });
      }
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (started) bar.stop();
    },
  };
}
