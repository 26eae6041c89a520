export { mountWebApp, type WebAppOptions } from "./web-app-routes.js";
export { defaultWebDir } from "./web-dir.js";
