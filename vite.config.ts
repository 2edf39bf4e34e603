import { defineConfig } from 'vite';

// The renderer bundle, shared by Electron (loaded from disk, hence relative asset
// paths) and browser mode (served by `homebody serve`).
export default defineConfig({
  root: 'src-renderer',
  base: './',
  build: {
    outDir: '../build/renderer',
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: true,
    // Inline assets would need data: URLs in the CSP; keep every asset a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
