import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Absolute asset URLs: `karenina serve` answers index.html for any page path, so relative ones would break.
export default defineConfig({
  base: "/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", sourcemap: false },
});
