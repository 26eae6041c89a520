import { answeringModelKey, modelComboKey } from "./model-combo-key.js";
import { canonicalKey, displayString, type ModelIdentity } from "./model-identity.js";
import type { VerificationResult } from "./verification-result.js";

// A run has a handful of model combinations and 100,000 rows: the summary builds each combination's strings
// once and, for every other row of it, only compares the row's identities with the cached ones.

/** The strings the summary keys a row's models by. */
export interface RowModelKeys {
  /** `answeringModelKey`. */
  readonly answering: string;
  /** `displayString` of the parsing model. */
  readonly parsing: string;
  /** `modelComboKey`. */
  readonly combo: string;
  /** `canonicalKey` of the answering model. */
  readonly answeringCanonical: string;
}

interface Entry extends RowModelKeys {
  readonly answeringModel: ModelIdentity;
  readonly parsingModel: ModelIdentity;
  readonly servers: readonly string[];
}

/** Combinations kept per (answering, parsing) model name pair. */
const MAX_BUCKET = 8;

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

function sameIdentity(a: ModelIdentity, b: ModelIdentity): boolean {
  return (
    a.model_name === b.model_name &&
    a.interface === b.interface &&
    a.config_id === b.config_id &&
    sameList(a.tools, b.tools)
  );
}

/** The {@link RowModelKeys} of rows, each distinct combination of identities and MCP servers built once. */
export class ModelKeyCache {
  /** By answering then parsing model name: the combinations seen with them. */
  private readonly byNames = new Map<string, Map<string, Entry[]>>();

  of(result: VerificationResult): RowModelKeys {
    const { answering, parsing } = result.metadata;
    const servers = result.template?.answering_mcp_servers ?? [];
    let byParsing = this.byNames.get(answering.model_name);
    if (byParsing === undefined) {
      byParsing = new Map();
      this.byNames.set(answering.model_name, byParsing);
    }
    let entries = byParsing.get(parsing.model_name);
    if (entries === undefined) {
      entries = [];
      byParsing.set(parsing.model_name, entries);
    }
    for (const entry of entries) {
      if (
        sameIdentity(entry.answeringModel, answering) &&
        sameIdentity(entry.parsingModel, parsing) &&
        sameList(entry.servers, servers)
      )
        return entry;
    }
    const entry: Entry = {
      answering: answeringModelKey(result),
      parsing: displayString(parsing),
      combo: modelComboKey(result),
      answeringCanonical: canonicalKey(answering),
      // Copies: the cache outlives the row, which a caller may change once it is added.
      answeringModel: { ...answering, tools: [...answering.tools] },
      parsingModel: { ...parsing, tools: [...parsing.tools] },
      servers: [...servers],
    };
    // A bucket stays short, so a row scans a few entries at most; rarer combinations are built each time.
    if (entries.length < MAX_BUCKET) entries.push(entry);
    return entry;
  }
}
