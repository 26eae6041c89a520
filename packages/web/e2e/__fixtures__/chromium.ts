// Debian's Chromium, as the browser tests and the web benchmarks (bench/web-*.ts) start it.

export const CHROMIUM = process.env.KARENINA_CHROMIUM ?? "/usr/bin/chromium";

/** Flags that work headless on a CI machine without a GPU, a sandbox user namespace or the network. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
