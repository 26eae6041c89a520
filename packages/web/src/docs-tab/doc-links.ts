import { docHash } from "./doc-route.js";
import { isDocSlug } from "./pages.js";

/**
 * Where a link in a page leads, once resolved against `docs/`:
 * - `page`: a page of the tab (or a heading on one) — followed inside the tab through its hash route;
 * - `external`: a web address (http, https, mailto) — opened in a new browser tab;
 * - `unavailable`: anything else (a file of the repository, a page the tab does not show, another scheme) —
 *   shown as plain text, never as a link that would lead nowhere.
 */
export type DocLink =
  | { readonly kind: "page"; readonly hash: string }
  | { readonly kind: "external"; readonly href: string }
  | { readonly kind: "unavailable" };

// Relative links are resolved as a browser would, against this stand-in for the folder the pages live in.
const DOCS_BASE = "https://docs.invalid/docs/";
const EXTERNAL_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

function anchorOf(url: URL): string | undefined {
  if (url.hash.length <= 1) return undefined;
  try {
    return decodeURIComponent(url.hash.slice(1));
  } catch {
    return url.hash.slice(1);
  }
}

/** Resolves a link's `href` written in page `currentSlug` (see {@link DocLink}). */
export function resolveDocLink(href: string, currentSlug: string): DocLink {
  // react-markdown empties the href of an unsafe link (`javascript:`…): it must not become a link to this page.
  if (href.trim() === "") return { kind: "unavailable" };
  if (href.startsWith("#")) {
    const anchor = anchorOf(new URL(href, DOCS_BASE));
    return { kind: "page", hash: docHash(currentSlug, anchor) };
  }
  let url: URL;
  try {
    url = new URL(href, `${DOCS_BASE}${currentSlug}.md`);
  } catch {
    return { kind: "unavailable" };
  }
  if (url.origin !== new URL(DOCS_BASE).origin) {
    return EXTERNAL_PROTOCOLS.has(url.protocol)
      ? { kind: "external", href: url.href }
      : { kind: "unavailable" };
  }
  const page = /^\/docs\/([^/]+)\.md$/.exec(url.pathname)?.[1];
  if (page === undefined || !isDocSlug(page)) return { kind: "unavailable" };
  return { kind: "page", hash: docHash(page, anchorOf(url)) };
}

/**
 * The URL of an image a page shows (`images/web-app/x.png`, relative to `docs/`), looked up among the images
 * bundled with the app (`images`: docs-relative path → URL), or undefined: remote and unknown images are not
 * loaded (their alt text is shown instead).
 */
export function resolveDocImage(
  src: string,
  currentSlug: string,
  images: Readonly<Record<string, string>>,
): string | undefined {
  let url: URL;
  try {
    url = new URL(src, `${DOCS_BASE}${currentSlug}.md`);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(DOCS_BASE).origin || !url.pathname.startsWith("/docs/")) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname.slice("/docs/".length));
  } catch {
    return undefined;
  }
  return Object.hasOwn(images, path) ? images[path] : undefined;
}
