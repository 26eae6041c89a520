import { KareninaError } from "../errors/index.js";
import { runRegex } from "./deadline-runner.js";
import { quotePattern, RegexEngineError, RegexTimeoutError } from "./errors.js";

/**
 * A Python `re` pattern that is invalid in Python (`kind: "invalid"`), or valid but not expressible with the
 * same meaning in a JavaScript `RegExp` (`kind: "unsupported"`). `position` counts code points, as Python does.
 */
export class PythonRegexError extends KareninaError {
  override readonly name = "PythonRegexError";

  constructor(
    readonly pattern: string,
    readonly position: number,
    readonly reason: string,
    readonly kind: "invalid" | "unsupported",
  ) {
    super(
      kind === "invalid"
        ? `${reason} at position ${position} of Python regex ${quotePattern(pattern)}`
        : `Python regex ${quotePattern(pattern)} cannot be translated faithfully to JavaScript: ${reason} (position ${position})`,
    );
  }
}

export interface PythonRegexOptions {
  /** Compile with `re.IGNORECASE` (a regex trait with `case_sensitive: false`). */
  ignoreCase?: boolean;
}

/** A JavaScript regex equivalent to a Python pattern: `new RegExp(source, flags)`. */
export interface TranslatedRegex {
  source: string;
  flags: string;
}

/**
 * Translates a Python `re` pattern (str pattern, Python 3.11+ rules) into a JavaScript regex with the same
 * meaning for `re.search`.
 *
 * The output always uses the `u` flag: every atom is re-emitted in a form that is valid under `u`, so Python
 * escapes such as `\-` or a lone `{` keep their Python meaning, while `u` gives code-point matching, Unicode
 * case folding and `\p{…}`, which Python's Unicode-aware `\d`, `\w`, `\s` and `\b` need. The JS `m` and `s`
 * flags are never used: Python's `^`, `$` and `.` only know `\n` as a line break (JS also breaks on `\r`,
 * U+2028 and U+2029), so they are emitted as lookarounds and classes instead.
 *
 * The translated pattern is compiled once in the regex worker (see {@link runRegex}), never on the calling
 * thread: V8 spends ~0.2 ms parsing each Unicode class such as Python's `\w`, so a large hostile pattern would
 * block the host for seconds; the worker gives up at the regex deadline. Results are cached per pattern.
 *
 * @throws PythonRegexError when the pattern is invalid Python, or uses something JS cannot do faithfully
 *   (verbose `(?x)`, scoped flags `(?i:…)`, conditionals `(?(1)…)`, atomic groups, possessive quantifiers,
 *   `\N{…}`, ASCII-only case folding), or does not compile within the regex deadline.
 * @example
 * const { source, flags } = translatePythonRegex("(?i)(?P<gene>bcl-?2)$");
 * source; // String.raw`(?<gene>bcl-?2)(?=\n?(?![\s\S]))`
 * flags; // "iu"
 * new RegExp(source, flags).test("mentions BCL2\n"); // true, as re.search does
 */
export function translatePythonRegex(pattern: string, options: PythonRegexOptions = {}): TranslatedRegex {
  const key = `${options.ignoreCase ? "i" : ""}\u0000${pattern}`;
  let outcome = translations.get(key);
  if (outcome === undefined) {
    try {
      outcome = translateAndCompile(pattern, options);
    } catch (error) {
      if (!(error instanceof PythonRegexError)) throw error;
      outcome = error;
    }
    if (translations.size >= TRANSLATION_CACHE_LIMIT) translations.clear();
    translations.set(key, outcome);
  }
  if (outcome instanceof PythonRegexError) throw outcome;
  return { ...outcome };
}

const TRANSLATION_CACHE_LIMIT = 512;
/** Pattern (with the ignore-case option) → translation or refusal, so a pattern is compiled once per process. */
const translations = new Map<string, TranslatedRegex | PythonRegexError>();

function translateAndCompile(pattern: string, options: PythonRegexOptions): TranslatedRegex {
  const state = newState(pattern);
  readGlobalFlags(state);
  if (state.flags.ascii && (state.flags.ignoreCase || options.ignoreCase)) {
    state.fail("ASCII-only case-insensitive matching ((?a) with IGNORECASE) has no JavaScript equivalent", 0);
  }
  const body = parseWithinStack(state);
  if (state.pos < state.chars.length) state.fail("unbalanced parenthesis", state.pos, "invalid");
  const flags = state.flags.ignoreCase || options.ignoreCase ? "iu" : "u";
  checkCompiles(state, { source: body.source, flags });
  return { source: body.source, flags };
}

/**
 * Translated patterns up to this length compile on the calling thread: a few Unicode classes at most, a few ms
 * at worst. Longer ones compile in the worker, under the deadline (starting it costs ~20 ms, once).
 */
const IN_THREAD_COMPILE_CHARS = 256;

function checkCompiles(state: State, translated: TranslatedRegex): void {
  if (translated.source.length <= IN_THREAD_COMPILE_CHARS) {
    try {
      new RegExp(translated.source, translated.flags);
      return;
    } catch (error) {
      state.fail(`the translated pattern does not compile (${(error as Error).message})`, 0);
    }
  }
  try {
    runRegex("compile", translated, "", { subject: `Python regex ${quotePattern(state.pattern)}` });
  } catch (error) {
    if (error instanceof RegexTimeoutError) {
      state.fail(`the translated pattern did not compile within ${error.timeoutMs} ms (it is too large)`, 0);
    }
    if (error instanceof RegexEngineError && error.engineMessage !== null) {
      state.fail(`the translated pattern does not compile (${error.engineMessage})`, 0);
    }
    throw error;
  }
}

/**
 * The parser recurses once per nested group; a hostile pattern nested thousands deep would overflow the
 * stack with a bare RangeError (Python's own parser gives up on such depths too).
 */
function parseWithinStack(state: State): { source: string; width: Width } {
  try {
    return parseAlternation(state);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return state.fail("the pattern nests groups too deeply (or is too large) to translate", state.pos);
  }
}

/**
 * {@link translatePythonRegex}, compiled on the calling thread. For trusted patterns only (tests, tools): an
 * untrusted pattern may take seconds to compile and hours to run here; use {@link pythonSearch},
 * {@link pythonFindall} or {@link runRegex}, which run it in the regex worker and stop it at a deadline.
 */
export function compilePythonRegex(pattern: string, options: PythonRegexOptions = {}): RegExp {
  const { source, flags } = translatePythonRegex(pattern, options);
  return new RegExp(source, flags);
}

type Width = readonly [min: number, max: number];

interface Flags {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
  ascii: boolean;
  unicode: boolean;
}

interface State {
  readonly pattern: string;
  /** The pattern as code points, as Python indexes it. */
  readonly chars: readonly string[];
  pos: number;
  readonly flags: Flags;
  /** Number of capturing groups opened so far. */
  groupCount: number;
  readonly openGroups: Set<number>;
  readonly groupNames: Map<string, number>;
  readonly groupWidths: Map<number, Width>;
  /** The first group number defined inside the innermost enclosing lookbehind, or null outside one. */
  lookbehindFirstGroup: number | null;
  fail(reason: string, position: number, kind?: "invalid" | "unsupported"): never;
}

/** One translated piece of pattern: JS source, Python width, and what a following quantifier may do with it. */
interface Piece {
  source: string;
  width: Width;
  kind: "atom" | "anchor" | "lookaround";
}

function newState(pattern: string): State {
  return {
    pattern,
    chars: Array.from(pattern),
    pos: 0,
    flags: { ignoreCase: false, multiline: false, dotAll: false, ascii: false, unicode: false },
    groupCount: 0,
    openGroups: new Set(),
    groupNames: new Map(),
    groupWidths: new Map(),
    lookbehindFirstGroup: null,
    fail(reason, position, kind = "unsupported") {
      throw new PythonRegexError(pattern, position, reason, kind);
    },
  };
}

const peek = (state: State, offset = 0): string | undefined => state.chars[state.pos + offset];

function lookingAt(state: State, text: string): boolean {
  return Array.from(text).every((char, i) => peek(state, i) === char);
}

const FLAG_LETTERS = "aiLmsux";

/** Reads the global flag groups `(?imsx…)` and comments `(?#…)` that Python allows at the very start. */
function readGlobalFlags(state: State): void {
  for (;;) {
    if (lookingAt(state, "(?#")) {
      skipComment(state);
      continue;
    }
    if (!lookingAt(state, "(?")) return;
    let end = state.pos + 2;
    while (state.chars[end] !== undefined && FLAG_LETTERS.includes(state.chars[end] as string)) end++;
    if (end === state.pos + 2 || state.chars[end] !== ")") return;
    const letters = state.chars.slice(state.pos + 2, end);
    for (const letter of letters) applyFlag(state, letter, state.pos);
    state.pos = end + 1;
  }
}

function applyFlag(state: State, letter: string, position: number): void {
  if (letter === "x") {
    state.fail("verbose mode (?x) is not supported; remove the flag and the whitespace/comments", position);
  }
  if (letter === "L")
    state.fail("bad inline flag: cannot use 'L' flag with a str pattern", position, "invalid");
  if (letter === "i") state.flags.ignoreCase = true;
  if (letter === "m") state.flags.multiline = true;
  if (letter === "s") state.flags.dotAll = true;
  if (letter === "a") state.flags.ascii = true;
  if (letter === "u") state.flags.unicode = true;
  if (state.flags.ascii && state.flags.unicode) {
    state.fail("bad inline flags: flags 'a', 'u' and 'L' are incompatible", position, "invalid");
  }
}

function skipComment(state: State): void {
  const start = state.pos;
  state.pos += 3;
  while (peek(state) !== undefined && peek(state) !== ")") state.pos++;
  if (peek(state) === undefined) state.fail("missing ), unterminated comment", start, "invalid");
  state.pos++;
}

function parseAlternation(state: State): { source: string; width: Width } {
  const branches = [parseSequence(state)];
  while (peek(state) === "|") {
    state.pos++;
    branches.push(parseSequence(state));
  }
  return {
    source: branches.map((branch) => branch.source).join("|"),
    // A loop, not Math.min(...widths): a spread of 100k alternatives overflows the call stack.
    width: branches.reduce<Width>(
      ([min, max], { width }) => [Math.min(min, width[0]), Math.max(max, width[1])],
      [Number.POSITIVE_INFINITY, 0],
    ),
  };
}

function parseSequence(state: State): { source: string; width: Width } {
  // Pieces joined once at the end: re-slicing a growing string for each quantifier is quadratic.
  const sources: string[] = [];
  let min = 0;
  let max = 0;
  let last: Piece | null = null;
  let lastWasQuantifier = false;
  for (;;) {
    const char = peek(state);
    if (char === undefined || char === "|" || char === ")") break;
    const quantifier = readQuantifier(state);
    if (quantifier !== null) {
      if (lastWasQuantifier) state.fail("multiple repeat", quantifier.position, "invalid");
      if (last === null || last.kind === "anchor")
        state.fail("nothing to repeat", quantifier.position, "invalid");
      const repeated = quantify(last, quantifier);
      sources[sources.length - 1] = repeated.source;
      min += repeated.width[0] - last.width[0];
      max += repeated.width[1] - last.width[1];
      last = repeated;
      lastWasQuantifier = true;
      continue;
    }
    if (lookingAt(state, "(?#")) {
      skipComment(state);
      continue;
    }
    const piece = parseAtom(state);
    sources.push(piece.source);
    min += piece.width[0];
    max += piece.width[1];
    last = piece;
    lastWasQuantifier = false;
  }
  return { source: sources.join(""), width: [min, max] };
}

interface Quantifier {
  position: number;
  min: number;
  max: number;
  lazy: boolean;
}

const MAX_REPEAT = 4294967295;

/** Reads `*`, `+`, `?` or `{m,n}` (and a lazy `?`) at the current position, or returns null for a literal. */
function readQuantifier(state: State): Quantifier | null {
  const position = state.pos;
  const char = peek(state);
  let min: number;
  let max: number;
  if (char === "*" || char === "+" || char === "?") {
    state.pos++;
    [min, max] = char === "*" ? [0, Infinity] : char === "+" ? [1, Infinity] : [0, 1];
  } else if (char === "{") {
    const braces = readBraces(state);
    if (braces === null) return null;
    [min, max] = braces;
  } else {
    return null;
  }
  if (peek(state) === "+") state.fail("possessive quantifiers have no JavaScript equivalent", state.pos);
  const lazy = peek(state) === "?";
  if (lazy) state.pos++;
  return { position, min, max, lazy };
}

/** Python's `{m}`, `{m,}`, `{,n}`, `{m,n}`; anything else starting with `{` is a literal brace. */
function readBraces(state: State): Width | null {
  const start = state.pos;
  let end = start + 1;
  const digits = () => {
    let text = "";
    while (/^[0-9]$/.test(state.chars[end] ?? "")) text += state.chars[end++];
    return text;
  };
  if (state.chars[end] === "}") return null;
  const low = digits();
  let high = low;
  if (state.chars[end] === ",") {
    end++;
    high = digits();
  }
  if (state.chars[end] !== "}") return null;
  state.pos = end + 1;
  const min = low === "" ? 0 : Number(low);
  const max = high === "" ? Infinity : Number(high);
  if (min >= MAX_REPEAT || (max !== Infinity && max >= MAX_REPEAT)) {
    state.fail("the repetition number is too large", start, "invalid");
  }
  if (max < min) state.fail("min repeat greater than max repeat", start, "invalid");
  return [min, max];
}

function quantify(piece: Piece, quantifier: Quantifier): Piece {
  const { min, max, lazy } = quantifier;
  let suffix: string;
  if (min === 0 && max === Infinity) suffix = "*";
  else if (min === 1 && max === Infinity) suffix = "+";
  else if (min === 0 && max === 1) suffix = "?";
  else if (min === max) suffix = `{${min}}`;
  else suffix = `{${min},${max === Infinity ? "" : max}}`;
  // JS refuses to quantify a bare lookaround under `u`; Python allows it, and a group around it means the same.
  const atom = piece.kind === "lookaround" ? `(?:${piece.source})` : piece.source;
  return {
    source: `${atom}${suffix}${lazy ? "?" : ""}`,
    // Python counts a repeated empty match as width 0, even unbounded (0 × ∞ would be NaN here).
    width: [piece.width[0] * min, piece.width[1] === 0 ? 0 : piece.width[1] * max],
    kind: "atom",
  };
}

function parseAtom(state: State): Piece {
  const position = state.pos;
  const char = state.chars[state.pos++] as string;
  switch (char) {
    case "(":
      return parseGroup(state, position);
    case "[":
      return atom(parseClass(state, position));
    case ".":
      return atom(state.flags.dotAll ? "[\\s\\S]" : "[^\\n]");
    case "^":
      return anchor(state.flags.multiline ? "(?<![^\\n])" : "^");
    case "$":
      return anchor(state.flags.multiline ? "(?![^\\n])" : "(?=\\n?(?![\\s\\S]))");
    case "\\":
      return parseEscape(state, position);
    default:
      return atom(literal(char.codePointAt(0) as number));
  }
}

const atom = (source: string, width: Width = [1, 1]): Piece => ({ source, width, kind: "atom" });
const anchor = (source: string): Piece => ({ source, width: [0, 0], kind: "anchor" });

function parseGroup(state: State, position: number): Piece {
  if (peek(state) !== "?") return parseCapturingGroup(state, position, null);
  state.pos++;
  const next = state.chars[state.pos++];
  switch (next) {
    case ":":
      return parseGroupBody(state, position, "(?:", null);
    case "P":
      return parseNamedConstruct(state, position);
    case "=":
    case "!":
      return { ...parseGroupBody(state, position, `(?${next}`, [0, 0]), kind: "lookaround" };
    case "<":
      return parseLookbehind(state, position);
    case "(":
      return state.fail("conditional groups (?(id)yes|no) have no JavaScript equivalent", position);
    case ">":
      return state.fail("atomic groups (?>…) have no JavaScript equivalent", position);
    case undefined:
      return state.fail("unexpected end of pattern", state.pos, "invalid");
    default:
      return parseInlineFlags(state, position, next);
  }
}

/** `(?…` followed by flag letters: a scoped group `(?i:…)` or a global flag group outside the start. */
function parseInlineFlags(state: State, position: number, first: string): never {
  if (!FLAG_LETTERS.includes(first) && first !== "-") {
    state.fail(`unknown extension ?${first}`, position, "invalid");
  }
  let removes = first === "-";
  for (let char = peek(state); char !== undefined && (FLAG_LETTERS.includes(char) || char === "-"); ) {
    removes ||= char === "-";
    state.pos++;
    char = peek(state);
  }
  if (peek(state) === ")" && !removes) {
    state.fail("global flags not at the start of the expression", position, "invalid");
  }
  if (peek(state) !== ":") state.fail("missing :", state.pos, "invalid");
  return state.fail("scoped inline flags (?flags:…) are not supported", position);
}

function parseNamedConstruct(state: State, position: number): Piece {
  const kind = state.chars[state.pos++];
  if (kind === "<") {
    const name = readGroupName(state, ">", position);
    return parseCapturingGroup(state, position, name);
  }
  if (kind === "=") {
    const name = readGroupName(state, ")", position);
    const group = state.groupNames.get(name);
    if (group === undefined) state.fail(`unknown group name '${name}'`, position, "invalid");
    return backReference(state, group, `\\k<${name}>`, position);
  }
  return state.fail(`unknown extension ?P${kind ?? ""}`, position, "invalid");
}

function readGroupName(state: State, terminator: string, position: number): string {
  let name = "";
  while (peek(state) !== undefined && peek(state) !== terminator) name += state.chars[state.pos++];
  if (peek(state) === undefined) state.fail(`missing ${terminator}, unterminated name`, position, "invalid");
  state.pos++;
  if (name === "") state.fail("missing group name", position, "invalid");
  if (!/^[\p{ID_Start}_][\p{ID_Continue}]*$/u.test(name)) {
    state.fail(`bad character in group name '${name}'`, position, "invalid");
  }
  return name;
}

function parseCapturingGroup(state: State, position: number, name: string | null): Piece {
  const group = ++state.groupCount;
  if (name !== null) {
    const previous = state.groupNames.get(name);
    if (previous !== undefined) {
      state.fail(
        `redefinition of group name '${name}' as group ${group}; was group ${previous}`,
        position,
        "invalid",
      );
    }
    state.groupNames.set(name, group);
  }
  state.openGroups.add(group);
  const piece = parseGroupBody(state, position, name === null ? "(" : `(?<${name}>`, null);
  state.openGroups.delete(group);
  state.groupWidths.set(group, piece.width);
  return piece;
}

/** Parses up to the closing parenthesis; `fixedWidth` overrides the group's width (lookarounds are empty). */
function parseGroupBody(state: State, position: number, open: string, fixedWidth: Width | null): Piece {
  const inner = parseAlternation(state);
  if (peek(state) !== ")") state.fail("missing ), unterminated subpattern", position, "invalid");
  state.pos++;
  return { source: `${open}${inner.source})`, width: fixedWidth ?? inner.width, kind: "atom" };
}

function parseLookbehind(state: State, position: number): Piece {
  const direction = state.chars[state.pos++];
  if (direction !== "=" && direction !== "!") {
    state.fail(`unknown extension ?<${direction ?? ""}`, position, "invalid");
  }
  const outer = state.lookbehindFirstGroup;
  if (outer === null) state.lookbehindFirstGroup = state.groupCount + 1;
  const inner = parseAlternation(state);
  state.lookbehindFirstGroup = outer;
  if (peek(state) !== ")") state.fail("missing ), unterminated subpattern", position, "invalid");
  state.pos++;
  if (inner.width[0] !== inner.width[1]) {
    state.fail("look-behind requires fixed-width pattern", position, "invalid");
  }
  return { source: `(?<${direction}${inner.source})`, width: [0, 0], kind: "lookaround" };
}

function backReference(state: State, group: number, source: string, position: number): Piece {
  if (state.openGroups.has(group)) state.fail("cannot refer to an open group", position, "invalid");
  if (state.lookbehindFirstGroup !== null && group >= state.lookbehindFirstGroup) {
    state.fail("cannot refer to group defined in the same lookbehind subpattern", position, "invalid");
  }
  // The group keeps a following digit from being read as part of the group number.
  return atom(`(?:${source})`, state.groupWidths.get(group) ?? [0, Infinity]);
}

const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";
const isOctal = (char: string | undefined) => char !== undefined && char >= "0" && char <= "7";
const isAsciiLetter = (char: string) => /^[A-Za-z]$/.test(char);

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11, "\\": 92 };

/** An escape outside a character class: `\` has been consumed. */
function parseEscape(state: State, position: number): Piece {
  const char = state.chars[state.pos++];
  if (char === undefined) return state.fail("bad escape (end of pattern)", position, "invalid");
  switch (char) {
    case "A":
      return anchor("^");
    case "Z":
      return anchor("(?![\\s\\S])");
    case "b":
      return anchor(wordBoundary(state, true));
    case "B":
      return anchor(wordBoundary(state, false));
    case "d":
    case "D":
    case "s":
    case "S":
    case "w":
    case "W":
      return atom(standaloneCategory(state, char));
  }
  if (char === "0") return atom(literal(readOctal(state, "0", 2, position)));
  if (isDigit(char)) return parseNumericEscape(state, char, position);
  const code = SIMPLE_ESCAPES[char] ?? readCodeEscape(state, char, position);
  return atom(literal(code));
}

/** `\1`…`\99` is a group reference, except three octal digits (`\123`), which are an octal escape. */
function parseNumericEscape(state: State, first: string, position: number): Piece {
  let digits = first;
  if (isDigit(peek(state))) {
    digits += state.chars[state.pos++];
    if (isOctal(digits[0]) && isOctal(digits[1]) && isOctal(peek(state))) {
      return atom(literal(readOctal(state, digits, 1, position)));
    }
  }
  const group = Number(digits);
  if (group > state.groupCount) state.fail(`invalid group reference ${group}`, position + 1, "invalid");
  return backReference(state, group, `\\${group}`, position);
}

/** Reads up to `more` further octal digits after `digits` (already consumed) and returns the code point. */
function readOctal(state: State, digits: string, more: number, position: number): number {
  let text = digits;
  for (let i = 0; i < more && isOctal(peek(state)); i++) text += state.chars[state.pos++];
  const value = Number.parseInt(text, 8);
  if (value > 0o377) state.fail(`octal escape value \\${text} outside of range 0-0o377`, position, "invalid");
  return value;
}

/** `\xhh`, `\uhhhh`, `\Uhhhhhhhh`, `\N{…}`, or an identity escape of a non-letter. */
function readCodeEscape(state: State, char: string, position: number): number {
  const hexLength = char === "x" ? 2 : char === "u" ? 4 : char === "U" ? 8 : 0;
  if (hexLength > 0) {
    const hex = state.chars.slice(state.pos, state.pos + hexLength).join("");
    if (!new RegExp(`^[0-9A-Fa-f]{${hexLength}}$`).test(hex)) {
      state.fail(`incomplete escape \\${char}${hex.replace(/[^0-9A-Fa-f].*$/, "")}`, position, "invalid");
    }
    state.pos += hexLength;
    const value = Number.parseInt(hex, 16);
    if (value > 0x10ffff) state.fail(`bad escape \\${char}${hex}`, position, "invalid");
    return value;
  }
  if (char === "N") return state.fail("named Unicode escapes \\N{…} are not supported", position);
  if (isAsciiLetter(char) || isDigit(char)) state.fail(`bad escape \\${char}`, position, "invalid");
  return char.codePointAt(0) as number;
}

/** Python's `\s` for str patterns: `str.isspace()`. JS `\s` differs (it has U+FEFF, lacks U+001C–U+001F, U+0085). */
const UNICODE_SPACE: readonly Width[] = [
  [0x09, 0x0d],
  [0x1c, 0x20],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
const ASCII_SPACE: readonly Width[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
];
const ASCII_DIGIT: readonly Width[] = [[0x30, 0x39]];
const ASCII_WORD: readonly Width[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const UNICODE_WORD = "\\p{L}\\p{N}_";

function complement(ranges: readonly Width[]): Width[] {
  const result: Width[] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= 0x10ffff) result.push([next, 0x10ffff]);
  return result;
}

const renderRanges = (ranges: readonly Width[]) =>
  ranges
    .map(([low, high]) => (low === high ? codePoint(low) : `${codePoint(low)}-${codePoint(high)}`))
    .join("");

/**
 * The members of a category escape as JS class contents, or `null` for Unicode `\W`, which a JS class
 * without the `v` flag cannot express (it is the complement of a union of properties).
 */
function categoryClassContents(state: State, letter: string): string | null {
  const ascii = state.flags.ascii;
  switch (letter) {
    case "d":
      return ascii ? renderRanges(ASCII_DIGIT) : "\\p{Nd}";
    case "D":
      return ascii ? renderRanges(complement(ASCII_DIGIT)) : "\\P{Nd}";
    case "s":
      return renderRanges(ascii ? ASCII_SPACE : UNICODE_SPACE);
    case "S":
      return renderRanges(complement(ascii ? ASCII_SPACE : UNICODE_SPACE));
    case "w":
      return ascii ? renderRanges(ASCII_WORD) : UNICODE_WORD;
    default:
      return ascii ? renderRanges(complement(ASCII_WORD)) : null;
  }
}

function standaloneCategory(state: State, letter: string): string {
  if (!state.flags.ascii && (letter === "d" || letter === "D")) return letter === "d" ? "\\p{Nd}" : "\\P{Nd}";
  const contents = categoryClassContents(state, letter);
  return contents === null ? `[^${UNICODE_WORD}]` : `[${contents}]`;
}

function wordBoundary(state: State, boundary: boolean): string {
  const word = `[${state.flags.ascii ? renderRanges(ASCII_WORD) : UNICODE_WORD}]`;
  return boundary
    ? `(?:(?<=${word})(?!${word})|(?<!${word})(?=${word}))`
    : // Python before 3.14: \B never matches inside an empty string.
      `(?:(?<=${word})(?=${word})|(?<!${word})(?!${word})(?:(?<=[\\s\\S])|(?=[\\s\\S])))`;
}

/** One member of a Python character class: a code point or a category escape. */
type ClassMember = { codePoint: number } | { category: string };

/** A Python character class; `[` has been consumed. */
function parseClass(state: State, position: number): string {
  const negated = peek(state) === "^";
  if (negated) state.pos++;
  const parts: string[] = [];
  let nonWord = false;
  let empty = true;
  for (;;) {
    const char = state.chars[state.pos++];
    if (char === undefined) state.fail("unterminated character set", position, "invalid");
    if (char === "]" && !empty) break;
    empty = false;
    const first = classMember(state, char);
    if (peek(state) === "-" && peek(state, 1) !== "]" && peek(state, 1) !== undefined) {
      state.pos++;
      const second = classMember(state, state.chars[state.pos++] as string);
      if (!("codePoint" in first) || !("codePoint" in second) || second.codePoint < first.codePoint) {
        state.fail("bad character range", position, "invalid");
      }
      parts.push(`${classLiteral(first.codePoint)}-${classLiteral(second.codePoint)}`);
      continue;
    }
    if ("codePoint" in first) {
      parts.push(classLiteral(first.codePoint));
      continue;
    }
    const contents = categoryClassContents(state, first.category);
    if (contents === null) nonWord = true;
    else parts.push(contents);
  }
  return renderClass(parts.join(""), negated, nonWord);
}

/**
 * A class holding Unicode `\W` is rewritten with the other members: `[x\W]` = `(?:[x]|[^\w])` and
 * `[^x\W]` = `(?:(?![x])[\w])`, which match exactly one character just as the class does.
 */
function renderClass(contents: string, negated: boolean, nonWord: boolean): string {
  if (!nonWord) return `[${negated ? "^" : ""}${contents}]`;
  const word = `[${UNICODE_WORD}]`;
  const notWord = `[^${UNICODE_WORD}]`;
  if (contents === "") return negated ? word : notWord;
  return negated ? `(?:(?![${contents}])${word})` : `(?:[${contents}]|${notWord})`;
}

function classMember(state: State, char: string): ClassMember {
  if (char !== "\\") return { codePoint: char.codePointAt(0) as number };
  const position = state.pos - 1;
  const escaped = state.chars[state.pos++];
  if (escaped === undefined) return state.fail("unterminated character set", position, "invalid");
  if ("dDsSwW".includes(escaped)) return { category: escaped };
  if (escaped === "b") return { codePoint: 8 };
  if (isOctal(escaped)) return { codePoint: readOctal(state, escaped, 2, position) };
  if (isDigit(escaped)) return state.fail(`bad escape \\${escaped}`, position, "invalid");
  return { codePoint: SIMPLE_ESCAPES[escaped] ?? readCodeEscape(state, escaped, position) };
}

const SYNTAX_CHARACTERS = new Set("^$\\.*+?()[]{}|/");
const CLASS_SPECIAL = new Set("\\]^-[");

function codePoint(value: number): string {
  return `\\u{${value.toString(16)}}`;
}

const needsCodeEscape = (value: number) =>
  value < 0x20 || value === 0x7f || (value >= 0x80 && value <= 0x9f) || (value >= 0xd800 && value <= 0xdfff);

function literal(value: number): string {
  if (needsCodeEscape(value) || value === 0x2028 || value === 0x2029) return codePoint(value);
  const char = String.fromCodePoint(value);
  return SYNTAX_CHARACTERS.has(char) ? `\\${char}` : char;
}

function classLiteral(value: number): string {
  if (needsCodeEscape(value) || value === 0x2028 || value === 0x2029) return codePoint(value);
  const char = String.fromCodePoint(value);
  return CLASS_SPECIAL.has(char) ? `\\${char}` : char;
}
