import { docHash } from "./doc-route.js";
import type { DocHeading } from "./headings.js";

/** A page as the search knows it: its slug, its label in the list, and its headings. */
export interface SearchablePage {
  readonly slug: string;
  readonly label: string;
  readonly headings: readonly DocHeading[];
}

export interface DocSearchHit {
  /** The heading (or page label) that matched. */
  readonly text: string;
  /** The page's label, for context. */
  readonly page: string;
  readonly hash: string;
}

/** Pages and headings whose text holds every word of the query (case-insensitive), in page order; at most `limit`. */
export function searchDocs(pages: readonly SearchablePage[], query: string, limit = 20): DocSearchHit[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const matches = (text: string) => words.every((word) => text.toLowerCase().includes(word));
  const hits: DocSearchHit[] = [];
  for (const page of pages) {
    if (matches(page.label)) hits.push({ text: page.label, page: page.label, hash: docHash(page.slug) });
    for (const heading of page.headings) {
      if (matches(heading.text)) {
        hits.push({ text: heading.text, page: page.label, hash: docHash(page.slug, heading.id) });
      }
    }
  }
  return hits.slice(0, limit);
}
