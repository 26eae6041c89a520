import { useEffect, useState } from "react";
import { loadAllDocMarkdown, loadDocMarkdown } from "./doc-sources.js";

export type DocMarkdownState =
  | { readonly status: "loading" }
  | { readonly status: "ready"; readonly markdown: string }
  | { readonly status: "failed"; readonly message: string };

/** The Markdown of page `slug`, fetched when the page is shown. */
export function useDocMarkdown(slug: string): DocMarkdownState {
  const [state, setState] = useState<{ slug: string; value: DocMarkdownState }>({
    slug,
    value: { status: "loading" },
  });
  useEffect(() => {
    let current = true;
    setState({ slug, value: { status: "loading" } });
    loadDocMarkdown(slug).then(
      (markdown) => current && setState({ slug, value: { status: "ready", markdown } }),
      (error: unknown) =>
        current &&
        setState({
          slug,
          value: { status: "failed", message: error instanceof Error ? error.message : String(error) },
        }),
    );
    return () => {
      current = false;
    };
  }, [slug]);
  return state.slug === slug ? state.value : { status: "loading" };
}

/** Every page's Markdown once `wanted` turns true (the search asks when first used), else undefined. */
export function useAllDocMarkdown(wanted: boolean): Readonly<Record<string, string>> | undefined {
  const [pages, setPages] = useState<Record<string, string>>();
  useEffect(() => {
    if (!wanted || pages !== undefined) return;
    let current = true;
    void loadAllDocMarkdown().then((loaded) => current && setPages(loaded));
    return () => {
      current = false;
    };
  }, [wanted, pages]);
  return pages;
}
