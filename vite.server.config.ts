import { defineConfig } from 'vite';

// The Node server: server/node/main.ts → dist/server/main.js, dependencies left in node_modules.
// Vite (not tsc) builds it because the migrator bundles the SQL files with import.meta.glob.
export default defineConfig({
  build: {
    ssr: 'server/node/main.ts',
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: { output: { entryFileNames: 'main.js' } },
  },
});
