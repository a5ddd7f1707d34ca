// What the core's global setup provides (vitest.config.ts runs it), typed for this package's vitest.
declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDatabase: string;
  }
}

export {};
