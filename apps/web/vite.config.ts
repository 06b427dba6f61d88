import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
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
  build: { outDir: 'dist' },
});
