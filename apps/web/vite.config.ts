import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
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
