export { type EventStreamHandlers, followEventStream, isJobEndEvent } from "./event-stream.js";
