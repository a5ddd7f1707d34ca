import type { Strings } from '@loyalty/view-model';
import type { PanelApp } from '../config.js';
import { createLauncher } from './launcher.js';
import { installLoader } from './queue.js';
import { keepReferral } from './referral.js';

/** The panel app's hashed file name, set by the build. */
declare const __APP_FILE__: string;
/** The hashed file of each language's words but English's (which the app carries), by language code, set by the build. */
declare const __LANGUAGE_FILES__: Record<string, string>;
/** The widget's word for rewards in each language but English, by language code, set by the build. */
declare const __REWARDS__: Record<string, string>;
/** Only the benchmark's comparison build sets it: the app imported and mounted at once, as before the lazy launcher. */
declare const __EAGER__: boolean;

// On every page the loader is on, before and whether or not the widget starts.
const { code: referral, followed } = keepReferral(window);

// Only while this script runs does currentScript name it: the app sits beside the loader.
const loaderUrl = (document.currentScript as HTMLScriptElement | null)?.src;

const launcher = createLauncher({
  eager: __EAGER__,
  rewards: __REWARDS__,
  referral,
  followed,
  importApp: (config) => {
    const at = (file: string) => import(/* @vite-ignore */ new URL(file, loaderUrl || `${config.baseUrl.replace(/\/$/, '')}/widget/`).href);
    // The page's language is known now: its words come beside the app, not after it.
    const code = config.languageCode ?? '';
    const words = Object.prototype.hasOwnProperty.call(__LANGUAGE_FILES__, code) ? __LANGUAGE_FILES__[code] : undefined;
    return Promise.all([at(__APP_FILE__) as Promise<PanelApp>, words ? (at(words) as Promise<{ default: Strings }>) : undefined]).then(
      ([app, language]) => {
        const words = language ? { words: language.default } : {};
        return {
          mount: (mounting) => app.mount({ ...mounting, ...words }),
          mountPage: (mounting) => app.mountPage({ ...mounting, ...words }),
          nudge: (mounting) => app.nudge({ ...mounting, ...words }),
        };
      },
    );
  },
});
// The queue starts the launcher: it is part of this script, so there is nothing to load.
installLoader(window as unknown as Parameters<typeof installLoader>[0], () => Promise.resolve(launcher));
