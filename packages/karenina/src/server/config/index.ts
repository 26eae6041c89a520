export {
  DEFAULTS_FILE,
  DefaultsFile,
  type DefaultsStatus,
  DefaultsStatusSchema,
  FALLBACK_DEFAULTS,
  type ModelDefaults,
  ModelDefaultsSchema,
} from "./defaults-file.js";
export {
  ENV_FILE,
  EnvFile,
  type EnvVariable,
  EnvVariableSchema,
  isSecretKey,
  maskedValue,
  parseEnv,
  withVariables,
} from "./env-file.js";
export { ConfigFileError } from "./errors.js";
