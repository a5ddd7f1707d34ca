import type { WidgetApp } from '../config.js';
import { installLoader } from './queue.js';

/** The app's hashed file name, set by the build. */
declare const __APP_FILE__: string;

// Only while this script runs does currentScript name it: the app sits beside the loader.
const loaderUrl = (document.currentScript as HTMLScriptElement | null)?.src;

installLoader(
  window as unknown as Parameters<typeof installLoader>[0],
  (config) =>
    import(
      /* @vite-ignore */ new URL(__APP_FILE__, loaderUrl || `${config.baseUrl.replace(/\/$/, '')}/widget/`).href
    ) as Promise<WidgetApp>,
);
