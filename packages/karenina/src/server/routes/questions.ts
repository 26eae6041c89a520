import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { questionsPythonFile } from "../../authoring/index.js";
import { ModelValidationError, Question, QuestionSchema } from "../../model/index.js";
import { ApiError, errorResponses, jsonContent, type RouteGroup } from "../core/index.js";

const ExportRequestSchema = z
  .object({
    questions: z
      .array(
        QuestionSchema.extend({
          id: z.string().optional().describe("Ignored: the id is the MD5 of the text"),
        }),
      )
      .min(1, "must hold at least one question"),
  })
  .meta({ id: "QuestionsExportRequest" });

const exportQuestions = createRoute({
  method: "post",
  path: "/api/v2/questions/export",
  tags: ["questions"],
  summary: "The questions as the original's Python questions file (`questions_<epoch>.py`)",
  request: { body: { ...jsonContent(ExportRequestSchema, "The questions"), required: true } },
  responses: {
    200: { content: { "text/x-python": { schema: z.string() } }, description: "The Python file" },
    ...errorResponses(422),
  },
});

/** `POST /api/v2/questions/export` (spec 07 §2.2): questions in, the original's `questions.py` out. */
export const questionRoutes: RouteGroup = (app) => {
  app.openapi(exportQuestions, (c) => {
    let questions: Question[];
    try {
      questions = c.req.valid("json").questions.map((question) => new Question(question));
    } catch (error) {
      if (error instanceof ModelValidationError) throw new ApiError(422, "invalid_request", error.message);
      throw error;
    }
    const filename = `questions_${Math.floor(Date.now() / 1000)}.py`;
    return c.body(questionsPythonFile(questions), 200, {
      "content-type": "text/x-python; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
    });
  });
};
