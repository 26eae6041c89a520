export { useInterfaces, useModelDefaults } from "./use-model-registry.js";
