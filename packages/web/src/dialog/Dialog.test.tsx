// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Dialog } from "./Dialog.js";
import { wrappedFocusTarget } from "./focus-trap.js";
import { APP_ROOT_ID } from "./modal-layer.js";

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open ? (
        <Dialog
          title="Settings"
          onClose={() => setOpen(false)}
          footer={
            <button type="button" onClick={() => setOpen(false)}>
              Done
            </button>
          }
        >
          <label>
            Name <input />
          </label>
        </Dialog>
      ) : null}
    </>
  );
}

/** A dialog whose one control removes itself when pressed: focus falls to the body. */
function VanishingControl() {
  const [open, setOpen] = useState(true);
  const [shown, setShown] = useState(true);
  return open ? (
    <Dialog title="Vanishing" onClose={() => setOpen(false)}>
      {shown ? (
        <button type="button" onClick={() => setShown(false)}>
          Remove me
        </button>
      ) : (
        <p>Removed.</p>
      )}
    </Dialog>
  ) : null;
}

function renderInApp() {
  const app = document.createElement("div");
  app.id = APP_ROOT_ID;
  document.body.append(app);
  return render(<Opener />, { container: app });
}

beforeEach(() => {
  document.body.innerHTML = "";
});
afterEach(cleanup);

describe("the dialog", () => {
  test("opens with focus on its first control, the page behind inert", () => {
    renderInApp();
    const opener = screen.getByRole("button", { name: "Open" });
    opener.focus();
    fireEvent.click(opener);
    expect(screen.getByRole("dialog", { name: "Settings" })).toBeDefined();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Close settings" }));
    expect(document.getElementById(APP_ROOT_ID)?.hasAttribute("inert")).toBe(true);
  });

  test("Tab from the last control wraps to the first, Shift+Tab from the first to the last", () => {
    renderInApp();
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    const dialog = screen.getByRole("dialog");
    const close = screen.getByRole("button", { name: "Close settings" });
    const done = screen.getByRole("button", { name: "Done" });
    done.focus();
    fireEvent.keyDown(dialog, { key: "Tab" });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(dialog, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(done);
  });

  test("Escape closes it, gives focus back to the opener and the page its interactivity", () => {
    renderInApp();
    const opener = screen.getByRole("button", { name: "Open" });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(document.getElementById(APP_ROOT_ID)?.hasAttribute("inert")).toBe(false);
  });

  test("Escape closes it after its focused control was removed and focus fell to the body", async () => {
    const app = document.createElement("div");
    app.id = APP_ROOT_ID;
    document.body.append(app);
    render(<VanishingControl />, { container: app });
    const remove = screen.getByRole("button", { name: "Remove me" });
    remove.focus();
    fireEvent.click(remove);
    expect(screen.queryByRole("button", { name: "Remove me" })).toBeNull();
    // Focus is given back to the dialog once the removal is seen.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("dialog")));
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  test("Escape pressed with focus on the body closes only the topmost of two dialogs", () => {
    const app = document.createElement("div");
    app.id = APP_ROOT_ID;
    document.body.append(app);
    function Nested() {
      const [inner, setInner] = useState(false);
      return (
        <Dialog title="Outer" onClose={() => {}}>
          <button type="button" onClick={() => setInner(true)}>
            More
          </button>
          {inner ? (
            <Dialog title="Inner" onClose={() => setInner(false)}>
              <p>Inner.</p>
            </Dialog>
          ) : null}
        </Dialog>
      );
    }
    render(<Nested />, { container: app });
    fireEvent.click(screen.getByRole("button", { name: "More" }));
    expect(screen.queryByRole("dialog", { name: "Inner" })).not.toBeNull();
    (document.activeElement as HTMLElement | null)?.blur();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(screen.queryByRole("dialog", { name: "Inner" })).toBeNull();
    expect(screen.queryByRole("dialog", { name: "Outer" })).not.toBeNull();
  });

  test("a click on the backdrop closes it; a click inside does not", () => {
    renderInApp();
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    fireEvent.mouseDown(screen.getByRole("dialog"));
    expect(screen.queryByRole("dialog")).not.toBeNull();
    const backdrop = screen.getByRole("dialog").parentElement as HTMLElement;
    fireEvent.mouseDown(backdrop);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("where Tab sends focus inside a dialog", () => {
  const [a, b, c] = [
    document.createElement("button"),
    document.createElement("button"),
    document.createElement("button"),
  ];
  const all = [a, b, c];

  test("wraps at both ends and leaves the middle to the browser", () => {
    expect(wrappedFocusTarget(all, c, false)).toBe(a);
    expect(wrappedFocusTarget(all, a, true)).toBe(c);
    expect(wrappedFocusTarget(all, b, false)).toBeUndefined();
    expect(wrappedFocusTarget(all, b, true)).toBeUndefined();
  });

  test("pulls focus back in when it is outside, and does nothing without controls", () => {
    expect(wrappedFocusTarget(all, document.body, false)).toBe(a);
    expect(wrappedFocusTarget(all, null, true)).toBe(c);
    expect(wrappedFocusTarget([], document.body, false)).toBeUndefined();
  });
});
