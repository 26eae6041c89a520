export { mountProgressStreams } from "./progress-streams.js";
