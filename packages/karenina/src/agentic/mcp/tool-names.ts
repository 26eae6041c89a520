/** A tool as a server lists it. */
export interface ServerTool {
  server: string;
  name: string;
}

const MAX_NAME = 64;

/** A tool name providers accept: letters, digits, `_` and `-`, at most 64 characters. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_NAME) || "tool";
}

/**
 * The names under which MCP tools are offered to the model, in the order of `tools`. A tool keeps its own
 * name when no other offered tool (nor a `reserved` one, such as a workspace tool) has it; tools whose names
 * collide are all offered as `<server>__<tool>`, so the model can tell them apart. Names are made safe for
 * providers (letters, digits, `_`, `-`; 64 characters), with a numeric suffix if still taken.
 * @example
 * exposedToolNames([{ server: "a", name: "search" }, { server: "b", name: "search" }, { server: "b", name: "fetch" }], new Set());
 * // ["a__search", "b__search", "fetch"]
 */
export function exposedToolNames(tools: readonly ServerTool[], reserved: ReadonlySet<string>): string[] {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(safeName(tool.name), (counts.get(safeName(tool.name)) ?? 0) + 1);
  const taken = new Set(reserved);
  return tools.map((tool) => {
    const own = safeName(tool.name);
    const base =
      (counts.get(own) ?? 0) > 1 || reserved.has(own) ? safeName(`${tool.server}__${tool.name}`) : own;
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_NAME - suffix.length) + suffix;
    }
    taken.add(name);
    return name;
  });
}
