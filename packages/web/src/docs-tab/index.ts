export { DocsTab } from "./DocsTab.js";
