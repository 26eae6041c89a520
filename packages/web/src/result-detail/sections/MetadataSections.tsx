import type {
  ModelIdentity,
  VerificationResult,
  VerificationResultTemplate,
} from "../../library-types/index.js";
import { DetailSection, Facts, yesNo } from "./parts.js";

/** `interface:model_name (config_id) +[tools]`, as the results show a model. */
export function modelLabel(identity: ModelIdentity): string {
  const config = identity.config_id === null ? "" : ` (${identity.config_id})`;
  const tools = identity.tools.length === 0 ? "" : ` +[${identity.tools.join(", ")}]`;
  return `${identity.interface}:${identity.model_name}${config}${tools}`;
}

/** Who and what the result is about: ids, models, run, timing, evaluation mode, scenario. */
export function MetadataSection({ result }: { readonly result: VerificationResult }) {
  const m = result.metadata;
  return (
    <DetailSection title="Metadata">
      <Facts
        entries={[
          ["Question id", m.question_id],
          ["Template id", m.template_id],
          ["Result id", m.result_id],
          ["Answering model", modelLabel(m.answering)],
          ["Parsing model", modelLabel(m.parsing)],
          ["MCP servers", result.template?.answering_mcp_servers?.join(", ") || undefined],
          ["Run", m.run_name ?? undefined],
          ["Replicate", m.replicate === null ? undefined : String(m.replicate)],
          ["Timestamp", m.timestamp === "" ? undefined : m.timestamp],
          ["Execution time", `${m.execution_time.toFixed(2)} s`],
          ["Evaluation mode", m.evaluation_mode ?? undefined],
          ["Keywords", m.keywords === null || m.keywords.length === 0 ? undefined : m.keywords.join(", ")],
          ["Few-shot", m.few_shot_enabled ? `${m.few_shot_example_count} examples` : undefined],
          ["Scenario", m.scenario_id ?? undefined],
          ["Scenario node", m.scenario_node ?? undefined],
          ["Scenario turn", m.scenario_turn === null ? undefined : String(m.scenario_turn)],
          ["Scenario path", m.scenario_path?.join(" → ")],
        ]}
      />
    </DetailSection>
  );
}

function UsageTable({
  usage,
}: {
  readonly usage: NonNullable<VerificationResultTemplate["usage_metadata"]>;
}) {
  const stages = Object.entries(usage).filter(([stage]) => stage !== "total");
  const total = usage.total;
  return (
    <table className="detail-table">
      <thead>
        <tr>
          <th scope="col">Stage</th>
          <th scope="col">Model</th>
          <th scope="col">Input</th>
          <th scope="col">Output</th>
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {stages.map(([stage, counts]) => (
          <tr key={stage}>
            <th scope="row">{stage}</th>
            <td>{counts.model ?? "—"}</td>
            <td>{counts.input_tokens}</td>
            <td>{counts.output_tokens}</td>
            <td>{counts.total_tokens}</td>
          </tr>
        ))}
      </tbody>
      {total === undefined ? null : (
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td />
            <td>{total.input_tokens}</td>
            <td>{total.output_tokens}</td>
            <td>{total.total_tokens}</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/** Tokens per stage with totals, and what the answering agent did. */
export function UsageSection({ template }: { readonly template: VerificationResultTemplate }) {
  const usage = template.usage_metadata;
  const agent = template.agent_metrics;
  const hasUsage = usage !== null && Object.keys(usage).length > 0;
  if (!hasUsage && agent === null && !template.usage_unavailable) return null;
  return (
    <DetailSection title="LLM Usage">
      {template.usage_unavailable ? <p>The provider did not report token usage for some calls.</p> : null}
      {hasUsage && usage !== null ? <UsageTable usage={usage} /> : null}
      {agent === null ? null : (
        <>
          <h4>Agent metrics</h4>
          <Facts
            entries={[
              ["Iterations", String(agent.iterations)],
              ["Tool calls", agent.tool_calls === undefined ? undefined : String(agent.tool_calls)],
              ["Tools used", agent.tools_used?.length ? agent.tools_used.join(", ") : undefined],
              [
                "Calls per tool",
                agent.tool_call_counts === undefined || Object.keys(agent.tool_call_counts).length === 0
                  ? undefined
                  : Object.entries(agent.tool_call_counts)
                      .map(([tool, n]) => `${tool}: ${n}`)
                      .join(", "),
              ],
              [
                "Suspect failed tool calls",
                agent.suspect_failed_tool_calls === undefined
                  ? undefined
                  : `${agent.suspect_failed_tool_calls}${agent.suspect_failed_tools?.length ? ` (${agent.suspect_failed_tools.join(", ")})` : ""}`,
              ],
              ["Limit reached", yesNo(agent.limit_reached)],
              ["Recursion limit reached", template.recursion_limit_reached ? "Yes" : undefined],
              ["Timed out with partial answer", template.response_timeout_partial ? "Yes" : undefined],
              ["Agentic parsing", template.agentic_parsing_performed ? "Yes" : undefined],
              ["Investigation trace", template.investigation_trace ?? undefined],
            ]}
          />
        </>
      )}
    </DetailSection>
  );
}
