import type { Benchmark } from "../../benchmark/index.js";
import { pyRepr } from "../../python-repr/index.js";
import { type AnswerTemplate, pythonToSpec } from "../../templates/index.js";

/** Where a question stands for the reviewer. */
export type CurationStatus = "Finished" | "Needs review" | "No template";

/** The columns of the curation sheet, in order. */
export const CURATION_COLUMNS = [
  "Question ID",
  "Question",
  "Reference Answer",
  "Field",
  "Type",
  "Judge Instruction",
  "Reference Value",
  "Verified With",
  "Curation Status",
  "Reviewer Notes",
] as const;

export type CurationRow = Record<(typeof CURATION_COLUMNS)[number], string>;

/** A ground truth as a reviewer reads it: text as is, anything else as Python writes it. */
function referenceValue(value: unknown): string {
  return typeof value === "string" ? value : pyRepr(value);
}

/** A primitive as the template writes it: `ExactMatch(normalize=['lowercase'])`. */
function primitiveText(primitive: Record<string, unknown>): string {
  const { type, ...parameters } = primitive;
  const args = Object.entries(parameters).map(([key, value]) => `${key}=${pyRepr(value)}`);
  return `${String(type)}(${args.join(", ")})`;
}

function statusOf(benchmark: Benchmark, id: string): CurationStatus {
  if (!benchmark.hasTemplate(id)) return "No template";
  return benchmark.isFinished(id) ? "Finished" : "Needs review";
}

/** The primitives of a declarative template by field, or none for code the declarative reader does not take. */
function primitivesOf(code: string): Map<string, string> {
  try {
    return new Map(
      pythonToSpec(code).spec.fields.map((field) => [field.name, primitiveText(field.verify_with)]),
    );
  } catch {
    return new Map(); // classic, mixed or JavaScript template: its checks are code
  }
}

/** The JSON type of a schema property (`string`, `integer`, `array`, the non-null branch of an Optional). */
function typeOf(property: Record<string, unknown>): string {
  if (typeof property.type === "string") return property.type;
  const branches = Array.isArray(property.anyOf) ? (property.anyOf as Record<string, unknown>[]) : [];
  const types = branches.map((branch) => String(branch?.type ?? "")).filter((type) => type !== "null");
  return types.join(" | ");
}

/** One row per field the judge fills, read from the loaded template (any kind, any language). */
async function fieldRows(
  benchmark: Benchmark,
  id: string,
): Promise<
  Omit<CurationRow, "Question ID" | "Question" | "Reference Answer" | "Curation Status" | "Reviewer Notes">[]
> {
  let template: AnswerTemplate;
  try {
    template = await benchmark.getAnswerTemplate(id);
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    return [
      {
        Field: "",
        Type: "invalid template",
        "Judge Instruction": problem,
        "Reference Value": "",
        "Verified With": "",
      },
    ];
  }
  const primitives = primitivesOf(benchmark.getQuestion(id).answer_template);
  const properties = (template.judgeSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const names = Object.keys(properties).filter((name) => name !== "id");
  const truth = template.groundTruth ?? {};
  const rows = names.map((name) => ({
    Field: name,
    Type: typeOf(properties[name] ?? {}),
    "Judge Instruction":
      typeof properties[name]?.description === "string" ? (properties[name]?.description as string) : "",
    "Reference Value": Object.hasOwn(truth, name) ? referenceValue(truth[name]) : "",
    "Verified With": primitives.get(name) ?? `${template.className}.verify()`,
  }));
  return rows.length > 0
    ? rows
    : [
        {
          Field: "",
          Type: "no judged fields",
          "Judge Instruction": "",
          "Reference Value": "",
          "Verified With": `${template.className}.verify()`,
        },
      ];
}

/**
 * The rows of the curation sheet: one per field the judge fills in each question's template (its judge
 * instruction, the reference value from the template's ground truth, the primitive that checks it), read by
 * loading the template in the benchmark's sandbox; one row for a question with no template or with a template
 * that does not load. Generated templates do not imply `finished` (spec 06 §7): an unfinished question with a
 * template "Needs review".
 */
export async function curationRows(benchmark: Benchmark): Promise<CurationRow[]> {
  const rows: CurationRow[] = [];
  for (const id of benchmark.getQuestionIds()) {
    const record = benchmark.getQuestion(id);
    const status = statusOf(benchmark, id);
    const base = { "Question ID": id, Question: record.question, "Reference Answer": record.raw_answer };
    const notes = { "Curation Status": status, "Reviewer Notes": "" };
    const fields =
      status === "No template"
        ? [{ Field: "", Type: "", "Judge Instruction": "", "Reference Value": "", "Verified With": "" }]
        : await fieldRows(benchmark, id);
    for (const field of fields) rows.push({ ...base, ...field, ...notes });
  }
  return rows;
}
