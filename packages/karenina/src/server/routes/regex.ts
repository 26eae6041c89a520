import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonContent, type RouteGroup } from "../core/index.js";
import { testRegex } from "../curator/index.js";
import { RegexTestResultSchema, RegexTestSchema } from "../curator/schemas.js";

const regexTest = createRoute({
  method: "post",
  path: "/api/v2/regex/test",
  tags: ["rubrics"],
  summary: "Runs a Python regex on a text as a regex trait would (the rubric editor's live test)",
  description:
    "Python `re` semantics of the library (IGNORECASE when `case_sensitive` is false), run in the regex worker pool under the library's deadline, so a catastrophic pattern answers with a timeout `error` while the server keeps serving. An invalid or untranslatable pattern is a 200 with `error` set (not a 422): the editor shows it as it types. Offsets are UTF-16 code units (JavaScript string indices); at most 100 matches are listed.",
  request: { body: { ...jsonContent(RegexTestSchema, "The pattern and the text"), required: true } },
  responses: { 200: jsonContent(RegexTestResultSchema, "The outcome"), ...errorResponses(422) },
});

/** The live regex test of the rubric editor (spec 07 §1.4). */
export const regexRoutes: RouteGroup = (app) => {
  app.openapi(regexTest, async (c) => {
    const body = c.req.valid("json");
    return c.json(
      await testRegex({ pattern: body.pattern, text: body.text, caseSensitive: body.case_sensitive }),
      200,
    );
  });
};
