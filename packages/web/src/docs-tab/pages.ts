/** A user-facing page of `docs/`, shown in the Docs tab under `#/docs/<slug>` (the file is `docs/<slug>.md`). */
export interface DocPageEntry {
  readonly slug: string;
  /** The label in the page list (short; the page's own first heading is its title). */
  readonly label: string;
}

/**
 * The pages the Docs tab shows, in the order of the page list: the user guides. The project's internal notes
 * (decisions, architecture, security) are not listed; a link to one is shown as plain text.
 */
export const DOC_PAGES: readonly DocPageEntry[] = [
  { slug: "web-app", label: "The web app" },
  { slug: "demo", label: "The bundled demo" },
  { slug: "import-and-init", label: "Importing questions" },
  { slug: "generate-templates", label: "Generating templates" },
  { slug: "verify-flags", label: "karenina verify flags" },
  { slug: "dry-run", label: "Estimating a run" },
  { slug: "agentic", label: "Agentic evaluation" },
  { slug: "server", label: "karenina serve" },
  { slug: "storage", label: "Database storage" },
];

/** The page shown by `#/docs` without a page named. */
export const DEFAULT_DOC_SLUG = "web-app";

export function isDocSlug(slug: string): boolean {
  return DOC_PAGES.some((page) => page.slug === slug);
}
