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
    // React, the other libraries and the app's own code in chunks of their own: none is over the 500 kB Vite warns
    // of, and an update of the app's code leaves the libraries' chunks as they were.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            { name: 'libraries', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
