export { type CaptureOptions, captureReplayStore } from "./capture.js";
