import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Mantine's ScrollArea, the one importer of '@floating-ui/react' that needs only `useMergeRefs`. */
const SCROLL_AREA = '/@mantine/core/esm/components/ScrollArea/ScrollArea.mjs';

/**
 * Resolves ScrollArea's import of '@floating-ui/react' to src/lib/merge-refs.ts. A module is never split
 * between chunks: without this, every `Table` (through ScrollArea) loads the whole of Floating UI that
 * popovers, selects and tooltips use. Should Mantine move ScrollArea, nothing is redirected and the
 * bundle is only larger.
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  const target = fileURLToPath(new URL('./src/lib/merge-refs.ts', import.meta.url));
  return {
    name: 'starlight:scroll-area-without-floating-ui',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '@floating-ui/react' && importer?.replaceAll('\\', '/').endsWith(SCROLL_AREA)) return target;
      return null;
    },
  };
}

export default defineConfig({
  plugins: [scrollAreaWithoutFloatingUi(), react()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 900 },
});
