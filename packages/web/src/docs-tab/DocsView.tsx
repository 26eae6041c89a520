import { useEffect, useMemo, useState } from "react";
import { DocPage } from "./DocPage.js";
import { type DocRoute, docHash, docRouteOf } from "./doc-route.js";
import { DOC_IMAGES } from "./doc-sources.js";
import { headingElementId, headingsOf } from "./headings.js";
import { DEFAULT_DOC_SLUG, DOC_PAGES, isDocSlug } from "./pages.js";
import { searchDocs } from "./search.js";
import { useAllDocMarkdown, useDocMarkdown } from "./use-doc-markdown.js";
import "./docs-tab.css";

function currentRoute(): DocRoute {
  return docRouteOf(window.location.hash) ?? { slug: DEFAULT_DOC_SLUG };
}

/** The page and heading the location hash names, following every change (links, the back button). */
function useDocRoute(): DocRoute {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const follow = () => {
      if (docRouteOf(window.location.hash) !== undefined) setRoute(currentRoute());
    };
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  return route;
}

function DocSearch() {
  const [query, setQuery] = useState("");
  const [used, setUsed] = useState(false);
  const markdown = useAllDocMarkdown(used);
  const hits = useMemo(() => {
    if (markdown === undefined) return undefined;
    const pages = DOC_PAGES.map((page) => ({ ...page, headings: headingsOf(markdown[page.slug] ?? "") }));
    return searchDocs(pages, query);
  }, [markdown, query]);
  return (
    <search className="docs-search">
      <label htmlFor="docs-search-input">Search the docs</label>
      <input
        id="docs-search-input"
        type="search"
        value={query}
        onFocus={() => setUsed(true)}
        onChange={(event) => {
          setUsed(true);
          setQuery(event.target.value);
        }}
        placeholder="Titles and headings"
      />
      {query.trim() === "" ? null : (
        <ul className="docs-search-hits" aria-label="Search results">
          {hits === undefined ? <li className="docs-muted">Searching…</li> : null}
          {hits?.length === 0 ? <li className="docs-muted">No title or heading matches.</li> : null}
          {hits?.map((hit) => (
            <li key={hit.hash}>
              <a href={hit.hash}>{hit.text}</a> <span className="docs-muted">— {hit.page}</span>
            </li>
          ))}
        </ul>
      )}
    </search>
  );
}

function PageContent({ slug, anchor }: DocRoute) {
  const page = useDocMarkdown(slug);

  // A heading named in the route is scrolled to once its page is shown; a new page (shown anew) starts at its top.
  const shown = page.status === "ready";
  useEffect(() => {
    if (!shown) return;
    const target = anchor === undefined ? undefined : document.getElementById(headingElementId(anchor));
    if (target) target.scrollIntoView();
    else document.querySelector(".docs-tab")?.scrollIntoView();
  }, [shown, anchor]);

  switch (page.status) {
    case "loading":
      return <p className="doc-page docs-muted">Loading the page…</p>;
    case "failed":
      return (
        <p className="doc-page docs-error" role="alert">
          {page.message}
        </p>
      );
    default:
      return <DocPage slug={slug} markdown={page.markdown} images={DOC_IMAGES} />;
  }
}

/** Tab 4: the user guides of `docs/`, a page list with search, and the chosen page (`#/docs/<page>/<heading>`). */
export function DocsView() {
  const { slug, anchor } = useDocRoute();
  return (
    <div className="docs-tab">
      <nav className="docs-nav" aria-label="Documentation pages">
        <DocSearch />
        <ul className="docs-page-list">
          {DOC_PAGES.map((page) => (
            <li key={page.slug}>
              <a href={docHash(page.slug)} aria-current={page.slug === slug ? "page" : undefined}>
                {page.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {isDocSlug(slug) ? (
        <PageContent slug={slug} anchor={anchor} />
      ) : (
        <section className="doc-page">
          <h2>No such page</h2>
          <p>
            The docs have no page named “{slug}”. Choose one from the list, or read{" "}
            <a href={docHash(DEFAULT_DOC_SLUG)}>the web app's guide</a>.
          </p>
        </section>
      )}
    </div>
  );
}
