/**
 * CodeMirror 6 for the template editor, loaded on demand (`import("./codemirror.js")`) so the app's first
 * bundle does not carry it. One module for the editable view and the diff view, so they share one chunk.
 */
import { defaultKeymap, history, historyKeymap, indentLess, indentMore } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { unifiedMergeView } from "@codemirror/merge";
import { Annotation, Compartment, EditorState, type Extension } from "@codemirror/state";
import {
  type Command,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";

export type EditorLanguage = "Python" | "JavaScript";

const INDENT = "    ";

/** Marks the transactions that bring the view up to the `value` it was given (not user edits). */
const fromOutside = Annotation.define<boolean>();

const languageOf = (language: EditorLanguage): Extension => (language === "Python" ? python() : javascript());

const isDark = () => document.documentElement.classList.contains("dark");

/** Tab inserts four spaces at the cursor (spec 07 §1.3.5); with a selection it indents the selected lines. */
const insertIndent: Command = (view) => {
  if (view.state.selection.ranges.some((range) => !range.empty)) return indentMore(view);
  view.dispatch(view.state.replaceSelection(INDENT), { scrollIntoView: true, userEvent: "input" });
  return true;
};

const baseTheme = EditorView.theme({
  "&": { backgroundColor: "var(--bg)", color: "var(--text)", fontSize: "0.9rem" },
  ".cm-content": {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    caretColor: "var(--text)",
  },
  ".cm-gutters": {
    backgroundColor: "var(--surface)",
    color: "var(--muted)",
    borderRight: "1px solid var(--border)",
  },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--surface) 60%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--surface)", color: "var(--text)" },
  "&.cm-focused": { outline: "3px solid var(--focus)", outlineOffset: "2px" },
  ".cm-cursor": { borderLeftColor: "var(--text)" },
});

/** Follows the `dark` class on `<html>` (the app's theme toggle) for CodeMirror's own light/dark defaults. */
function followTheme(view: EditorView, theme: Compartment): () => void {
  const observer = new MutationObserver(() => {
    view.dispatch({ effects: theme.reconfigure(EditorView.darkTheme.of(isDark())) });
  });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}

interface ViewBasics {
  readonly parent: HTMLElement;
  readonly value: string;
  readonly language: EditorLanguage;
  readonly label: string;
}

/** A view with line numbers, the language's highlighting, the app's theme (followed) and `extensions`. */
function themedView(
  options: ViewBasics,
  extensions: Extension[],
): { view: EditorView; language: Compartment; destroy(): void } {
  const language = new Compartment();
  const theme = new Compartment();
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.value,
      extensions: [
        lineNumbers(),
        language.of(languageOf(options.language)),
        theme.of(EditorView.darkTheme.of(isDark())),
        syntaxHighlighting(classHighlighter),
        baseTheme,
        // The content is focusable anyway (contenteditable); the explicit tabindex tells checkers such as axe
        // that the scroller has keyboard access, without adding a tab stop.
        EditorView.contentAttributes.of({ "aria-label": options.label, tabindex: "0" }),
        ...extensions,
      ],
    }),
  });
  const stopFollowing = followTheme(view, theme);
  return {
    view,
    language,
    destroy() {
      stopFollowing();
      view.destroy();
    },
  };
}

export interface CodeViewOptions extends ViewBasics {
  readonly onChange: (next: string) => void;
  readonly onSave: () => void;
}

/** The editable view; `setValue` brings it to a new text with the cursor mapped through the change. */
export interface CodeView {
  setValue(next: string): void;
  setLanguage(language: EditorLanguage): void;
  focus(): void;
  destroy(): void;
}

/** The smallest single change that turns `from` into `to` (shared prefix and suffix kept). */
export function minimalChange(from: string, to: string): { from: number; to: number; insert: string } | null {
  if (from === to) return null;
  let start = 0;
  const shorter = Math.min(from.length, to.length);
  while (start < shorter && from[start] === to[start]) start++;
  let end = 0;
  while (end < shorter - start && from[from.length - 1 - end] === to[to.length - 1 - end]) end++;
  return { from: start, to: from.length - end, insert: to.slice(start, to.length - end) };
}

export function createCodeView(options: CodeViewOptions): CodeView {
  const { view, language, destroy } = themedView(options, [
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    indentUnit.of(INDENT),
    EditorState.tabSize.of(4),
    keymap.of([
      {
        key: "Mod-s",
        preventDefault: true,
        run: () => {
          options.onSave();
          return true;
        },
      },
      { key: "Tab", run: insertIndent, shift: indentLess },
      ...defaultKeymap,
      ...historyKeymap,
    ]),
    EditorView.updateListener.of((update) => {
      if (!update.docChanged) return;
      if (update.transactions.some((tr) => tr.annotation(fromOutside))) return;
      options.onChange(update.state.doc.toString());
    }),
  ]);
  return {
    setValue(next) {
      const change = minimalChange(view.state.doc.toString(), next);
      if (change) view.dispatch({ changes: change, annotations: fromOutside.of(true) });
    },
    setLanguage(next) {
      view.dispatch({ effects: language.reconfigure(languageOf(next)) });
    },
    focus: () => view.focus(),
    destroy,
  };
}

export interface DiffViewOptions extends ViewBasics {
  readonly original: string;
}

/** A read-only unified diff of `value` against `original` (deleted lines shown above the lines that replace them). */
export function createDiffView(options: DiffViewOptions): { destroy(): void } {
  const { destroy } = themedView(options, [
    EditorState.readOnly.of(true),
    unifiedMergeView({ original: options.original, mergeControls: false, gutter: true }),
  ]);
  return { destroy };
}
