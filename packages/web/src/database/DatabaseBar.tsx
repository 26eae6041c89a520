import { useState } from "react";
import { Dialog } from "../dialog/index.js";
import { type ResultsSource, resultsSourceSlice } from "../results-source/index.js";
import { useSessionSlice } from "../session/index.js";
import { useAnnounce } from "../status/index.js";
import { workingBenchmarkSlice } from "../working-benchmark/index.js";
import { BenchmarksPanel } from "./BenchmarksPanel.js";
import { ConnectPanel } from "./ConnectPanel.js";
import { connectedDbSlice, dbLabel } from "./connected-db.js";
import { DialogTabs } from "./DialogTabs.js";
import { StoredRuns } from "./StoredRuns.js";
import "./database.css";

/**
 * The database bar (spec 07 §1.7): the connected database, the working benchmark and the results shown, with
 * "Manage Database" (connect, create, delete; manage benchmarks) and the stored runs of the connected database.
 */
export function DatabaseBar() {
  const [{ db }, setConnected] = useSessionSlice(connectedDbSlice);
  const [{ benchmark }, setWorking] = useSessionSlice(workingBenchmarkSlice);
  const [{ source }, setSource] = useSessionSlice(resultsSourceSlice);
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState("connect");
  const [runsImported, setRunsImported] = useState(0);
  const announce = useAnnounce();
  const openRun = (next: ResultsSource) => {
    setSource({ source: next });
    setOpen(false);
    announce(`Showing ${next.label}`);
  };

  return (
    <section className="database-bar" aria-labelledby="database-bar-heading">
      <div className="database-bar-row">
        <h2 id="database-bar-heading">Database</h2>
        <dl className="database-facts">
          <div>
            <dt>Connected to</dt>
            <dd data-testid="connected-db">{dbLabel(db)}</dd>
          </div>
          <div>
            <dt>Working benchmark</dt>
            <dd data-testid="working-benchmark">{benchmark === null ? "none loaded" : benchmark.name}</dd>
          </div>
          <div>
            <dt>Results shown</dt>
            <dd data-testid="results-source">{source === null ? "none" : source.label}</dd>
          </div>
        </dl>
        <button type="button" className="button" onClick={() => setOpen(true)}>
          Manage Database
        </button>
      </div>
      <StoredRuns db={db} onOpen={openRun} refreshKey={runsImported} />
      {open ? (
        <Dialog title="Manage Database" onClose={() => setOpen(false)}>
          <DialogTabs
            label="Database"
            active={tab}
            onSelect={setTab}
            tabs={[
              {
                id: "connect",
                label: "Connect",
                render: () => (
                  <ConnectPanel connected={db} onConnect={(next) => setConnected({ db: next })} />
                ),
              },
              {
                id: "benchmarks",
                label: "Manage Benchmarks",
                render: () => (
                  <BenchmarksPanel
                    db={db}
                    working={benchmark}
                    onLoad={(next) => setWorking({ benchmark: next })}
                    onImported={() => setRunsImported((count) => count + 1)}
                  />
                ),
              },
            ]}
          />
        </Dialog>
      ) : null}
    </section>
  );
}
