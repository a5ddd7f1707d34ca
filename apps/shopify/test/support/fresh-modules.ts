import { vi } from 'vitest';

// Files share a worker (isolate: false) for its loaded packages, but each gets the app's and the
// core's own modules anew: the app reads its configuration and opens its pool at import, for the
// databases and core of the file that imports it.
vi.resetModules();
