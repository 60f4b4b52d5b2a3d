import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console is served at <BASE_PATH>/console/: relative asset URLs work under any BASE_PATH.
export default defineConfig({
  base: './',
  resolve: {
    // The client's TypeScript source, bundled (and tree-shaken) with the console: no separate build step.
    alias: { '@facility-admin/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The CSP allows no inline script: no module-preload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: true,
  },
});
