import { describe, expect, test } from "vitest";
import type { CurationChanges, CurationSaved } from "../library-types/index.js";
import { curation } from "./__fixtures__/curation.js";
import { CurationController, type CurationTransport } from "./curation-controller.js";
import { toggleFinished } from "./curation-store.js";

/** A transport that records each save and fails while `failing` is set. */
function recordingTransport(count = 5) {
  const sent: CurationChanges[] = [];
  const control = { failing: false };
  const transport: CurationTransport = {
    load: async () => curation(count),
    save: async (changes): Promise<CurationSaved> => {
      if (control.failing) throw new Error("the karenina server cannot be reached");
      sent.push(structuredClone(changes));
      return {
        name: "bench",
        question_count: count,
        finished_count: 0,
        saved_questions: [],
        deleted: [],
        last_modified: "2026-02-02T12:03:00Z",
      };
    },
  };
  return { sent, control, transport };
}

const id = (n: number) => `urn:uuid:question-${n}`;

describe("the curation controller's autosave", () => {
  test("edits within the debounce go out as one save holding only the changed questions", async () => {
    const { sent, transport } = recordingTransport();
    const controller = new CurationController(transport, { delayMs: 30 });
    await controller.load();
    controller.apply((s) => toggleFinished(s, id(1)));
    controller.apply((s) => toggleFinished(s, id(3)));
    expect(sent).toHaveLength(0);
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]?.upsert?.map((q) => q.id)).toEqual([id(1), id(3)]);
    expect(controller.unsaved).toBe(false);
  });

  test("a failed save keeps the edits, reports it, and Retry sends them", async () => {
    const { sent, control, transport } = recordingTransport();
    const failures: string[] = [];
    const controller = new CurationController(transport, {
      delayMs: 10,
      retryDelayMs: 60_000,
      onSaveFailed: (message) => failures.push(message),
    });
    await controller.load();
    control.failing = true;
    controller.apply((s) => toggleFinished(s, id(2)));
    await expect.poll(() => failures.length).toBe(1);
    expect(controller.unsaved).toBe(true);
    const state = controller.state;
    expect(state.state === "loaded" && state.curation.save.state).toBe("failed");
    control.failing = false;
    await controller.flush();
    expect(sent.map((body) => body.upsert?.map((q) => q.id))).toEqual([[id(2)]]);
    expect(controller.unsaved).toBe(false);
  });

  test("closing sends a debounced edit at once instead of dropping it", async () => {
    const { sent, transport } = recordingTransport();
    const controller = new CurationController(transport, { delayMs: 60_000 });
    await controller.load();
    controller.apply((s) => toggleFinished(s, id(4)));
    await controller.close();
    expect(sent).toHaveLength(1);
  });

  test("an edit made during a save goes in the next one", async () => {
    const { sent, transport } = recordingTransport();
    const controller = new CurationController(transport, { delayMs: 60_000 });
    await controller.load();
    controller.apply((s) => toggleFinished(s, id(1)));
    const first = controller.flush();
    controller.apply((s) => toggleFinished(s, id(5)));
    await Promise.all([first, controller.flush()]);
    expect(sent.map((body) => body.upsert?.map((q) => q.id))).toEqual([[id(1)], [id(5)]]);
  });

  test("the originals of the first load outlive a second controller of the same page", async () => {
    const originals: Record<string, string> = {};
    const { transport } = recordingTransport(2);
    await new CurationController(transport, { originals }).load();
    expect(Object.keys(originals)).toEqual([id(1), id(2)]);
  });
});
