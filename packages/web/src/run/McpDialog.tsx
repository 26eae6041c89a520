import { useEffect, useState } from "react";
import { ApiRequestError, apiFetch } from "../api/index.js";
import { Dialog } from "../dialog/index.js";
import type { McpPreset, McpServerTools } from "../library-types/index.js";
import type { McpServerEntry, ModelCard } from "./run-settings.js";

export interface McpDialogProps {
  readonly card: ModelCard;
  readonly onSave: (patch: Pick<ModelCard, "mcpServers" | "mcpTools">) => void;
  readonly onClose: () => void;
}

interface ServerRow extends McpServerEntry {
  readonly status: "unchecked" | "checking" | "valid" | "failed";
  readonly message: string;
  readonly tools: readonly string[];
}

/** "k of n selected". */
export function selectedCountLabel(selected: number, total: number): string {
  return `${selected} of ${total} selected`;
}

const rowOf = (server: McpServerEntry): ServerRow => ({
  ...server,
  status: "unchecked",
  message: "",
  tools: [],
});

/** "Configure MCP" (spec 07 §1.5): HTTP MCP servers, validated for their tools, and the tools kept. */
export function McpDialog({ card, onSave, onClose }: McpDialogProps) {
  const [servers, setServers] = useState<readonly ServerRow[]>(card.mcpServers.map(rowOf));
  const [selected, setSelected] = useState<readonly string[] | null>(card.mcpTools);
  const [presets, setPresets] = useState<Readonly<Record<string, McpPreset>>>({});
  const [search, setSearch] = useState("");
  const [changed, setChanged] = useState(false);
  useEffect(() => {
    apiFetch<{ presets: Record<string, McpPreset> }>("/api/v2/mcp/presets")
      .then((answer) => setPresets(answer.presets))
      .catch(() => undefined);
  }, []);
  const allTools = [...new Set(servers.flatMap((server) => server.tools))];
  const kept = selected ?? allTools;
  const visible = allTools.filter((tool) => tool.toLowerCase().includes(search.trim().toLowerCase()));
  const update = (index: number, patch: Partial<ServerRow>) => {
    setServers((rows) => rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
    setChanged(true);
  };
  const validate = async (index: number) => {
    const server = servers[index];
    if (server === undefined) return;
    update(index, { status: "checking", message: "Connecting…" });
    try {
      const answer = await apiFetch<McpServerTools>("/api/v2/mcp/servers/validation", {
        body: { server_name: server.name, server_url: server.url },
      });
      update(index, {
        status: "valid",
        message: `${answer.tools.length} tools`,
        tools: answer.tools.map((tool) => tool.name),
      });
    } catch (error) {
      update(index, {
        status: "failed",
        message: error instanceof ApiRequestError ? error.message : String(error),
      });
    }
  };
  const toggle = (tool: string, on: boolean) => {
    setSelected(on ? [...kept, tool] : kept.filter((name) => name !== tool));
    setChanged(true);
  };
  const save = () => {
    const valid = servers.filter((server) => server.name.trim() !== "" && server.url.trim() !== "");
    onSave({
      mcpServers: valid.map(({ name, url }) => ({ name: name.trim(), url: url.trim() })),
      mcpTools: selected === null || selected.length === allTools.length ? null : [...selected],
    });
    onClose();
  };
  return (
    <Dialog
      title="Configure MCP"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="secondary-button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button" disabled={!changed} onClick={save}>
            Save Configuration
          </button>
        </>
      }
    >
      {Object.keys(presets).length > 0 && (
        <fieldset className="mcp-presets">
          <legend>Quick configuration</legend>
          {Object.values(presets).map((preset) => (
            <button
              key={preset.name}
              type="button"
              className="secondary-button"
              onClick={() => {
                setServers((rows) => [...rows, rowOf({ name: preset.name, url: preset.url })]);
                setChanged(true);
              }}
            >
              {preset.name}
            </button>
          ))}
        </fieldset>
      )}
      <ul className="mcp-servers">
        {servers.map((server, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and have no id of their own
          <li key={index} className="mcp-server">
            <label className="field">
              Server name
              <input value={server.name} onChange={(event) => update(index, { name: event.target.value })} />
            </label>
            <label className="field">
              Server URL
              <input
                type="url"
                value={server.url}
                placeholder="https://example.org/mcp"
                onChange={(event) =>
                  update(index, { url: event.target.value, status: "unchecked", tools: [] })
                }
              />
            </label>
            <button
              type="button"
              className="secondary-button"
              disabled={server.name.trim() === "" || server.url.trim() === "" || server.status === "checking"}
              onClick={() => void validate(index)}
            >
              Validate
            </button>
            <button
              type="button"
              className="secondary-button"
              onClick={() => {
                setServers((rows) => rows.filter((_, i) => i !== index));
                setChanged(true);
              }}
            >
              Remove server
            </button>
            {server.message !== "" && (
              <span className={server.status === "failed" ? "error-text" : "muted-text"}>
                {server.message}
              </span>
            )}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="secondary-button"
        onClick={() => {
          setServers((rows) => [...rows, rowOf({ name: "", url: "" })]);
          setChanged(true);
        }}
      >
        Add server
      </button>
      {allTools.length > 0 && (
        <section className="mcp-tools" aria-label="Tools">
          <div className="mcp-tools-bar">
            <label className="field">
              Search tools
              <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
            </label>
            <button
              type="button"
              className="secondary-button"
              onClick={() => {
                setSelected(allTools);
                setChanged(true);
              }}
            >
              Select All
            </button>
            <button
              type="button"
              className="secondary-button"
              onClick={() => {
                setSelected([]);
                setChanged(true);
              }}
            >
              Select None
            </button>
            <span aria-live="polite">{selectedCountLabel(kept.length, allTools.length)}</span>
          </div>
          <ul className="tool-list">
            {visible.map((tool) => (
              <li key={tool}>
                <label className="check-label">
                  <input
                    type="checkbox"
                    checked={kept.includes(tool)}
                    onChange={(e) => toggle(tool, e.target.checked)}
                  />
                  {tool}
                </label>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Dialog>
  );
}
