import { DEFAULT_DOC_SLUG } from "./pages.js";

/** What a `#/docs/…` hash names: a page and, optionally, a heading on it (its anchor id). */
export interface DocRoute {
  readonly slug: string;
  readonly anchor?: string;
}

function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/**
 * The page and heading a location hash names: `#/docs` (the default page), `#/docs/server`,
 * `#/docs/server/jobs`. Undefined when the hash is not the Docs tab's.
 */
export function docRouteOf(hash: string): DocRoute | undefined {
  const match = /^#\/docs(?:\/([^/?#]*))?(?:\/([^?#]*))?(?:[?#].*)?$/.exec(hash);
  if (match === null) return undefined;
  const slug = match[1] ? decoded(match[1]) : undefined;
  const anchor = match[2] ? decoded(match[2]) : undefined;
  if (slug === undefined || slug === "") return { slug: DEFAULT_DOC_SLUG };
  return anchor ? { slug, anchor } : { slug };
}

/** The hash route of a page, or of a heading on it: `#/docs/server/jobs`. */
export function docHash(slug: string, anchor?: string): string {
  const page = `#/docs/${encodeURIComponent(slug)}`;
  return anchor ? `${page}/${encodeURIComponent(anchor)}` : page;
}
