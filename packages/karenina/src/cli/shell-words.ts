/**
 * An argument as a POSIX shell reads it back: bare when it holds only safe characters, else single-quoted.
 * For commands the CLI suggests (`karenina show 'my run.jsonl' QUESTION`).
 */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/** A command line of `args`, each quoted as {@link shellWord} does. */
export const shellCommand = (args: readonly string[]) => args.map(shellWord).join(" ");
