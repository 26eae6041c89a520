/**
 * The pages and images of `docs/`, bundled by Vite at build time as files under `assets/` (served by `karenina
 * serve` like the rest of the app) and fetched when shown: the guides are not JavaScript, so they weigh neither
 * on the app's first load nor on its JavaScript budget.
 */
import { DOC_PAGES } from "./pages.js";

const DOCS_PREFIX = "../../../../docs/";

const markdownUrls = import.meta.glob<string>(
  "../../../../docs/{web-app,demo,import-and-init,generate-templates,verify-flags,dry-run,agentic,server,storage}.md",
  { query: "?url", import: "default", eager: true },
);

const imageUrls = import.meta.glob<string>("../../../../docs/images/**/*.{png,jpg,jpeg,gif,svg,webp}", {
  query: "?url",
  import: "default",
  eager: true,
});

/** The bundled images' URLs, by their path relative to `docs/` (`images/web-app/summary.png`). */
export const DOC_IMAGES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(imageUrls).map(([path, url]) => [path.slice(DOCS_PREFIX.length), url] as const),
);

/** A page's Markdown could not be fetched from the server. */
export class DocPageLoadError extends Error {
  constructor(slug: string, cause: string) {
    super(`The page "${slug}" could not be loaded (${cause}). Reload the page to try again.`);
    this.name = "DocPageLoadError";
  }
}

const loaded = new Map<string, Promise<string>>();

async function fetchMarkdown(slug: string): Promise<string> {
  const url = markdownUrls[`${DOCS_PREFIX}${slug}.md`];
  if (url === undefined) throw new DocPageLoadError(slug, "it is not bundled with the app");
  const response = await fetch(url).catch((error: unknown) => {
    throw new DocPageLoadError(slug, error instanceof Error ? error.message : String(error));
  });
  if (!response.ok) throw new DocPageLoadError(slug, `the server answered ${response.status}`);
  return response.text();
}

/** A listed page's Markdown, fetched once (a failed fetch is tried again next time). */
export function loadDocMarkdown(slug: string): Promise<string> {
  let page = loaded.get(slug);
  if (page === undefined) {
    page = fetchMarkdown(slug);
    loaded.set(slug, page);
    page.catch(() => loaded.delete(slug));
  }
  return page;
}

/** Every listed page's Markdown (for the search over headings), by slug; pages that fail are left out. */
export async function loadAllDocMarkdown(): Promise<Record<string, string>> {
  const pages = await Promise.all(
    DOC_PAGES.map((page) =>
      loadDocMarkdown(page.slug).then(
        (text) => [[page.slug, text] as const],
        () => [],
      ),
    ),
  );
  return Object.fromEntries(pages.flat());
}
