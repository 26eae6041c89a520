import { readFile, realpath, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import type { Context } from "hono";
import type { ServerApp } from "../core/index.js";
import { isServerPath, presentedToken, tokenMatches } from "../security/index.js";
import { contentTypeOf } from "./content-types.js";
import { NOT_BUILT_PAGE } from "./not-built-page.js";

export interface WebAppOptions {
  /** The built web app's folder (its `index.html` and assets); absent → a page saying it is not built. */
  readonly webDir: string;
  readonly token: string;
  /** Whether the page may carry the token without being asked with it (loopback; the Host guard stands guard). */
  readonly tokenForEveryPage: boolean;
}

/** The file under `root` a URL path names, or undefined when it escapes `root` or is not a regular file. */
async function assetFile(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0")) return undefined;
  try {
    const realRoot = await realpath(root);
    const file = await realpath(resolve(realRoot, `.${sep}${decoded}`));
    const inside = relative(realRoot, file);
    if (inside === "" || inside.startsWith("..") || resolve(realRoot, inside) !== file) return undefined;
    return (await stat(file)).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

/** `index.html` with the token in `<meta name="karenina-token">` when the page may have it. */
function withToken(html: string, token: string | undefined): string {
  if (token === undefined) return html;
  const meta = `<meta name="karenina-token" content="${token}">`;
  return html.includes("</head>") ? html.replace("</head>", `${meta}</head>`) : `${meta}${html}`;
}

async function indexPage(c: Context, options: WebAppOptions): Promise<Response> {
  const index = await readFile(join(options.webDir, "index.html"), "utf8").catch(() => undefined);
  if (index === undefined) return c.html(NOT_BUILT_PAGE, 200);
  const handOver = options.tokenForEveryPage || tokenMatches(presentedToken(c), options.token);
  c.header("cache-control", "no-store");
  c.header("referrer-policy", "no-referrer");
  return c.html(withToken(index, handOver ? options.token : undefined), 200);
}

/**
 * The web app: a built asset when the path names one, else `index.html` (the app routes in the browser). Never
 * answers under `/api` or `/ws`: those fall through to the JSON 404. Mount after every route group.
 */
export function mountWebApp(app: ServerApp, options: WebAppOptions): void {
  app.get("*", async (c, next) => {
    if (isServerPath(c.req.path)) return next();
    const file = c.req.path === "/" ? undefined : await assetFile(options.webDir, c.req.path);
    if (file === undefined || file.endsWith(`${sep}index.html`)) return indexPage(c, options);
    c.header("content-type", contentTypeOf(file));
    c.header("x-content-type-options", "nosniff");
    return c.body(new Uint8Array(await readFile(file)), 200);
  });
}
