import { dottedPath, KareninaError, type SchemaProblem } from "../../errors/index.js";

function render(problems: readonly SchemaProblem[]): string {
  return problems
    .map((p) => (p.path.length > 0 ? `${dottedPath(p.path)}: ${p.message}` : p.message))
    .join("; ");
}

/** A verification or model configuration broke its schema or a cross-field rule. Names every field at fault. */
export class ConfigError extends KareninaError {
  override readonly name: string = "ConfigError";

  constructor(
    readonly subject: string,
    readonly problems: readonly SchemaProblem[],
  ) {
    super(`Invalid ${subject}: ${render(problems)}`);
  }
}

/** A preset file could not be read, parsed, validated or written. Names the file and, when known, the field. */
export class PresetError extends KareninaError {
  override readonly name: string = "PresetError";

  constructor(
    readonly file: string,
    readonly problems: readonly SchemaProblem[],
  ) {
    super(`${file}: ${render(problems)}`);
  }
}

/** No preset of that name in the presets directory. */
export class PresetNotFoundError extends KareninaError {
  override readonly name: string = "PresetNotFoundError";

  constructor(
    readonly preset: string,
    readonly directory: string,
  ) {
    super(`preset ${JSON.stringify(preset)} not found in ${directory} (see \`karenina preset list\`)`);
  }
}
