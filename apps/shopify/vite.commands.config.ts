import { defineConfig } from 'vite';

// The app's commands besides the web server (app/commands/): `migrate` and the worker role, built
// from the same modules as the Remix server into build/commands/, where `start` and the
// `migrate` / `start:worker` scripts run them with node.
export default defineConfig({
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'build/commands',
    emptyOutDir: true,
    rollupOptions: { input: { migrate: 'app/commands/migrate.server.ts', worker: 'app/commands/worker.server.ts' } },
  },
});
