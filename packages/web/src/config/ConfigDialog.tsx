import { useState } from "react";
import { DialogTabs } from "../database/index.js";
import { Dialog } from "../dialog/index.js";
import { TraceHighlightSettings } from "../trace-viewer/index.js";
import { DefaultsPanel } from "./DefaultsPanel.js";
import { EnvPanel } from "./EnvPanel.js";
import "./config.css";

export interface ConfigDialogProps {
  readonly onClose: () => void;
}

/**
 * The configuration dialog of the header's gear button (spec 07 §1.8): default models (`defaults.json`),
 * environment variables and API keys (`.env`, masked, written through the server) and trace highlighting.
 * (No ADeLe tab: the library has no ADeLe, docs/decisions.md.)
 */
export function ConfigDialog({ onClose }: ConfigDialogProps) {
  const [tab, setTab] = useState("defaults");
  return (
    <Dialog
      title="Configuration"
      onClose={onClose}
      footer={
        <button type="button" className="button" onClick={onClose}>
          Done
        </button>
      }
    >
      <DialogTabs
        label="Configuration"
        active={tab}
        onSelect={setTab}
        tabs={[
          { id: "defaults", label: "Defaults", render: () => <DefaultsPanel /> },
          { id: "env", label: "Environment / API keys", render: () => <EnvPanel /> },
          { id: "traces", label: "Trace Highlighting", render: () => <TraceHighlightSettings /> },
        ]}
      />
    </Dialog>
  );
}
