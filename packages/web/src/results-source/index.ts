export { hashOfSource, sourceOfHash } from "./hash-source.js";
export { type ResultsSource, type ResultsSourceState, resultsSourceSlice } from "./results-source.js";
