export { GenerateTab } from "./GenerateTab.js";
export { FALLBACK_GENERATOR, GeneratorForm, useDefaultGenerator } from "./GeneratorForm.js";
export { followGeneration, generationJob, startGeneration } from "./generate-api.js";
export { type GeneratorSettings, generateSlice } from "./generate-state.js";
export { type GenerationProgress, progressOf } from "./generation-progress.js";
export { modelConfig } from "./use-generation-job.js";
