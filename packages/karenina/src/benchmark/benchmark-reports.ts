import { writeFileAtomic } from "../checkpoint/index.js";
import { pythonIsoTimestamp, toPythonRubricDump } from "../model/index.js";
import { BenchmarkRubrics } from "./benchmark-rubrics.js";
import type { TemplateValidator } from "./benchmark-templates.js";
import {
  type BenchmarkDict,
  type BenchmarkExportFormat,
  benchmarkCsv,
  benchmarkJson,
  benchmarkMarkdown,
  exportFormatFor,
  questionDict,
  type ReportQuestion,
} from "./exports.js";
import {
  healthRecommendations,
  healthScore,
  healthStatus,
  type ReadinessReport,
  readinessReport,
} from "./readiness.js";
import type { BenchmarkStatistics, BenchmarkSummary, HealthReport } from "./types.js";

/** What a benchmark reports about itself: readiness, health, summary, statistics and exports (spec 01 §4.10). */
export abstract class BenchmarkReports extends BenchmarkRubrics {
  // ── readiness and health ────────────────────────────────────────────────────────────────────────────

  /** Whether the benchmark is ready to verify, with the reasons when it is not. */
  async checkReadiness(check?: TemplateValidator): Promise<ReadinessReport> {
    return readinessReport(this.rows(), await this.validateTemplates(check), this.validateRubrics());
  }

  /** A score from 0 to 100 with a status and recommendations (seed 004's table). */
  async getHealthReport(check?: TemplateValidator): Promise<HealthReport> {
    const readiness = await this.checkReadiness(check);
    const score = healthScore(readiness, this.getProgress());
    return {
      health_score: score,
      health_status: healthStatus(score),
      timestamp: pythonIsoTimestamp(),
      readiness,
      statistics: this.getStatistics(),
      recommendations: healthRecommendations(readiness, this.questionCount, this.getGlobalRubric() !== null),
    };
  }

  getSummary(): BenchmarkSummary {
    const rows = this.rows();
    const global = this.getGlobalRubric();
    return {
      name: this.name,
      version: this.version,
      creator: this.creator,
      created_at: this.createdAt,
      modified_at: this.modifiedAt,
      question_count: rows.length,
      finished_count: rows.filter((row) => row.finished).length,
      has_template_count: rows.filter((row) => row.hasTemplate).length,
      has_rubric_count: rows.filter((row) => row.record.question_rubric !== null).length,
      progress_percentage: this.getProgress(),
      is_complete: this.isComplete,
      has_global_rubric: global !== null,
      global_rubric_traits: global?.llm_traits.length ?? 0,
    };
  }

  getStatistics(): BenchmarkStatistics {
    const rows = this.rows();
    const lengths = rows.filter((row) => row.hasTemplate).map((row) => row.record.answer_template.length);
    const total = lengths.reduce((sum, n) => sum + n, 0);
    return {
      ...this.getSummary(),
      avg_template_length: lengths.length > 0 ? Math.trunc(total / lengths.length) : 0,
      min_template_length: lengths.length > 0 ? Math.min(...lengths) : 0,
      max_template_length: lengths.length > 0 ? Math.max(...lengths) : 0,
      questions_with_custom_metadata: rows.filter(
        ({ record }) => record.custom_metadata !== null || record.author != null || record.sources != null,
      ).length,
    };
  }

  // ── exports ─────────────────────────────────────────────────────────────────────────────────────────

  #reportQuestions(): ReportQuestion[] {
    return [...this.entries].map(([id, entry]) => ({
      id,
      record: entry.record,
      finished: entry.registry.finished,
    }));
  }

  /**
   * The benchmark as plain data, as the original's `to_dict()`: metadata, the summary, every question dict
   * (its rubric as `Rubric.model_dump()`), and the global rubric's dump or null.
   * @example
   * const bench = Benchmark.create({ name: "demo" });
   * bench.addQuestion("What is 2+2?", "4");
   * Object.keys(bench.toDict()); // ["metadata", "statistics", "questions", "global_rubric"]
   */
  toDict(): BenchmarkDict {
    const global = this.getGlobalRubric();
    return {
      metadata: {
        name: this.name,
        description: this.description,
        version: this.version,
        creator: this.creator,
        created_at: this.createdAt,
        modified_at: this.modifiedAt,
      },
      statistics: this.getSummary(),
      questions: [...this.entries.values()].map((entry) => questionDict(entry.record)),
      global_rubric: global ? toPythonRubricDump(global) : null,
    };
  }

  /**
   * A Markdown report, line for line the original's `to_markdown()`: metadata, statistics, the global rubric's
   * LLM traits, then each question with ✅/❌ for finished and 📝 for a template (the placeholder counts).
   * @example
   * const bench = Benchmark.create({ name: "demo", description: "" });
   * bench.addQuestion("What is 2+2?", "4");
   * bench.toMarkdown().split("\n")[0]; // "# demo"
   */
  toMarkdown(): string {
    const global = this.getGlobalRubric();
    return benchmarkMarkdown({
      dict: this.toDict(),
      questions: this.#reportQuestions(),
      globalTraits: global ? global.llm_traits : null,
    });
  }

  /**
   * The questions as CSV, as the original's `to_csv()`: columns `Question ID, Question, Raw Answer, Has Template,
   * Finished, Author, Created, Modified`, Python's csv dialect (`\r\n` line endings, minimal quoting).
   * @example
   * const bench = Benchmark.create({ name: "demo" });
   * bench.toCsv(); // "Question ID,Question,Raw Answer,Has Template,Finished,Author,Created,Modified\r\n"
   */
  toCsv(): string {
    return benchmarkCsv(this.#reportQuestions());
  }

  /**
   * Writes the benchmark to a file, as the original's `export_to_file`: `json` ({@link toDict}, indented by 2,
   * UTF-8 kept), `csv` ({@link toCsv}), `markdown` ({@link toMarkdown}) or `jsonld` (the checkpoint, through
   * `save`). With `auto` (the default) the extension decides: `.json`, `.csv`, `.md`/`.markdown`, `.jsonld`,
   * anything else JSON. Other files are written atomically too.
   * @throws {BenchmarkUsageError} for an unknown format.
   * @example
   * const bench = Benchmark.create({ name: "demo" });
   * bench.addQuestion("What is 2+2?", "4");
   * await bench.exportToFile("report.md"); // Markdown
   * await bench.exportToFile("questions.txt", "csv");
   */
  async exportToFile(path: string, format: BenchmarkExportFormat | "auto" = "auto"): Promise<void> {
    const chosen = exportFormatFor(path, format);
    if (chosen === "jsonld") {
      await this.save(path);
      return;
    }
    const text =
      chosen === "csv"
        ? this.toCsv()
        : chosen === "markdown"
          ? this.toMarkdown()
          : benchmarkJson(this.toDict());
    await writeFileAtomic(path, text);
  }
}
