import { CliUsageError } from "./cli-io.js";

/** Commander's parser for an integer option of at least `min` (and at most `max`, when given). */
export function integer(name: string, min: number, max?: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new CliUsageError(`${name}: expected an integer >= ${min}, found ${JSON.stringify(value)}`);
    if (max !== undefined && n > max)
      throw new CliUsageError(`${name}: at most ${max.toLocaleString("en-US")}, found ${value}`);
    return n;
  };
}
