import type { TemplateLanguage } from "../checkpoint/index.js";
import { isRealTemplate, type QuestionRecord, toPythonRubricDump } from "../model/index.js";
import { setOwn } from "../plain-data/index.js";
import {
  type AnswerTemplate,
  loadTemplate,
  TemplateError,
  type TemplateInput,
  templateCode,
  templateProblem,
} from "../templates/index.js";
import type { Entry } from "./benchmark-core.js";
import { BenchmarkQuestions } from "./benchmark-questions.js";
import { MissingTemplateError } from "./errors.js";
import { readGeneratedTemplates, writeGeneratedTemplates } from "./generated-templates-file.js";
import type { TemplateProblem } from "./readiness.js";
import type { FinishedTemplate } from "./types.js";

/**
 * Checks one template; resolves to null when it is valid, else to what is wrong. The default loads the template
 * in its sandbox (spec 02 §8), running its ground-truth code but not `verify`.
 */
export type TemplateValidator = (code: string, language: TemplateLanguage) => Promise<string | null>;

/** The answer templates of a benchmark's questions (spec 01 §4.8). */
export abstract class BenchmarkTemplates extends BenchmarkQuestions {
  // ── templates ───────────────────────────────────────────────────────────────────────────────────────

  /**
   * Sets a question's template, replacing the placeholder or a previous one, after validating it in its sandbox.
   * A string is Python code, as in the original; a TemplateSpec is stored as VerifiedField Python; a template
   * from `defineAnswerTemplate` as its JavaScript source. The finished flag does not change.
   * @throws {TemplateError} `Invalid template: <what to fix>` (checked before the id, as in the original).
   * @throws {QuestionNotFoundError} for an unknown id.
   */
  async addAnswerTemplate(id: string, template: TemplateInput): Promise<void> {
    const { code, language } = templateCode(template);
    await loadTemplate(code, language, { pythonSandbox: this.pythonSandbox });
    this.#setTemplate(this.entry(id), id, code, language);
  }

  #setTemplate(entry: Entry, id: string, code: string, language: TemplateLanguage): void {
    entry.element.item.hasPart.text = code;
    entry.element.item.hasPart.programmingLanguage = language;
    this.touchQuestion(entry);
    this.refresh(id, entry);
  }

  updateTemplate(id: string, template: TemplateInput): Promise<void> {
    return this.addAnswerTemplate(id, template);
  }

  /** True when the question holds a real template: not empty and not the default placeholder. */
  hasTemplate(id: string): boolean {
    const entry = this.entries.get(id);
    return entry !== undefined && isRealTemplate(entry.record.answer_template, entry.record.question);
  }

  /** The template code. @throws {MissingTemplateError} when the question holds only the placeholder. */
  getTemplate(id: string): string {
    const entry = this.entry(id);
    if (!this.hasTemplate(id)) throw new MissingTemplateError(id);
    return entry.record.answer_template;
  }

  /** The language of a question's template code (`Python` unless authored in TypeScript/JavaScript). */
  getTemplateLanguage(id: string): TemplateLanguage {
    return this.entry(id).element.item.hasPart.programmingLanguage;
  }

  copyTemplate(fromId: string, toId: string): Promise<void> {
    return this.addAnswerTemplate(toId, {
      code: this.getTemplate(fromId),
      language: this.getTemplateLanguage(fromId),
    });
  }

  getMissingTemplates(): QuestionRecord[] {
    return this.filterQuestions({ hasTemplate: false });
  }

  /**
   * Gives the template to every question that has none at all and returns their ids. As seed 004 says, a question
   * on the default placeholder counts as having one and is skipped; use {@link addAnswerTemplate} to replace it.
   */
  async applyGlobalTemplate(template: TemplateInput): Promise<string[]> {
    const { code, language } = templateCode(template);
    await loadTemplate(code, language, { pythonSandbox: this.pythonSandbox });
    const applied: string[] = [];
    for (const [id, entry] of this.entries) {
      if (entry.record.answer_template.trim() !== "") continue;
      this.#setTemplate(entry, id, code, language);
      applied.push(id);
    }
    return applied;
  }

  /**
   * The question's template, loaded and ready to verify parsed answers (the placeholder too, whose `verify` is
   * always false). Loads are cached by code.
   * @throws {TemplateError} when the stored template is invalid.
   */
  getAnswerTemplate(id: string): Promise<AnswerTemplate> {
    const entry = this.entry(id);
    return loadTemplate(entry.record.answer_template, entry.element.item.hasPart.programmingLanguage, {
      pythonSandbox: this.pythonSandbox,
    });
  }

  /**
   * Validates every non-empty template by loading it in its sandbox (unless another `check` is given); returns
   * the problems, one per bad template.
   */
  async validateTemplates(check?: TemplateValidator): Promise<TemplateProblem[]> {
    const problems: TemplateProblem[] = [];
    const validate: TemplateValidator =
      check ?? ((code, language) => templateProblem(code, language, { pythonSandbox: this.pythonSandbox }));
    for (const [id, entry] of this.entries) {
      const code = entry.record.answer_template;
      if (code === "") continue;
      const error = await validate(code, entry.element.item.hasPart.programmingLanguage);
      if (error !== null) problems.push({ question_id: id, error });
    }
    return problems;
  }

  /** One entry per finished question (or per id in `questionIds`), as the verification pipeline takes them. */
  getFinishedTemplates(questionIds?: ReadonlySet<string>): FinishedTemplate[] {
    const out: FinishedTemplate[] = [];
    for (const [id, entry] of this.entries) {
      if (!entry.registry.finished || (questionIds && !questionIds.has(id))) continue;
      const record = entry.record;
      const preview = Array.from(record.question);
      out.push({
        question_id: id,
        question_text: record.question,
        question_preview: preview.length > 100 ? `${preview.slice(0, 100).join("")}...` : record.question,
        raw_answer: record.raw_answer,
        template_code: record.answer_template,
        template_language: entry.element.item.hasPart.programmingLanguage,
        last_modified: record.date_modified,
        finished: true,
        question_rubric: record.question_rubric ? toPythonRubricDump(record.question_rubric) : null,
        keywords: record.keywords,
        few_shot_examples: record.few_shot_examples,
        workspace_path: record.workspace_path,
      });
    }
    return out;
  }

  /**
   * Writes every real template (not the placeholder) to a JSON file `{"<question id>": "<code>"}`, indented by
   * 2 as the original writes it, to review, share or re-import with {@link importGeneratedTemplates}. Returns
   * how many templates were written.
   * @example
   * const bench = Benchmark.create({ name: "demo" });
   * const field = { name: "sum", type: "int", description: "The sum", ground_truth: 4, verify_with: { type: "NumericExact" } };
   * bench.addQuestion("What is 2+2?", "4", { questionId: "q1", answerTemplate: { fields: [field] } });
   * await bench.exportGeneratedTemplates("templates.json"); // 1
   * const copy = Benchmark.create({ name: "copy" });
   * copy.addQuestion("What is 2+2?", "4", { questionId: "q1" });
   * await copy.importGeneratedTemplates("templates.json"); // { q1: true }
   */
  async exportGeneratedTemplates(path: string): Promise<number> {
    const templates: Record<string, string> = {};
    for (const [id, entry] of this.entries) {
      if (isRealTemplate(entry.record.answer_template, entry.record.question)) {
        templates[id] = entry.record.answer_template;
      }
    }
    await writeGeneratedTemplates(path, templates);
    return Object.keys(templates).length;
  }

  /**
   * Reads a file written by {@link exportGeneratedTemplates} (or the original's `export_generated_templates`)
   * and sets each template through {@link addAnswerTemplate}, so each is validated in the sandbox first.
   * Resolves to `{ "<question id>": imported }`: false for an id the benchmark does not hold, for a question
   * that already has a real template (unless `forceOverwrite`), and for a template that does not load
   * (the original lets that error escape; here the other templates still import). The file holds code only,
   * so each template is read in the language its question already has (Python unless it holds a JavaScript
   * template).
   * @throws {GeneratedTemplatesFileError} when the file cannot be read or is not such a JSON object.
   */
  async importGeneratedTemplates(path: string, forceOverwrite = false): Promise<Record<string, boolean>> {
    const templates = await readGeneratedTemplates(path);
    const outcome: Record<string, boolean> = {};
    for (const [id, code] of templates) {
      if (!this.entries.has(id) || (this.hasTemplate(id) && !forceOverwrite)) {
        setOwn(outcome, id, false);
        continue;
      }
      try {
        await this.addAnswerTemplate(id, { code, language: this.getTemplateLanguage(id) });
        setOwn(outcome, id, true);
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        setOwn(outcome, id, false);
      }
    }
    return outcome;
  }
}
