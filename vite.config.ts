import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The SPA. `vite build` → dist/client (production); `vite build --mode demo` → dist/demo (the API runs in the
// browser behind msw). The Node server is built separately (vite.server.config.ts).
export default defineConfig(({ mode }) => ({
  plugins: [react()],
  // Only the demo build carries msw's worker script (copied in by scripts/demo.mjs).
  publicDir: mode === 'demo' ? 'mocks/public' : 'public',
  build: {
    outDir: mode === 'demo' ? 'dist/demo' : 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/app': { target: `http://127.0.0.1:${process.env.PORT ?? 8080}`, changeOrigin: false },
      '/img': { target: `http://127.0.0.1:${process.env.PORT ?? 8080}`, changeOrigin: false }, // the image host
    },
  },
  optimizeDeps: { exclude: ['@electric-sql/pglite'] },
}));
