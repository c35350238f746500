import { defineConfig } from 'vite';

// The Node server: server/node/main.ts → dist/server/main.js (and the rollup command, rollup-cli.ts →
// dist/server/rollup.js, and the MacCMS move, maccms-cli.ts → dist/server/maccms.js). Vite (not tsc) builds it because the migrator bundles the SQL files with import.meta.glob.
// The pure JavaScript dependencies are bundled in (`noExternal`): Node then resolves, reads and compiles a few files
// instead of hundreds (and no CommonJS export scan): a start's imports took 234–292 ms, now about 150 (README
// "Start-up"). Left in node_modules: PGlite (its wasm and data files sit beside its code), node-postgres and pino
// (CommonJS with optional native or worker parts) and ip2region (its database file).
export default defineConfig({
  ssr: {
    noExternal: [
      'drizzle-orm',
      'hono',
      '@hono/zod-openapi',
      '@hono/zod-validator',
      '@asteasolutions/zod-to-openapi',
      'openapi3-ts',
      '@hono/node-server',
      'zod',
      'ua-parser-js',
      'isbot',
      'tldts',
      'tldts-core',
      'punycode',
      'opencc-js',
    ],
  },
  build: {
    ssr: true,
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: {
      input: {
        main: 'server/node/main.ts',
        rollup: 'server/node/rollup-cli.ts',
        maccms: 'server/node/maccms-cli.ts',
      },
      output: { entryFileNames: '[name].js' },
    },
  },
});
