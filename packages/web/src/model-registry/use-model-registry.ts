import { useEffect, useState } from "react";
import { apiFetch } from "../api/index.js";
import type { ModelDefaults, ModelInterface, ModelInterfaces } from "../library-types/index.js";

/** The interfaces of the server's adapter registry (`GET /api/v2/interfaces`); empty until they arrive. */
export function useInterfaces(): { interfaces: readonly ModelInterface[]; providers: readonly string[] } {
  const [registry, setRegistry] = useState<ModelInterfaces>({ interfaces: [], providers: [] });
  useEffect(() => {
    const abort = new AbortController();
    apiFetch<ModelInterfaces>("/api/v2/interfaces", { signal: abort.signal })
      .then(setRegistry)
      .catch(() => undefined);
    return () => abort.abort();
  }, []);
  return registry;
}

/** The server's default model settings (`GET /api/v2/config/defaults`), or null until (or unless) they arrive. */
export function useModelDefaults(): ModelDefaults | null {
  const [defaults, setDefaults] = useState<ModelDefaults | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    apiFetch<ModelDefaults>("/api/v2/config/defaults", { signal: abort.signal })
      .then(setDefaults)
      .catch(() => undefined);
    return () => abort.abort();
  }, []);
  return defaults;
}
