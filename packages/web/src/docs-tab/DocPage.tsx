import { type ComponentProps, type ReactNode, useMemo } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { resolveDocImage, resolveDocLink } from "./doc-links.js";
import { docHash } from "./doc-route.js";
import { type HastNode, hastTextOf, rehypeHeadingIds } from "./headings.js";

export interface DocPageProps {
  readonly slug: string;
  readonly markdown: string;
  /** The bundled images by their path under `docs/`. */
  readonly images: Readonly<Record<string, string>>;
}

type HeadingTag = "h2" | "h3" | "h4" | "h5" | "h6";
const SHIFTED: readonly HeadingTag[] = ["h2", "h3", "h4", "h5", "h6", "h6"];

function heading(depth: number, slug: string) {
  // The app's name is the page's h1: a page's own levels move one down.
  const Tag = SHIFTED[depth - 1] ?? "h6";
  return function DocHeading({ node, children, id }: ComponentProps<"h1"> & { node?: HastNode }) {
    const anchor = node?.properties?.dataAnchor;
    // The link sits beside the heading, not in it, so the heading's accessible name stays its own text.
    return (
      <div className="doc-heading-row">
        <Tag id={id} className="doc-heading">
          {children}
        </Tag>
        {typeof anchor === "string" && node ? (
          <a
            className="doc-heading-anchor"
            href={docHash(slug, anchor)}
            aria-label={`Link to section: ${hastTextOf(node)}`}
          >
            #
          </a>
        ) : null}
      </div>
    );
  };
}

function components(slug: string, images: DocPageProps["images"]): Components {
  return {
    h1: heading(1, slug),
    h2: heading(2, slug),
    h3: heading(3, slug),
    h4: heading(4, slug),
    h5: heading(5, slug),
    h6: heading(6, slug),
    a: ({ href, children }) => (
      <DocLinkElement href={href ?? ""} slug={slug}>
        {children}
      </DocLinkElement>
    ),
    img: ({ src, alt }) => {
      const url = typeof src === "string" ? resolveDocImage(src, slug, images) : undefined;
      if (url === undefined) return <span className="doc-missing-image">[image: {alt ?? ""}]</span>;
      return <img className="doc-image" src={url} alt={alt ?? ""} loading="lazy" />;
    },
  };
}

function DocLinkElement({ href, slug, children }: { href: string; slug: string; children: ReactNode }) {
  const link = resolveDocLink(href, slug);
  switch (link.kind) {
    case "page":
      return <a href={link.hash}>{children}</a>;
    case "external":
      return (
        <a href={link.href} target="_blank" rel="noopener noreferrer">
          {children}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      );
    default:
      return <span className="doc-unavailable-link">{children}</span>;
  }
}

/**
 * One page of the docs, rendered from its Markdown with GitHub's extensions (tables, task lists, strikethrough).
 * Raw HTML in the Markdown is never rendered (react-markdown's default, kept on purpose: no rehype-raw).
 */
export function DocPage({ slug, markdown, images }: DocPageProps) {
  const rendering = useMemo(() => components(slug, images), [slug, images]);
  return (
    <article className="doc-page" aria-label="Documentation page">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeHeadingIds]} components={rendering}>
        {markdown}
      </Markdown>
    </article>
  );
}
