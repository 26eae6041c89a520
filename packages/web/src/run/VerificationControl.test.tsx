// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { initialProgress, type RunProgress } from "./progress-state.js";
import { VerificationControl } from "./VerificationControl.js";

afterEach(cleanup);

const running = (usage: RunProgress["usage"]): RunProgress => ({
  ...initialProgress("job-1"),
  status: "running",
  processed: 2,
  total: 4,
  startTime: Date.now() / 1000,
  usage,
});

test("the panel shows the running tokens and cost in a polite live region", () => {
  render(
    <VerificationControl
      progress={running({
        input_tokens: 280,
        output_tokens: 50,
        total_tokens: 330,
        cost_usd: 0.000156,
        priced: 1,
        unpriced: 1,
      })}
      onCancel={() => undefined}
    />,
  );
  const region = screen.getByLabelText("Tokens and cost");
  expect(region.getAttribute("aria-live")).toBe("polite");
  expect(region.textContent).toBe(
    "Tokens: 330 (280 in · 50 out) · Cost: $0.0002 (cost of priced models only: 1 of 2 tasks)",
  );
});

test("no usage line before the server has reported any", () => {
  render(<VerificationControl progress={running(null)} onCancel={() => undefined} />);
  expect(screen.queryByLabelText("Tokens and cost")).toBeNull();
});
