import type { Tiktoken } from "js-tiktoken/lite";
import { type Message, messageText } from "../../llm/index.js";

/** The tokenizer the estimate counts with (OpenAI's GPT-4o / GPT-4.1 family). */
export const DRY_RUN_TOKENIZER = "o200k_base";

/** Chat-format overhead of OpenAI's models: tokens around each message, and the reply primer of a call. */
export const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_CALL = 3;

/**
 * Stand-ins for text the run only knows after a call (an answer, excerpts, reasoning): each marker is left out
 * of the text and counted as the given number of tokens wherever it occurs.
 */
export type Placeholders = Readonly<Record<string, number>>;

/** Counts tokens of prompt messages and plain texts. */
export interface TokenCounter {
  /** The input tokens of one chat call: message texts, placeholders and the chat-format overhead. */
  messages(messages: readonly Message[], placeholders?: Placeholders): number;
  /** The tokens of a plain text (an embedding input). */
  text(text: string, placeholders?: Placeholders): number;
}

let encoder: Promise<Tiktoken> | undefined;

/** Loads o200k_base once; the lite build with one rank file keeps the other encodings out of memory. */
function loadEncoder(): Promise<Tiktoken> {
  encoder ??= Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]).then(
    ([{ Tiktoken }, ranks]) => new Tiktoken(ranks.default),
  );
  return encoder;
}

/** Text with its placeholder markers removed, and the tokens the markers stand for. */
function withoutPlaceholders(text: string, placeholders: Placeholders): { text: string; tokens: number } {
  let rest = text;
  let tokens = 0;
  for (const [marker, size] of Object.entries(placeholders)) {
    const parts = rest.split(marker);
    tokens += (parts.length - 1) * size;
    rest = parts.join("");
  }
  return { text: rest, tokens };
}

/**
 * Where a text can be cut without changing its token count: after a blank line, before text that does not
 * start with whitespace or `/`. o200k_base's pre-tokenizer always ends a token at such a point (a run of newlines
 * is never joined to the text after it), so the pieces' counts add up to the whole text's.
 */
const PARAGRAPH_BREAK = /(?<=\n\n)(?=[^\s/])/;

/** Paragraph counts kept between prompts: system texts, schemas and notes repeat across every task. */
const MAX_MEMO = 100_000;

/** The o200k_base token counter (loaded on first use: the rank file takes a moment to read). */
export async function loadTokenCounter(): Promise<TokenCounter> {
  const tiktoken = await loadEncoder();
  const memo = new Map<string, number>();
  // Special-token strings in a prompt are ordinary text to a provider: never refuse or collapse them.
  const encoded = (piece: string) => tiktoken.encode(piece, [], []).length;
  const paragraph = (piece: string) => {
    let tokens = memo.get(piece);
    if (tokens === undefined) {
      tokens = encoded(piece);
      if (memo.size >= MAX_MEMO) memo.clear();
      memo.set(piece, tokens);
    }
    return tokens;
  };
  const count = (value: string) =>
    value.split(PARAGRAPH_BREAK).reduce((sum, piece) => sum + paragraph(piece), 0);
  const text = (value: string, placeholders: Placeholders = {}) => {
    const stripped = withoutPlaceholders(value, placeholders);
    return (stripped.text === "" ? 0 : count(stripped.text)) + stripped.tokens;
  };
  return {
    text,
    messages: (messages, placeholders = {}) =>
      messages.reduce(
        (sum, message) => sum + TOKENS_PER_MESSAGE + text(messageText(message), placeholders),
        TOKENS_PER_CALL,
      ),
  };
}
