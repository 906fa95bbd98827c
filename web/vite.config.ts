/// <reference types="vitest/config" />
import { defineConfig } from 'vite';

// The server serves web/dist at '/' (and the API at /api/v1), so every asset
// path is relative. `npm run dev` proxies the API to a running server given by
// PARALLAX_SERVER (default http://127.0.0.1:8080).
const server = process.env['PARALLAX_SERVER'] ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api/v1/ws': { target: server.replace(/^http/, 'ws'), ws: true },
      '/api': { target: server, changeOrigin: false },
    },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
