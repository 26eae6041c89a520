import { useEffect, useState } from "react";
import type { BuilderPrimitiveInfo, ModelDefaults, ModelInterfaces } from "../library-types/index.js";
import { fetchInterfaces, fetchModelDefaults, fetchPrimitives } from "./builder-api.js";

// The builder's catalogue and the model defaults change only with the server: fetched once per page.
let primitivesOnce: Promise<BuilderPrimitiveInfo[]> | null = null;

/** The verification primitives (`GET …/builder/primitives`); empty until they arrive. */
export function usePrimitives(): { primitives: readonly BuilderPrimitiveInfo[]; error: string | null } {
  const [primitives, setPrimitives] = useState<readonly BuilderPrimitiveInfo[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    primitivesOnce ??= fetchPrimitives().then((answer) => answer.primitives);
    primitivesOnce.then(
      (list) => live && setPrimitives(list),
      (cause: unknown) => {
        primitivesOnce = null;
        if (live) setError(cause instanceof Error ? cause.message : String(cause));
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return { primitives, error };
}

/** The server's default model and its interfaces, for the judge of a sample test; null until they arrive. */
export function useJudgeChoices(): { defaults: ModelDefaults | null; interfaces: ModelInterfaces | null } {
  const [defaults, setDefaults] = useState<ModelDefaults | null>(null);
  const [interfaces, setInterfaces] = useState<ModelInterfaces | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchModelDefaults(abort.signal).then(setDefaults, () => undefined);
    fetchInterfaces(abort.signal).then(setInterfaces, () => undefined);
    return () => abort.abort();
  }, []);
  return { defaults, interfaces };
}
