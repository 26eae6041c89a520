/**
 * Timestamps in the shape the original writes (`datetime.now().isoformat()`): local time, no zone,
 * six fractional digits, and no fraction at all when it is zero.
 */
export function pythonIsoTimestamp(date: Date = new Date()): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const base =
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  const ms = date.getMilliseconds();
  return ms === 0 ? base : `${base}.${pad(ms, 3)}000`;
}

/** The `@id` of a new checkpoint: `urn:uuid:karenina-checkpoint-<POSIX seconds as a Python float repr>`. */
export function checkpointId(date: Date = new Date()): string {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  const fraction = ms % 1000;
  const repr =
    fraction === 0 ? `${seconds}.0` : `${seconds}.${String(fraction).padStart(3, "0").replace(/0+$/, "")}`;
  return `urn:uuid:karenina-checkpoint-${repr}`;
}
