// @vitest-environment jsdom
/**
 * The editor against the real server (validation and the regex test box reach `karenina serve` on 127.0.0.1;
 * the page's relative `/api/...` paths are sent to it).
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { RubricSchema } from "../../../karenina/src/model/index.js";
import { startTestServer, type TestServer } from "../../../karenina/src/server/__fixtures__/test-server.js";
import type { Rubric } from "../library-types/index.js";
import { RubricEditor } from "./RubricEditor.js";

let server: TestServer;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = await startTestServer();
  vi.stubGlobal("fetch", (path: string, init?: RequestInit) => realFetch(new URL(path, server.url), init));
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await server?.close();
});
afterEach(cleanup);

/** The editor with its rubric in state, as the curator holds it; `latest()` is what it last sent. */
function renderEditor(
  initial: Rubric | null,
  props: { scope?: "global" | "question"; globalTraitNames?: string[] } = {},
) {
  let current = initial;
  function Host() {
    const [rubric, setRubric] = useState(initial);
    return (
      <RubricEditor
        scope={props.scope ?? "global"}
        rubric={rubric}
        globalTraitNames={props.globalTraitNames ?? []}
        onChange={(next) => {
          current = next;
          setRubric(next);
        }}
      />
    );
  }
  render(<Host />);
  return { latest: () => current };
}

const card = (name: string) => screen.getByRole("article", { name: new RegExp(`^${name}`) });

describe("RubricEditor", () => {
  test("Add trait, rename, convert to literal and fill the classes: the library accepts what it sends", async () => {
    const editor = renderEditor(null);
    fireEvent.click(screen.getByRole("button", { name: "Add trait" }));
    fireEvent.change(within(card("Trait 1")).getByLabelText("Trait name"), { target: { value: "tone" } });
    fireEvent.change(within(card("tone")).getByLabelText("Description"), { target: { value: "The tone" } });
    fireEvent.change(within(card("tone")).getByLabelText("Type"), { target: { value: "literal" } });
    const tone = card("tone");
    expect(within(tone).getByText("Description for class 'Class 1' cannot be empty")).toBeTruthy();
    fireEvent.change(within(tone).getByLabelText("Class 1 name"), { target: { value: "rude" } });
    fireEvent.change(within(tone).getByLabelText("Class 1 description"), { target: { value: "Rude" } });
    fireEvent.change(within(tone).getByLabelText("Class 2 description"), { target: { value: "Kind" } });
    fireEvent.click(within(tone).getByRole("button", { name: "Add class" }));
    fireEvent.change(within(tone).getByLabelText("Class 3 description"), { target: { value: "Warm" } });
    fireEvent.click(within(tone).getByRole("button", { name: "Move class 3 up" }));
    const rubric = editor.latest();
    expect(rubric?.llm_traits[0]).toMatchObject({
      name: "tone",
      kind: "literal",
      classes: { rude: "Rude", "Class 3": "Warm", "Class 2": "Kind" },
      min_score: 0,
      max_score: 2,
    });
    expect(Object.keys(rubric?.llm_traits[0]?.classes ?? {})).toEqual(["rude", "Class 3", "Class 2"]);
    expect(RubricSchema.parse(rubric)).toEqual(rubric);
    await screen.findByText("The rubric is valid.", {}, { timeout: 5000 });
  });

  test("the server's refusal is shown on the trait it names, and readiness errors on theirs", async () => {
    renderEditor(
      RubricSchema.parse({
        llm_traits: [{ name: "clear", description: "d", kind: "boolean" }],
        regex_traits: [
          { name: "x", pattern: "a" },
          { name: "y", description: "Y", pattern: "b" },
        ],
      }),
    );
    await within(card("x")).findByText("Trait 'x' is missing a description", {}, { timeout: 5000 });
    fireEvent.change(within(card("y")).getByLabelText("Pattern (Python regex)"), {
      target: { value: "(?<=a+)b" },
    });
    const problems = await within(card("y")).findByRole("list", { name: "Problems of y" }, { timeout: 5000 });
    expect(problems.textContent).toMatch(/^pattern: Invalid regex pattern/);
    expect(screen.getByText(/The server refuses this rubric: 1 problem/)).toBeTruthy();
  });

  test("names must differ within the rubric, ignoring case; a metric mode switch drops what it lacks", () => {
    const editor = renderEditor(
      RubricSchema.parse({
        llm_traits: [{ name: "Clear", description: "d", kind: "boolean" }],
        metric_traits: [
          {
            name: "clear",
            description: "c",
            evaluation_mode: "full_matrix",
            metrics: ["accuracy"],
            tp_instructions: ["a"],
            tn_instructions: ["b"],
          },
        ],
      }),
    );
    expect(screen.getAllByText(/Another trait of this rubric is named/)).toHaveLength(2);
    const metric = screen.getAllByRole("article")[1] as HTMLElement;
    fireEvent.change(within(metric).getByLabelText("Evaluation mode"), { target: { value: "tp_only" } });
    expect(editor.latest()?.metric_traits[0]).toMatchObject({
      evaluation_mode: "tp_only",
      metrics: ["precision"],
      tn_instructions: ["b"],
    });
    expect(within(metric).queryByRole("group", { name: /TN instructions/ })).toBeNull();
  });

  test("question scope: a trait named like a global trait is labelled as overriding it, and the global list is shown", () => {
    renderEditor(RubricSchema.parse({ llm_traits: [{ name: "clear", description: "d", kind: "boolean" }] }), {
      scope: "question",
      globalTraitNames: ["clear", "safe"],
    });
    expect(within(card("clear")).getByText("overrides global trait")).toBeTruthy();
    expect(screen.getByText("Global traits that will be included in evaluation:")).toBeTruthy();
    expect(screen.getByText("clear (overridden by this question's trait)")).toBeTruthy();
    expect(screen.getByText("safe")).toBeTruthy();
  });

  test("a trait converted to another list keeps the keyboard focus on its type select; removal focuses Add trait", () => {
    renderEditor(
      RubricSchema.parse({
        llm_traits: [
          { name: "a", description: "A", kind: "boolean" },
          { name: "b", description: "B", kind: "boolean" },
        ],
      }),
    );
    fireEvent.change(within(card("a")).getByLabelText("Type"), { target: { value: "regex" } });
    expect(document.activeElement).toBe(within(card("a")).getByLabelText("Type"));
    expect(screen.getAllByRole("article").map((article) => article.getAttribute("data-trait-type"))).toEqual([
      "llm",
      "regex",
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Remove trait b" }));
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Add trait" }));
  });

  test("removing the last trait sends null", () => {
    const editor = renderEditor(
      RubricSchema.parse({ regex_traits: [{ name: "x", description: "d", pattern: "a" }] }),
    );
    fireEvent.click(screen.getByRole("button", { name: "Remove trait x" }));
    expect(editor.latest()).toBeNull();
    expect(screen.getByText("No global traits yet.")).toBeTruthy();
  });

  test("the regex test box shows the server's matches, and a catastrophic pattern's timeout as an error", async () => {
    renderEditor(
      RubricSchema.parse({
        regex_traits: [{ name: "cites", description: "d", pattern: String.raw`\[\d+\]` }],
      }),
    );
    const box = screen.getByLabelText("Test the pattern on a sample text");
    fireEvent.change(box, { target: { value: "See [1] and [22]." } });
    await screen.findByText("— 2 matches", { exact: false }, { timeout: 5000 });
    expect(screen.getByText("[22]")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Pattern (Python regex)"), { target: { value: "(a+)+$" } });
    fireEvent.change(box, { target: { value: `${"a".repeat(40)}!` } });
    const error = await screen.findByText(/^Pattern error:/, {}, { timeout: 15_000 });
    expect(error.textContent).toMatch(/time/i);
  }, 20_000);

  test("an unreadable import file is reported in the page, and a good one adds the trait", async () => {
    const editor = renderEditor(null);
    const input = screen.getByLabelText("Import literal trait") as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(["{oops"], "tone.json")] } });
    expect((await screen.findByRole("alert")).textContent).toBe("tone.json: The file is not readable JSON");
    const good = JSON.stringify({ trait_name: "tone", classes: { a: "A", b: "B" } });
    fireEvent.change(input, { target: { files: [new File([good], "tone.json")] } });
    await waitFor(() => expect(editor.latest()?.llm_traits[0]?.name).toBe("tone"));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
