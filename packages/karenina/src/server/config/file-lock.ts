const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `work` after every earlier `work` on the same file has finished, so two requests changing one file
 * cannot both read the old content and the second write drop the first's change.
 */
export function serialised<T>(file: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  queues.set(file, settled);
  void settled.then(() => {
    if (queues.get(file) === settled) queues.delete(file);
  });
  return next;
}
