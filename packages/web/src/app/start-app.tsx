import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { curatorSessionSlice } from "../curator/index.js";
import { connectedDbSlice, openAddressedRun } from "../database/index.js";
import { APP_ROOT_ID } from "../dialog/index.js";
import { generateSlice } from "../generate/index.js";
import { tableViewSlice } from "../results/index.js";
import { resultsSourceSlice } from "../results-source/index.js";
import { activeJobSlice, runSettingsSlice } from "../run/index.js";
import { indexedDbBackend, type SessionSlice, SessionStore } from "../session/index.js";
import { applyStoredTheme } from "../theme/index.js";
import { workingBenchmarkSlice } from "../working-benchmark/index.js";
import { App } from "./App.js";
import { Providers } from "./Providers.js";
import { shellSlice } from "./shell-state.js";

/** The slices restored before the first render; each screen adds its own here. */
const RESTORED_SLICES: readonly SessionSlice<unknown>[] = [
  shellSlice as SessionSlice<unknown>,
  resultsSourceSlice as SessionSlice<unknown>,
  workingBenchmarkSlice as SessionSlice<unknown>,
  runSettingsSlice as SessionSlice<unknown>,
  activeJobSlice as SessionSlice<unknown>,
  connectedDbSlice as SessionSlice<unknown>,
  tableViewSlice as SessionSlice<unknown>,
  curatorSessionSlice as SessionSlice<unknown>,
  generateSlice as SessionSlice<unknown>,
];

/**
 * A page opened on a run (`#/benchmark?run=…`, the address `karenina view` prints) shows that run: it becomes
 * the results source (and its database the connected one), and the hash is cut back to the tab's route so a reload keeps later choices.
 */
function openHashSource(store: SessionStore): void {
  if (!openAddressedRun(store, window.location.hash)) return;
  window.history.replaceState(window.history.state, "", "#/benchmark");
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * Starts the app: applies the remembered theme, restores the previous session from IndexedDB (a failure only
 * loses the memory: the app starts fresh and says so in a toast), then renders. Saves still pending when the page
 * goes away are kept in `sessionStorage` for the next start (an IndexedDB write started then is dropped).
 */
export async function startApp(): Promise<void> {
  applyStoredTheme();
  const store = new SessionStore(indexedDbBackend(), { unloadBackend: sessionStorageOrUndefined() });
  await store.restore(RESTORED_SLICES);
  openHashSource(store);
  window.addEventListener("pagehide", () => store.saveBeforeUnload());
  const root = document.getElementById(APP_ROOT_ID);
  if (root === null) throw new Error(`index.html has no #${APP_ROOT_ID} element to render the app in`);
  createRoot(root).render(
    <StrictMode>
      <Providers store={store}>
        <App />
      </Providers>
    </StrictMode>,
  );
}
