export {
  deleteMcpPreset,
  type McpPreset,
  McpPresetSchema,
  mcpPresetStem,
  mcpPresetsDirectory,
  readMcpPresets,
  saveMcpPreset,
} from "./mcp-presets.js";
export { listMcpServerTools, type McpToolInfo } from "./mcp-tools.js";
export {
  configFromClient,
  createPreset,
  deletePreset,
  findPreset,
  type PresetConfigSummary,
  presetSummary,
  presetsDirectory,
  readPresets,
  type StoredPreset,
  updatePreset,
} from "./verification-presets.js";
