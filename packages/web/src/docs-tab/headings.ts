/** A heading of a page: its level in the Markdown (1–6), its text and its anchor id. */
export interface DocHeading {
  readonly depth: number;
  readonly text: string;
  readonly id: string;
}

/**
 * Anchor ids as GitHub makes them (so `[Jobs](#jobs)` written for GitHub works here too): lower case, punctuation
 * dropped, each space a hyphen; a repeated id gets `-1`, `-2`…. One slugger per page.
 */
export function createSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = text
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

/** The text a heading's inline Markdown shows (code spans, links and emphasis reduced to their text). */
export function plainHeadingText(inline: string): string {
  return inline
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|\W)[*_](.+?)[*_](?=\W|$)/g, "$1$2")
    .replace(/\s+#+\s*$/, "")
    .trim();
}

/** The ATX headings (`## Title`) of a page, outside fenced code blocks, with the ids the rendered page gives them. */
export function headingsOf(markdown: string): DocHeading[] {
  const slug = createSlugger();
  const headings: DocHeading[] = [];
  let fence: string | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark !== undefined) {
      if (fence === undefined) fence = fenceMark;
      else if (fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^ {0,3}(#{1,6})\s+(.*)$/.exec(line);
    if (heading === null) continue;
    const text = plainHeadingText(heading[2] ?? "");
    headings.push({ depth: (heading[1] ?? "").length, text, id: slug(text) });
  }
  return headings;
}

/**
 * The element id of a heading with anchor `anchor`: prefixed, so a heading named like an id of the app's own
 * (`summary`, `jobs`) cannot collide with it.
 */
export function headingElementId(anchor: string): string {
  return `doc-${anchor}`;
}

/** Gives each heading element of a rendered page (hast) its anchor id, with the same slugger as {@link headingsOf}. */
export function rehypeHeadingIds() {
  return (tree: HastNode) => {
    const slug = createSlugger();
    const visit = (node: HastNode) => {
      if (node.type === "element" && /^h[1-6]$/.test(node.tagName ?? "")) {
        const anchor = slug(hastTextOf(node));
        node.properties = { ...node.properties, id: headingElementId(anchor), dataAnchor: anchor };
        return;
      }
      for (const child of node.children ?? []) visit(child);
    };
    visit(tree);
  };
}

/** The part of a hast node this module reads (hast's own types are not a dependency of the app). */
export interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/** The text of a hast node and its descendants. */
export function hastTextOf(node: HastNode): string {
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(hastTextOf).join("");
}
