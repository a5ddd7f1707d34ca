import type { PanelApp } from '../config.js';
import { createLauncher } from './launcher.js';
import { installLoader } from './queue.js';

/** The panel app's hashed file name, set by the build. */
declare const __APP_FILE__: string;
/** Only the benchmark's comparison build sets it: the app imported and mounted at once, as before the lazy launcher. */
declare const __EAGER__: boolean;

// Only while this script runs does currentScript name it: the app sits beside the loader.
const loaderUrl = (document.currentScript as HTMLScriptElement | null)?.src;

const launcher = createLauncher({
  eager: __EAGER__,
  importApp: (config) =>
    import(/* @vite-ignore */ new URL(__APP_FILE__, loaderUrl || `${config.baseUrl.replace(/\/$/, '')}/widget/`).href) as Promise<PanelApp>,
});
// The queue starts the launcher: it is part of this script, so there is nothing to load.
installLoader(window as unknown as Parameters<typeof installLoader>[0], () => Promise.resolve(launcher));
