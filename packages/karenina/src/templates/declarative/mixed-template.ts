import { z } from "zod";
import { NotDeclarativeError, TemplateSplitError } from "./errors.js";
import { type LogicalLine, logicalLines } from "./python-source/logical-lines.js";
import { tokenize } from "./python-source/tokenize.js";
import { pythonToSpec } from "./python-to-spec.js";
import { specClassBodyLines } from "./spec-to-python.js";
import type { TemplateSpec } from "./template-spec.js";

const MAX_REMAINDER_PART = 200_000;
const part = z.string().max(MAX_REMAINDER_PART);

/**
 * The hand-written part of a mixed template (spec 07 §1.3.6), byte for byte: everything its TemplateSpec does
 * not hold. The answer class is rebuilt as `module_head`, `class <Name>(BaseAnswer):`, `class_body_head`, the
 * spec's VerifiedFields and `VerificationStrategy`, `class_body_tail`, `module_tail`.
 */
export const TemplateRemainderSchema = z
  .strictObject({
    module_head: part.describe("Everything before the class line: imports, helpers, comments"),
    class_body_head: part.describe(
      "Class-body statements before its first VerifiedField (docstring, fields)",
    ),
    class_body_tail: part.describe("The other class-body statements: classic fields, methods, inner classes"),
    module_tail: part.describe("Everything after the class"),
    body_indent: z
      .string()
      .regex(/^[ \t]{1,32}$/, "must be the class body's indentation (spaces or tabs)")
      .describe("The class body's indentation, used for the regenerated fields"),
  })
  .meta({ id: "TemplateRemainder" });

export type TemplateRemainder = z.output<typeof TemplateRemainderSchema>;

/** A mixed template read apart: the spec of its VerifiedFields and the hand-written rest. */
export interface MixedTemplate {
  spec: TemplateSpec;
  remainder: TemplateRemainder;
  /** What regenerating the class changes besides the spec's own code (dropped comments, moved lines). */
  lossy: string[];
}

/** One statement of the class body with the blank and comment lines before it; `kind` says who owns it. */
interface BodyItem {
  start: number;
  end: number;
  line: number;
  comment: boolean;
  kind: "field" | "strategy" | "kept";
  /** The name it binds at class level (field, method, inner class), if it reads as one. */
  name: string | null;
}

interface ClassBlock {
  header: LogicalLine;
  items: BodyItem[];
  bodyIndent: string;
  /** Offset just past its last statement. */
  end: number;
}

const HEADER =
  /^class[ \t]+([\p{L}_][\p{L}\p{N}_]*)[ \t]*\([ \t]*BaseAnswer[ \t]*\)[ \t]*:[ \t]*(#[^\r\n]*)?(\r\n|\r|\n)?$/u;
const BOUND_NAME = /^[ \t]*(?:(?:async[ \t]+)?def[ \t]+|class[ \t]+)?([\p{L}_][\p{L}\p{N}_]*)/u;

/** Whether a class-body statement is `name: T = VerifiedField(...)` (a VerifiedField the spec holds). */
function isVerifiedFieldDeclaration(text: string): boolean {
  if (!/\bVerifiedField\b/.test(text)) return false;
  let tokens: ReturnType<typeof tokenize>;
  try {
    tokens = tokenize(text.trimStart());
  } catch {
    // Beyond the declarative reader (an f-string, say): a declaration still, which the reader then refuses.
    return /^[ \t]*[\p{L}_][\p{L}\p{N}_]*[ \t]*:[^\r\n]*=[ \t]*VerifiedField[ \t]*\(/u.test(text);
  }
  if (tokens[0]?.kind !== "name" || tokens[1]?.text !== ":") return false;
  let depth = 0;
  for (let k = 2; k < tokens.length; k++) {
    const token = tokens[k] as (typeof tokens)[number];
    if (token.kind !== "op") continue;
    if ("([{".includes(token.text)) depth++;
    else if (")]}".includes(token.text)) depth--;
    else if (token.text === "=" && depth === 0)
      return tokens[k + 1]?.text === "VerifiedField" && tokens[k + 2]?.text === "(";
  }
  return false;
}

function classify(text: string): BodyItem["kind"] {
  if (/^[ \t]*class[ \t]+VerificationStrategy\b/.test(text)) return "strategy";
  return isVerifiedFieldDeclaration(text) ? "field" : "kept";
}

/** The statements of the class whose header is `lines[index]`, up to the next module-level line. */
function classBlock(source: string, lines: readonly LogicalLine[], index: number): ClassBlock | null {
  const header = lines[index] as LogicalLine;
  const items: BodyItem[] = [];
  let bodyIndent: string | null = null;
  let pendingStart = header.end;
  let end = header.end;
  for (let k = index + 1; k < lines.length; k++) {
    const line = lines[k] as LogicalLine;
    if (line.blank) continue;
    if (line.indent === "") break;
    bodyIndent ??= line.indent;
    if (!line.indent.startsWith(bodyIndent)) {
      throw new TemplateSplitError("the class body's indentation is inconsistent", line.line);
    }
    const current = items.at(-1);
    if (line.indent.length > bodyIndent.length && current) {
      current.end = line.end;
      current.comment ||= line.comment;
    } else {
      const text = source.slice(line.start, line.end);
      const kind = classify(text);
      items.push({
        start: pendingStart,
        end: line.end,
        line: line.line,
        comment: line.comment || /#/.test(source.slice(pendingStart, line.start)),
        kind,
        name: BOUND_NAME.exec(text)?.[1] ?? null,
      });
    }
    pendingStart = line.end;
    end = line.end;
  }
  return bodyIndent === null ? null : { header, items, bodyIndent, end };
}

/** The one module-level class that declares VerifiedFields, or null when none does. */
function answerClass(source: string, lines: readonly LogicalLine[]): ClassBlock | null {
  const found: ClassBlock[] = [];
  lines.forEach((line, index) => {
    if (line.blank || line.indent !== "" || !/^class\b/.test(source.slice(line.start, line.end))) return;
    const block = classBlock(source, lines, index);
    if (block?.items.some((item) => item.kind === "field")) found.push(block);
  });
  if (found.length > 1) {
    const names = found.map((block) => /^class\s+(\w+)/.exec(source.slice(block.header.start))?.[1]);
    throw new TemplateSplitError(
      `more than one class declares VerifiedFields (${names.join(", ")}); edit it as code`,
      found[1]?.header.line ?? null,
    );
  }
  return found[0] ?? null;
}

/** The source with everything but the class line and the spec's statements blanked (line numbers kept). */
function specOnlySource(source: string, block: ClassBlock, className: string): string {
  const blank = (from: number, to: number) => source.slice(from, to).replace(/[^\r\n]/g, "");
  let out = `${blank(0, block.header.start)}class ${className}(BaseAnswer):\n`;
  let at = block.header.end;
  for (const item of block.items) {
    out += blank(at, item.start);
    out += item.kind === "kept" ? blank(item.start, item.end) : source.slice(item.start, item.end);
    at = item.end;
  }
  return out;
}

function lossyOf(source: string, block: ClassBlock, className: string): string[] {
  const lossy: string[] = [];
  const headerText = source.slice(block.header.start, block.header.end).replace(/[\r\n]+$/, "");
  const canonical = `class ${className}(BaseAnswer):`;
  if (headerText !== canonical) lossy.push(`the class line is rewritten as '${canonical}'`);
  for (const item of block.items) {
    if (item.kind !== "kept" && item.comment) {
      const what = item.kind === "field" ? `field '${item.name}'` : "VerificationStrategy";
      lossy.push(`${what}: its comments (line ${item.line}) are dropped`);
    }
  }
  const specIndexes = block.items.flatMap((item, i) => (item.kind === "kept" ? [] : [i]));
  const between = block.items.filter(
    (item, i) => item.kind === "kept" && i > (specIndexes[0] ?? 0) && i < (specIndexes.at(-1) ?? 0),
  );
  for (const item of between) {
    lossy.push(`the hand-written line ${item.line} between VerifiedFields moves after them`);
  }
  return lossy;
}

/** A name the spec declares that the hand-written part binds too: moving the fields would change which wins. */
function checkNoRedeclaration(block: ClassBlock): void {
  const specNames = new Set(block.items.filter((i) => i.kind === "field").map((i) => i.name));
  const clash = block.items.find((item) => item.kind === "kept" && specNames.has(item.name));
  if (clash) {
    throw new TemplateSplitError(
      `'${clash.name}' is declared both as a VerifiedField and by hand; keep one of them`,
      clash.line,
    );
  }
}

/**
 * Reads a mixed template apart (spec 07 §1.3.6, "Our decision"): the TemplateSpec of the VerifiedFields (and
 * `VerificationStrategy`) of its one answer class, and the rest of the module byte for byte. Nothing runs.
 * @returns null when no class declares a VerifiedField (a classic template).
 * @throws TemplateSplitError naming the construct when the parts cannot be separated safely: code Python's
 *   lexer rejects, two classes with VerifiedFields, a class line other than `class X(BaseAnswer):`, a
 *   VerifiedField the declarative reader cannot read, a name declared both ways, inconsistent indentation.
 * @example
 * const mixed = splitMixedTemplate("class Answer(BaseAnswer):\n    ok: bool = VerifiedField(description='Says yes', ground_truth=True, verify_with=BooleanMatch())\n\n    def note(self):\n        return 1\n");
 * mixed?.remainder.class_body_tail; // "\n    def note(self):\n        return 1\n"
 */
export function splitMixedTemplate(source: string): MixedTemplate | null {
  const lines = logicalLines(source);
  const block = answerClass(source, lines);
  if (block === null) return null;
  const headerText = source.slice(block.header.start, block.header.end);
  const className = HEADER.exec(headerText)?.[1];
  if (className === undefined) {
    throw new TemplateSplitError(
      `the class line '${headerText.trim()}' is not 'class <Name>(BaseAnswer):', the only form the form can regenerate`,
      block.header.line,
    );
  }
  checkNoRedeclaration(block);
  let read: ReturnType<typeof pythonToSpec>;
  try {
    read = pythonToSpec(specOnlySource(source, block, className));
  } catch (error) {
    if (error instanceof NotDeclarativeError) throw new TemplateSplitError(error.reason, error.line);
    throw error;
  }
  const firstSpec = block.items.find((item) => item.kind !== "kept") as BodyItem;
  const tail = block.items.filter((item) => item.kind === "kept" && item.start >= firstSpec.end);
  return {
    spec: read.spec,
    remainder: {
      module_head: source.slice(0, block.header.start),
      class_body_head: source.slice(block.header.end, firstSpec.start),
      class_body_tail: tail.map((item) => source.slice(item.start, item.end)).join(""),
      module_tail: source.slice(block.end),
      body_indent: block.bodyIndent,
    },
    lossy: [...read.lossy, ...lossyOf(source, block, className)],
  };
}

/** Whether text holds a statement (a line that is neither blank nor a comment). */
const hasStatement = (text: string) => /^[ \t]*[^\s#]/m.test(text);

/**
 * The code of a spec written into the hand-written part it was read from (the inverse of
 * {@link splitMixedTemplate}): the remainder byte for byte, the VerifiedFields regenerated in the body's
 * indentation. The spec must be valid (`validateSpec`).
 */
export function joinMixedTemplate(spec: TemplateSpec, remainder: TemplateRemainder): string {
  const indent = remainder.body_indent;
  const body = specClassBodyLines(spec).map((line) =>
    line.startsWith("    ") ? `${indent}${line.slice(4)}\n` : `${line}\n`,
  );
  const kept = remainder.class_body_head + remainder.class_body_tail;
  const fields = body.length === 0 && !hasStatement(kept) ? [`${indent}pass\n`] : body;
  return [
    remainder.module_head,
    `class ${spec.class_name}(BaseAnswer):\n`,
    remainder.class_body_head,
    ...fields,
    remainder.class_body_tail,
    remainder.module_tail,
  ].join("");
}
