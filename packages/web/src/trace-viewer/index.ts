export {
  DEFAULT_TRACE_HIGHLIGHTING,
  loadTraceHighlighting,
  parseTraceHighlighting,
  saveTraceHighlighting,
  TRACE_COLOURS,
  TRACE_HIGHLIGHTING_KEY,
  type TraceColour,
  type TraceHighlighting,
  type TracePattern,
} from "./highlight-patterns.js";
export { compileUserRegex, MAX_HEADER_LINE, MAX_PATTERN_LENGTH, MAX_SEARCHED_CHARS } from "./safe-regex.js";
export { searchTrace, type TraceMatch, type TraceSearchOptions } from "./search-trace.js";
export { blocksFromMessages, splitTrace, type TraceBlock } from "./split-trace.js";
export { SAMPLE_TRACE, TraceHighlightSettings } from "./TraceHighlightSettings.js";
export { TraceViewer, type TraceViewerProps } from "./TraceViewer.js";
export { setTraceHighlighting, useTraceHighlighting } from "./use-trace-highlighting.js";
