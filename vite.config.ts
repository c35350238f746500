import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Demo build only: the start-up screen is in the page itself, so the first paint already says what is loading
 * (src/demo/screens.ts then writes each step in the interface's language; React replaces it when the admin starts).
 */
const DEMO_STYLE = `
.zg-demo { position: fixed; inset: 0; z-index: 2147483000; display: flex; align-items: center; justify-content: center;
  background: #f2f3f5; color: #1d2129; font: 14px/1.6 system-ui, -apple-system, "PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif; }
.zg-demo-dark { background: #17171a; color: #e5e6eb; }
.zg-demo-card { width: min(440px, calc(100vw - 48px)); padding: 32px; border-radius: 8px; background: #fff;
  box-shadow: 0 4px 24px rgba(0,0,0,.08); }
.zg-demo-dark .zg-demo-card { background: #232324; box-shadow: 0 4px 24px rgba(0,0,0,.4); }
.zg-demo-brand { color: #165dff; font-weight: 700; font-size: 20px; margin-bottom: 8px; }
.zg-demo-dark .zg-demo-brand { color: #6aa1ff; }
.zg-demo-title { font-size: 18px; font-weight: 600; margin: 0 0 16px; }
.zg-demo-body { margin: 0 0 12px; }
.zg-demo-bar { height: 6px; border-radius: 3px; background: #e5e6eb; overflow: hidden; }
.zg-demo-dark .zg-demo-bar { background: #3a3a3d; }
.zg-demo-fill { height: 100%; background: #165dff; transition: width .3s; }
.zg-demo-step { margin: 12px 0 0; color: #4e5969; }
.zg-demo-dark .zg-demo-step { color: #a9aeb8; }
.zg-demo-button { margin-top: 8px; padding: 8px 16px; border: 0; border-radius: 4px; background: #165dff; color: #fff;
  font: inherit; cursor: pointer; }
.zg-demo-button:disabled { background: #94bfff; cursor: default; }
.zg-demo-button:focus-visible { outline: 2px solid #165dff; outline-offset: 2px; }
`;
const DEMO_FIRST_PAINT =
  '<div id="zg-demo" class="zg-demo" data-screen="progress"><div class="zg-demo-card">' +
  '<div class="zg-demo-brand">掌柜 Zhanggui</div>' +
  '<h1 class="zg-demo-title">正在启动演示 · Starting the demo</h1>' +
  '<div class="zg-demo-bar" role="progressbar" aria-label="Starting the demo" aria-valuemin="0" aria-valuemax="5" aria-valuenow="0">' +
  '<div class="zg-demo-fill" style="width:4%"></div></div>' +
  '<p class="zg-demo-step">下载页面 · Loading the page</p></div></div>';

const demoStartScreen = (): Plugin => ({
  name: 'zhanggui-demo-start-screen',
  transformIndexHtml: (html) =>
    html
      .replace('</style>', `${DEMO_STYLE}</style>`)
      .replace('<div id="root"></div>', `<div id="root"></div>${DEMO_FIRST_PAINT}`),
});

// The SPA. `vite build` → dist/client (production); `vite build --mode demo` → dist/demo (the API runs in the
// browser behind msw). The Node server is built separately (vite.server.config.ts).
export default defineConfig(({ mode }) => ({
  plugins: mode === 'demo' ? [react(), demoStartScreen()] : [react()],
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
