// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, test } from "vitest";
import type { BuilderFieldSpec } from "../../library-types/index.js";
import { fieldSpec, PRIMITIVES } from "../__fixtures__/builder.js";
import { FieldCard } from "./FieldCard.js";

const DOSE = fieldSpec({
  name: "dose",
  type: "float",
  description: "Daily dose in milligrams",
  ground_truth: 400,
  verify_with: { type: "NumericExact" },
});

/** The card with its field in state, as the form holds it; the last field sent is in `sent`. */
function Harness({ sent }: { readonly sent: BuilderFieldSpec[] }) {
  const [field, setField] = useState(DOSE);
  return (
    <FieldCard
      index={0}
      field={field}
      otherNames={["target"]}
      primitives={PRIMITIVES}
      onChange={(next) => {
        sent.push(next);
        setField(next);
      }}
      onRemove={() => undefined}
    />
  );
}

afterEach(cleanup);

describe("a field card", () => {
  test("shows the name's errors and warnings as the name is typed", () => {
    render(<Harness sent={[]} />);
    const name = screen.getByLabelText("Name");
    fireEvent.change(name, { target: { value: "target" } });
    expect(screen.getByText('Error: Another field is named "target"')).toBeTruthy();
    expect(name.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(name, { target: { value: "Dose" } });
    expect(screen.getByText("Warning: The name is not snake_case")).toBeTruthy();
    expect(name.getAttribute("aria-invalid")).toBe("false");
  });

  test("a ground truth that does not read as a number is refused, one that does is sent", () => {
    const sent: BuilderFieldSpec[] = [];
    render(<Harness sent={sent} />);
    const groundTruth = screen.getByLabelText("Correct value (ground truth)");
    fireEvent.change(groundTruth, { target: { value: "four hundred" } });
    expect(screen.getByText("Enter a number")).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(groundTruth, { target: { value: "412.5" } });
    expect(sent.at(-1)?.ground_truth).toBe(412.5);
  });

  test("choosing a primitive shows its options, and an option edit keeps the type key last", () => {
    const sent: BuilderFieldSpec[] = [];
    render(<Harness sent={sent} />);
    fireEvent.change(screen.getByLabelText("Verification"), { target: { value: "NumericTolerance" } });
    expect(sent.at(-1)?.verify_with).toEqual({ tolerance: 1, mode: "relative", type: "NumericTolerance" });
    fireEvent.change(screen.getByLabelText("tolerance (required)"), { target: { value: "5" } });
    fireEvent.change(screen.getByLabelText("mode"), { target: { value: "absolute" } });
    expect(sent.at(-1)?.verify_with).toEqual({ tolerance: 5, mode: "absolute", type: "NumericTolerance" });
    expect(Object.keys(sent.at(-1)?.verify_with ?? {}).at(-1)).toBe("type");
  });
});
