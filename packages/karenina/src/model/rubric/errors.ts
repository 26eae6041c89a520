import { z } from "zod";
import { dottedPath, KareninaError, schemaProblems } from "../../errors/index.js";

/** One broken rule: which trait (if known), which field (dotted path, if any), and what is wrong. */
export interface RubricIssue {
  /** E.g. `regex trait "has_citation"`, or null for rubric-level problems. */
  subject: string | null;
  field: string | null;
  message: string;
}

/** A trait or rubric that breaks the rules of spec 03; the message names the trait and the field. */
export class RubricError extends KareninaError {
  override readonly name = "RubricError";

  constructor(readonly issues: readonly RubricIssue[]) {
    super(issues.map(renderIssue).join("; "));
  }

  /** The field of the first issue (`"pattern"`, `"classes"`), or null. */
  get field(): string | null {
    return this.issues[0]?.field ?? null;
  }

  /** What the first issue says, without the trait and field prefixes. */
  get reason(): string {
    return this.issues[0]?.message ?? "";
  }
}

function renderIssue(issue: RubricIssue): string {
  const subject = issue.subject === null ? "" : `${issue.subject}: `;
  const field = issue.field === null ? "" : `field "${issue.field}": `;
  return `${subject}${field}${issue.message}`;
}

/** Where an issue's path points: the trait it concerns (if any) and the field path inside it. */
export type IssueLocator = (path: readonly PropertyKey[]) => {
  subject: string | null;
  field: readonly PropertyKey[];
};

/**
 * Converts a ZodError on `input` into {@link RubricIssue}s, naming the trait each issue concerns. Our own
 * rule messages (custom issues) are kept as written; Zod's are made readable by `schemaProblems`.
 */
export function issuesFromZod(error: z.ZodError, input: unknown, locate: IssueLocator): RubricIssue[] {
  const problems = error.issues.flatMap((issue) =>
    issue.code === "custom"
      ? [{ path: issue.path, message: issue.message }]
      : schemaProblems(new z.ZodError([issue]), input),
  );
  return problems.map((problem) => {
    const { subject, field } = locate(problem.path);
    return { subject, field: field.length === 0 ? null : dottedPath(field), message: problem.message };
  });
}

/**
 * Turns a ZodError into one readable line: `field "x": expected string, found the number 1`.
 * @example
 * const input = { x: 1 };
 * zodErrorMessage(z.object({ x: z.string() }).safeParse(input).error!, input); // 'field "x": expected string, found the number 1'
 */
export function zodErrorMessage(error: z.ZodError, input: unknown): string {
  return issuesFromZod(error, input, (path) => ({ subject: null, field: path }))
    .map(renderIssue)
    .join("; ");
}
