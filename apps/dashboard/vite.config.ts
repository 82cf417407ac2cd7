import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The dev server proxies /api (and the API docs) to a running gateway, so the browser sees one
// origin and the session cookie and the gateway's Origin check just work. Point it elsewhere with
// GATEWAY_URL, e.g. GATEWAY_URL=http://127.0.0.1:3300 pnpm --filter @catalog/dashboard dev.
const target = process.env.GATEWAY_URL ?? "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react()],
  server: {
    host: "127.0.0.1",
    port: Number(process.env.DASHBOARD_PORT ?? 5173),
    proxy: {
      "/api": { target, changeOrigin: false },
      "/docs": { target, changeOrigin: false },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
  },
});
