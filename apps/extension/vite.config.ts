import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Two entries: the popup (a page; also opened in a window of its own) and the service worker,
// which Chrome loads as one ES module named in the manifest. File names carry no hashes: the
// manifest names them, and an extension is updated as a whole. scripts/package.mjs then writes
// the manifests and the store zips.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist/chrome",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    modulePreload: false,
    rollupOptions: {
      input: { popup: "popup.html", background: "src/background/service-worker.ts" },
      output: {
        entryFileNames: "[name].js",
        chunkFileNames: "chunks/[name].js",
        assetFileNames: "assets/[name][extname]",
      },
    },
  },
});
