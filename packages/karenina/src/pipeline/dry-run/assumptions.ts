import type { VerificationConfig } from "../config/index.js";
import { ASSUMED_AGENT_TURNS, ASSUMED_TOOL_RESULT_TOKENS } from "./agent-calls.js";
import { ESCALATION_PROBABILITY } from "./agentic-calls.js";
import {
  CALL_KINDS,
  type CallKind,
  type DryRunStage,
  type OutputTokenHistory,
  outputTokensFor,
} from "./call-kinds.js";
import { ASSUMED_EXCERPT_TOKENS, ASSUMED_EXCERPTS, ASSUMED_SEARCH_TOKENS } from "./planned-call.js";
import type { Tally } from "./tally.js";
import { DRY_RUN_TOKENIZER } from "./token-counter.js";

/** What the walk found that the assumptions must mention. */
export interface Facts {
  tally: Tally;
  history: OutputTokenHistory | undefined;
  skipped: number;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** What the estimate assumes, in plain words: the general rules, then what this plan met. */
export function assumptionsOf(config: VerificationConfig, facts: Facts): string[] {
  const { tally, history } = facts;
  const used = (stage: DryRunStage) => (tally.stages.get(stage)?.calls ?? 0) > 0;
  const kindUsed = (kind: CallKind) => (tally.kinds.get(kind)?.calls ?? 0) > 0;
  const judged = [...tally.stages.keys()].some((stage) => stage !== "answer_generation");
  const seesAnswer = [...tally.stages.keys()].some(
    (stage) =>
      stage !== "answer_generation" &&
      stage !== "embedding" &&
      !stage.startsWith("agentic_") &&
      !stage.startsWith("rubric_agentic_"),
  );
  const out = [
    `Nothing was called. Input tokens are counted with the ${DRY_RUN_TOKENIZER} tokenizer (OpenAI GPT-4o / GPT-4.1) on the prompts the run would send, plus 3 tokens per message and 3 per call for the chat format; other providers' tokenizers (Anthropic, Google, Llama, ...) split text differently, so their counts are approximate.`,
    "Every call succeeds at its first attempt: no provider retry, no parser feedback retry or JSON repair call, no requeued task.",
    "Every call is counted as made: which calls a response cache would answer is not known in advance.",
  ];
  const cached = CALL_KINDS.filter((kind) => history?.[kind] !== undefined && kindUsed(kind));
  out.push(
    cached.length > 0
      ? `Output tokens: the mean of the response cache's earlier calls for ${cached.join(", ")}; the per-kind defaults of docs/dry-run.md for the other kinds.`
      : "Output tokens: the per-kind defaults of docs/dry-run.md (a response cache of earlier runs gives measured means instead).",
  );
  if (tally.answersGenerated > 0 && seesAnswer) {
    out.push(
      `Judge prompts contain the answer: a placeholder of ${outputTokensFor("answer_generation", 0, history)} tokens (the estimated answer length) is counted in its place.`,
    );
  }
  if (judged) {
    out.push(
      "Every answer is usable: none is empty, truncated or an abstention, and every answer is sufficient, so every judge stage runs.",
    );
  }
  out.push(...agentAssumptions(config, facts));
  if (tally.answersSupplied > 0) {
    out.push(
      `Answers from manual traces or replay entries (${tally.answersSupplied}) need no answering call; their judge prompts are counted from their own text.`,
    );
  }
  if (used("deep_judgment")) {
    const search = kindUsed("deep_judgment_hallucination")
      ? ` Search results are assumed to be ~${ASSUMED_SEARCH_TOKENS} tokens per excerpt.`
      : "";
    out.push(
      `Deep judgment: excerpt extraction is accepted at its first attempt (it may take up to 1 + the excerpt retry attempts calls), each attribute or trait yields ${ASSUMED_EXCERPTS} excerpts (fewer when its maximum is lower) of ~${ASSUMED_EXCERPT_TOKENS} tokens, reasoning texts are as long as the reasoning replies, and rubric scores come back structured (no plain-text fallback call).${search}`,
    );
  }
  if (config.deep_judgment_search_enabled && typeof config.deep_judgment_search_tool !== "function") {
    out.push(
      `Template deep-judgment search is counted as off: the "${config.deep_judgment_search_tool}" search tool is not available here (a search function is).`,
    );
  }
  if (tally.dynamicRubrics > 0) {
    out.push(
      "Dynamic rubrics: every concept is assumed present, so every dynamic trait is evaluated (an upper bound).",
    );
  }
  if (used("embedding")) {
    out.push(
      "Embedding check: counted for every task whose template has a ground truth, as if its field check failed and the similarity reached the threshold (an upper bound: it runs only for failed field checks); the parsed answer is assumed as long as the ground truth.",
    );
  }
  if (tally.unestimated.size > 0) {
    out.push(`Not estimated (their calls are not counted): the stages ${[...tally.unestimated].join(", ")}.`);
  }
  if (facts.skipped > 0)
    out.push(`Left out: ${plural(facts.skipped, "finished task")} of the run being resumed.`);
  for (const [reason, tasks] of tally.failed)
    out.push(`No call is counted for ${plural(tasks, "task")} that fail before any call: ${reason}.`);
  out.push(
    "Costs are list prices from the price table (USD per million tokens), without discounts for cached input or batch APIs; models the table does not list are reported as unpriced, not as free.",
  );
  return out;
}

/** What the estimate of agent runs (answering agents, agentic judges) assumes. */
function agentAssumptions(config: VerificationConfig, facts: Facts): string[] {
  const { tally, history } = facts;
  const used = (stage: DryRunStage) => (tally.stages.get(stage)?.calls ?? 0) > 0;
  const parsing = used("agentic_parsing_investigation");
  const traits = used("rubric_agentic_trait_investigation");
  const answering = tally.agents.has("tool_loop") || tally.agents.has("deep_agent");
  if (!answering && !parsing && !traits) return [];
  const turn = outputTokensFor("agent_turn", 0, history);
  const out = [
    `Agent runs (${[answering ? "answering agents" : null, parsing ? "agentic parsing" : null, traits ? "agentic traits" : null].filter((part) => part !== null).join(", ")}): ${ASSUMED_AGENT_TURNS} model turns each (fewer when the turn limit is lower), every turn but the last calling one tool (a ${turn}-token reply) whose result is ~${ASSUMED_TOOL_RESULT_TOKENS} tokens. Each turn resends the whole conversation: the prompt, the built-in workspace tools' definitions, and every earlier tool call and result; the last turn gives the answer or the report. No run reaches its turn or time limit.`,
  ];
  if (tally.agents.has("mcp")) {
    out.push(
      "MCP tools: their definitions are not counted (their servers are not contacted), and their results are counted like the workspace tools' results.",
    );
  }
  if (tally.agents.has("deep_agent")) {
    out.push(
      "Deep agents (claude_agent_sdk, Claude Code) are a rough estimate: counted like the tool loop, without Claude Code's own system prompt and tool definitions, which it sends with every turn, nor its sub-agents.",
    );
  }
  if (used("dynamic_parsing_decision")) {
    out.push(
      `Dynamic agentic parsing: one decision call per answer, then the investigation and extraction with an escalation probability of ${ESCALATION_PROBABILITY}: their calls and tokens are counted at that weight (so call counts can be fractional). An escalated investigation is shown the screening's reasoning: ${outputTokensFor("agentic_decision", 0, history)} tokens (the decision reply without its answer).`,
    );
  }
  if (
    parsing &&
    config.agentic_parsing_materialize_trace &&
    config.agentic_judge_context !== "workspace_only"
  ) {
    out.push(
      "Materialised trace: the agentic parsing judge is pointed at the trace file instead of reading the trace in its prompt; what it reads of the file is counted within its tool results.",
    );
  }
  if (parsing || traits) {
    out.push(
      `Agentic judges: an answering trace shown to a judge is counted as a placeholder of its estimated length (an answering agent's turns, tool results and answer; the answer alone for a one-call answer); an investigation's report as the agentic_report reply (${outputTokensFor("agentic_report", 1, history)} tokens for one field or criterion, more for more); every extraction succeeds at its first call (no local JSON recovery needed).`,
    );
  }
  if (traits) {
    const shared =
      config.agentic_rubric_strategy === "shared"
        ? " Strategy shared: one investigation when every trait has the same judge, one per trait otherwise; a shared session that fails (and is redone per trait) is not counted."
        : "";
    out.push(
      `Agentic traits: a template-kind trait's report ends with its JSON, read locally (no extraction call) except in a shared session of several template-kind traits.${shared}`,
    );
  }
  return out;
}
