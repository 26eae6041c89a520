import { KareninaError } from "../../errors/index.js";

/** A configuration file (`.env`, `defaults.json`) could not be read or written; nothing was changed. */
export class ConfigFileError extends KareninaError {
  override readonly name = "ConfigFileError";
}
