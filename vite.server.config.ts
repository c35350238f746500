import { defineConfig } from 'vite';

// The Node server: server/node/main.ts → dist/server/main.js (and the rollup command, rollup-cli.ts →
// dist/server/rollup.js), dependencies left in node_modules.
// Vite (not tsc) builds it because the migrator bundles the SQL files with import.meta.glob.
export default defineConfig({
  build: {
    ssr: true,
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: {
      input: { main: 'server/node/main.ts', rollup: 'server/node/rollup-cli.ts' },
      output: { entryFileNames: '[name].js' },
    },
  },
});
