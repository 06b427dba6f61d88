import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compressBuild } from './build-compress';

const api = 'http://localhost:8080';

/** The dev server sends pay.html for /pay/<orderCode> and /pay?orderCode=, as the server does with the build. */
function payerPageInDev(): Plugin {
  return {
    name: 'paydesk:payer-page',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url && /^\/pay(?:\/|\?|$)/.test(req.url)) req.url = '/pay.html';
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), payerPageInDev(), compressBuild()],
  server: {
    proxy: {
      // The contract's WS_PATH: Node cannot load the contract's TypeScript while it reads this config.
      '/v1.0/ws': { target: api, ws: true },
      '/v1.0': api,
      '/message': api,
      '/save_error_logger': api,
      '/docs': api,
      '/healthz': api,
      '/readyz': api,
    },
  },
  build: {
    outDir: 'dist',
    // Two pages: the console (index.html) and the payer page (pay.html), which shares none of the
    // console's component library.
    rolldownOptions: {
      input: { console: 'index.html', pay: 'pay.html' },
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            {
              // What only the signed-in shell shows (menu, tabs, drawer, dropdowns): left to the bundler,
              // it joined a chunk shared with the login page.
              name: 'shell-vendor',
              test: /node_modules[\\/](antd[\\/]es[\\/](menu|tabs|dropdown)|@rc-component[\\/](menu|tabs|dropdown|drawer))[\\/]/,
            },
          ],
        },
      },
    },
    // Browsers without modulepreload still load every module (only later): not worth its bytes.
    modulePreload: { polyfill: false },
  },
});
