/** The page served when the web app's assets are absent: the API works, the pages do not. */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>karenina</title></head>
<body>
<h1>karenina server</h1>
<p>The web app is not built, so there are no pages to show. The REST API is running: see
<a href="/api/openapi.json">/api/openapi.json</a>.</p>
<p>To get the pages, build the web app (<code>npm run build -w packages/web</code>) or install a release of
karenina, which ships it prebuilt.</p>
</body>
</html>
`;
