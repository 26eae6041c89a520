export { type AppOptions, type BuiltServer, buildServer, createServerApp, OPENAPI_PATH } from "./app.js";
export * from "./core/index.js";
export { type RunningServer, type StartServerOptions, startServer } from "./start-server.js";
