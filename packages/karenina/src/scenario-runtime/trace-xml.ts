/**
 * The transcript of a handover rewritten as XML turns for an agent reading a trace file (spec 08 §4.10.4).
 * The file is only read by agents, so its quirks are the original's (Q39: split at the first separator, tag-like
 * lines inside messages re-parsed; Q42: a tool result is named after the turn's last tool call).
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { TRANSCRIPT_SEPARATOR, USER_AGENT_ID } from "../scenario/index.js";

/** Blocks longer than this many characters are offloaded to artifact files (env override, spec 08 §2.1). */
export const DEFAULT_TRACE_OFFLOAD_THRESHOLD = 2000;

/** One labelled line of a transcript, with the continuation lines that follow it. */
export interface TranscriptEntry {
  role: "system" | "user" | "assistant" | "tool";
  /** `null` for `[__user__]` entries. */
  agent_id: string | null;
  content_type: "text" | "tool_use" | "tool_result";
  content: string;
}

/** A user entry with the system prompt before it and the agent's blocks after it. */
export interface TranscriptTurn {
  system_prompt: string | null;
  system_agent: string | null;
  /** `null` for a turn made of a system prompt alone, or of blocks when the transcript has no user entry. */
  user_content: string | null;
  /** The agent of the first block that names one. */
  agent_id: string | null;
  blocks: TranscriptEntry[];
}

// `s`: Python's `.` matches every character but "\n", and lines hold no "\n".
const TAG_LINE = /^\[(__user__|.+?:(?:system|user|assistant|tool):(?:text|tool_use|tool_result))\] ?(.*)/s;

/**
 * Splits a transcript (spec 08 §4.10.1) into entries: a line starting with a tag opens one, any other line is
 * appended to the open entry with `"\n"` (lines before the first tag are dropped).
 */
export function parseTranscriptEntries(transcript: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  let current: TranscriptEntry | null = null;
  for (const line of transcript.split("\n")) {
    const match = TAG_LINE.exec(line);
    if (match === null) {
      if (current !== null) current.content += `\n${line}`;
      continue;
    }
    if (current !== null) entries.push(current);
    const tag = match[1] ?? "";
    const content = match[2] ?? "";
    if (tag === USER_AGENT_ID) {
      current = { role: "user", agent_id: null, content_type: "text", content };
    } else {
      const parts = tag.split(":");
      const contentType = parts.pop() as TranscriptEntry["content_type"];
      const role = parts.pop() as TranscriptEntry["role"];
      current = { role, agent_id: parts.join(":"), content_type: contentType, content };
    }
  }
  if (current !== null) entries.push(current);
  return entries;
}

/**
 * Groups entries into turns: a system entry becomes the pending system prompt of the next turn, a user entry
 * opens a turn, anything else is a block of the open turn (blocks before the first user entry are dropped, as
 * the original drops them). Without any user entry, one turn holds every non-system entry; a system entry
 * with no user entry after it gets a turn of its own.
 */
export function groupEntriesIntoTurns(entries: readonly TranscriptEntry[]): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  let current: TranscriptTurn | null = null;
  let pendingSystem: string | null = null;
  let pendingSystemAgent: string | null = null;
  const openTurn = (userContent: string | null): TranscriptTurn => {
    const turn: TranscriptTurn = {
      system_prompt: pendingSystem,
      system_agent: pendingSystemAgent,
      user_content: userContent,
      agent_id: null,
      blocks: [],
    };
    pendingSystem = null;
    pendingSystemAgent = null;
    return turn;
  };
  const addBlock = (turn: TranscriptTurn, entry: TranscriptEntry): void => {
    if (turn.agent_id === null && entry.agent_id) turn.agent_id = entry.agent_id;
    turn.blocks.push(entry);
  };

  if (!entries.some((entry) => entry.role === "user")) {
    const others = entries.filter((entry) => entry.role !== "system");
    if (others.length > 0) {
      const synthetic: TranscriptTurn = {
        system_prompt: null,
        system_agent: null,
        user_content: null,
        agent_id: null,
        blocks: [],
      };
      for (const entry of others) addBlock(synthetic, entry);
      turns.push(synthetic);
    }
  }
  for (const entry of entries) {
    if (entry.role === "system") {
      pendingSystem = entry.content;
      pendingSystemAgent = entry.agent_id;
    } else if (entry.role === "user") {
      if (current !== null) turns.push(current);
      current = openTurn(entry.content);
    } else if (current !== null) {
      addBlock(current, entry);
    }
  }
  if (current !== null) turns.push(current);
  if (pendingSystem !== null) turns.push(openTurn(null));
  return turns;
}

// Python's str.strip() whitespace (str.isspace), which differs from String.prototype.trim at the edges.
const PY_SPACE =
  "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g");

/** Python `str.strip()`. */
function pyStrip(text: string): string {
  return text.replace(PY_STRIP, "");
}

/** Characters as Python counts them (code points). */
function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** `1234567` → `"1,234,567"` (Python `f"{n:,}"`). */
function withThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Writes `text` to `path` through a temporary file and a rename, so a reader never sees half a file. */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, text, { encoding: "utf8", flag: "wx" });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

type BlockKind = "text" | "tool_call" | "tool_result";

/** Numbers offloaded artifacts over one document and writes them. */
class Offloader {
  private counter = 0;

  constructor(
    private readonly artifactsDir: string | null,
    private readonly threshold: number,
  ) {}

  /** The body to show, and whether it is a reference to an artifact file. */
  async body(content: string, kind: BlockKind): Promise<{ text: string; offloaded: boolean }> {
    const length = charCount(content);
    if (this.artifactsDir === null || length <= this.threshold) return { text: content, offloaded: false };
    this.counter++;
    await mkdir(this.artifactsDir, { recursive: true });
    const path = join(this.artifactsDir, `${kind}_${String(this.counter).padStart(3, "0")}.txt`);
    await writeTextAtomic(path, content);
    return { text: `[Content offloaded: ${withThousands(length)} chars]\nFile: ${path}`, offloaded: true };
  }
}

/** `name(args)` of a tool-use line; name `unknown` and the whole text when it is not of that form. */
function splitToolCall(payload: string): { name: string; args: string } {
  const open = payload.indexOf("(");
  if (open > 0 && payload.endsWith(")"))
    return { name: payload.slice(0, open), args: payload.slice(open + 1, -1) };
  return { name: "unknown", args: payload };
}

/**
 * Renders turns as `<turn>` elements (spec 08 §4.10.4). With an `artifactsDir`, a text, tool-call or
 * tool-result body longer than `threshold` characters is written to `<kind>_<NNN>.txt` there and replaced by
 * a reference; `null` keeps every body inline.
 */
export async function formatTurnsAsXml(
  turns: readonly TranscriptTurn[],
  artifactsDir: string | null,
  threshold: number = DEFAULT_TRACE_OFFLOAD_THRESHOLD,
): Promise<string> {
  const offloader = new Offloader(artifactsDir, threshold);
  const lines: string[] = [];
  const emitBlock = async (tag: BlockKind, attributes: string, content: string): Promise<void> => {
    const { text, offloaded } = await offloader.body(pyStrip(content), tag);
    lines.push(`    <${tag}${attributes}${offloaded ? ' offloaded="true"' : ""}>`);
    for (const line of text.split("\n")) lines.push(`      ${line}`);
    lines.push(`    </${tag}>`);
  };

  for (const [index, turn] of turns.entries()) {
    lines.push(`<turn number="${index + 1}">`);
    if (turn.system_prompt) {
      lines.push(`  <system_prompt agent="${turn.system_agent || turn.agent_id || "unknown"}">`);
      for (const line of pyStrip(turn.system_prompt).split("\n")) lines.push(`    ${line}`);
      lines.push("  </system_prompt>");
    }
    if (turn.user_content !== null) {
      lines.push("  <user>");
      for (const line of pyStrip(turn.user_content).split("\n")) lines.push(`    ${line}`);
      lines.push("  </user>");
    }
    if (turn.blocks.length > 0) {
      lines.push(`  <assistant agent="${turn.agent_id || "unknown"}">`);
      let lastToolName = "unknown";
      for (const block of turn.blocks) {
        const raw = pyStrip(block.content);
        if (block.content_type === "text") {
          await emitBlock("text", "", raw);
        } else if (block.content_type === "tool_use") {
          const call = splitToolCall(raw);
          lastToolName = call.name;
          await emitBlock("tool_call", ` name="${call.name}"`, call.args);
        } else {
          await emitBlock("tool_result", ` name="${lastToolName}"`, raw);
        }
      }
      lines.push("  </assistant>");
    }
    lines.push("</turn>", "");
  }
  return lines.join("\n");
}

/**
 * The question text of a trace file: when it holds a transcript (the separator and a `[__user__]` tag), the
 * part before the first separator becomes XML turns, followed by `"\n\n"` and the rest; otherwise the text is
 * returned as is.
 */
export async function reformatTranscriptAsXml(
  questionText: string,
  artifactsDir: string | null,
  threshold: number = DEFAULT_TRACE_OFFLOAD_THRESHOLD,
): Promise<string> {
  const separatorAt = questionText.indexOf(TRANSCRIPT_SEPARATOR);
  if (separatorAt < 0 || !questionText.includes(`[${USER_AGENT_ID}]`)) return questionText;
  const entries = parseTranscriptEntries(questionText.slice(0, separatorAt));
  if (entries.length === 0) return questionText;
  const xml = await formatTurnsAsXml(groupEntriesIntoTurns(entries), artifactsDir, threshold);
  return `${xml}\n\n${questionText.slice(separatorAt + TRANSCRIPT_SEPARATOR.length)}`;
}
