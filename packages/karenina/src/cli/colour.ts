/** What a piece of output says, which decides its colour on a terminal. */
export type Tone = "pass" | "fail" | "warn" | "dim" | "heading";

/** Paints text by its tone: with ANSI colours on a terminal, unchanged otherwise. */
export interface Palette {
  readonly enabled: boolean;
  paint(text: string, tone: Tone): string;
}

// SGR open and close codes; each close resets only what its open set, so tones can nest.
const CODES: Readonly<Record<Tone, readonly [number, number]>> = {
  pass: [32, 39],
  fail: [31, 39],
  warn: [33, 39],
  dim: [2, 22],
  heading: [1, 22],
};

/** No colour: text is printed as it is (pipes, files, `NO_COLOR`). */
export const PLAIN: Palette = { enabled: false, paint: (text) => text };

/** ANSI colours, for a terminal. */
export const ANSI: Palette = {
  enabled: true,
  paint: (text, tone) => {
    if (text === "") return text;
    const [open, close] = CODES[tone];
    return `\u001b[${open}m${text}\u001b[${close}m`;
  },
};

/** The stream facts colour depends on (a `tty.WriteStream` has them; a pipe or file has no `isTTY`). */
export interface ColourTarget {
  isTTY?: boolean;
}

const isSet = (value: string | undefined) => value !== undefined && value !== "";

/**
 * Whether output to `stream` gets colours: never when `NO_COLOR` is set (https://no-color.org), always when
 * `FORCE_COLOR` is set to anything but `0` or `false`, else only on a terminal that is not `TERM=dumb`.
 */
export function wantsColour(stream: ColourTarget, env: NodeJS.ProcessEnv): boolean {
  if (isSet(env.NO_COLOR)) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** The palette for a yes/no decision. */
export const paletteFor = (colour: boolean | undefined): Palette => (colour ? ANSI : PLAIN);

// C0 controls but tab and newline, DEL, and C1 controls: what a terminal could take as a command.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from a checkpoint or a model, made safe to print to a terminal: control characters (escape sequences
 * that could move the cursor, retitle the window or fake output) are shown as `\xNN` instead of being sent.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
