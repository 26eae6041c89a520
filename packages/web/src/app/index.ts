export { App } from "./App.js";
export { Providers } from "./Providers.js";
export { type ShellState, shellSlice } from "./shell-state.js";
export { startApp } from "./start-app.js";
