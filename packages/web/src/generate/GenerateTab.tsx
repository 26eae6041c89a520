import { ExtractionWizard } from "./ExtractionWizard.js";
import { GenerationPanel } from "./GenerationPanel.js";
import "./generate.css";

/** Tab 1, "Template Generation": the extraction wizard above the template generator (spec 07 §1.1–§1.2). */
export function GenerateTab() {
  return (
    <div className="generate-tab">
      <ExtractionWizard />
      <GenerationPanel />
    </div>
  );
}
