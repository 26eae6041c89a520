export { StatusRegion, useAnnounce } from "./StatusRegion.js";
