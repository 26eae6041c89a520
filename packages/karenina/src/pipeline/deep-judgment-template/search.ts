import { LlmAbortedError } from "../../llm/index.js";
import { describeException } from "../classify-error.js";
import type { VerificationContext } from "../context.js";
import { hallucinationPrompt, readHallucinationReply, type TemplateExcerpt } from "../prompts/index.js";
import { type SearchFunction, searchTexts } from "../rubric-evaluation/index.js";
import { resolveSearchTool, searchFailureWarning } from "../web-search/index.js";
import { askJudge } from "./calls.js";

/**
 * The search function of template deep judgment, or null when there is none (spec 04 §9.1 step 2): only when
 * `deep_judgment_search_enabled`; `deep_judgment_search_tool` is a function, or `"tavily"` — Tavily's HTTP API
 * with the run's `TAVILY_API_KEY` (3 results per query, basic depth; a failed query gets no results and a
 * warning). Without a key, search is skipped with a warning saying why.
 */
export function templateSearchFunction(ctx: VerificationContext): SearchFunction | null {
  const { deep_judgment_search_enabled: enabled, deep_judgment_search_tool: tool } = ctx.config;
  if (!enabled) return null;
  const search = resolveSearchTool(tool, ctx.services.env, (query, error) =>
    ctx.warn(searchFailureWarning(query, error)),
  );
  if (search.available) return search.search;
  ctx.warn(`Deep judgment search skipped: ${search.reason}`);
  return null;
}

/**
 * Searches every excerpt with evidence (confidence other than `none`) in one batched call and attaches the
 * results to the excerpts as `search_results`. Returns false, with a warning, when the search fails: deep
 * judgment then carries on without search.
 */
export async function searchExcerpts(
  ctx: VerificationContext,
  search: SearchFunction,
  excerpts: Readonly<Record<string, TemplateExcerpt[]>>,
): Promise<boolean> {
  const searched = Object.values(excerpts)
    .flat()
    .filter((excerpt) => excerpt.confidence !== "none" && excerpt.text !== "");
  try {
    const results = await searchTexts(
      search,
      searched.map((excerpt) => excerpt.text),
    );
    searched.forEach((excerpt, i) => {
      excerpt.search_results = results[i];
    });
    return true;
  } catch (error) {
    if (ctx.aborted) throw error;
    ctx.warn(`Deep judgment search failed: ${describeException(error)}`);
    return false;
  }
}

/**
 * Hallucination assessment (spec 04 §9.1 step 3): one call rating every excerpt that has search results;
 * each gets `hallucination_risk` and `hallucination_justification` (`high` when the judge left it out).
 * Returns whether a call was made and whether its reply was used. Failures are not fatal: a failed call or
 * an unusable reply leaves a warning and no assessment.
 */
export async function assessHallucination(
  ctx: VerificationContext,
  excerpts: Readonly<Record<string, TemplateExcerpt[]>>,
): Promise<{ called: boolean; assessed: boolean }> {
  const request = hallucinationPrompt({
    excerpts,
    interface: ctx.task.parsing.interface,
    promptConfig: ctx.config.prompt_config,
  });
  if (request === null) return { called: false, assessed: false };
  let content: string;
  try {
    content = (await askJudge(ctx, request.prompt, "deep_judgment_hallucination_assessment")).content;
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    ctx.warn(`Deep judgment hallucination assessment failed: ${describeException(error)}`);
    return { called: true, assessed: false };
  }
  const assessments = readHallucinationReply(
    content,
    request.excerpts.map((ref) => ref.id),
  );
  if (assessments === null) {
    ctx.warn(
      "Deep judgment hallucination assessment failed: the judge's reply holds no excerpt_assessments list",
    );
    return { called: true, assessed: false };
  }
  for (const ref of request.excerpts) {
    const excerpt = excerpts[ref.attribute]?.[ref.index];
    const assessment = assessments[ref.id];
    if (excerpt === undefined || assessment === undefined) continue;
    excerpt.hallucination_risk = assessment.hallucination_risk;
    excerpt.hallucination_justification = assessment.justification;
  }
  return { called: true, assessed: true };
}
