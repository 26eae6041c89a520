// The shapes of the server's requests and responses as types, for the web app (`packages/web` imports them with
// `import type … from "karenina"`). Each is `z.infer` of the schema its routes validate with: one source of truth.
export type * from "./common.js";
export type * from "./config.js";
export type * from "./curator.js";
export type * from "./database.js";
export type * from "./generate.js";
export type * from "./results.js";
export type * from "./rubrics.js";
export type * from "./run-setup.js";
export type * from "./summary.js";
export type * from "./template-builder.js";
