/** The demo role (`serve --demo`, `seed-demo`): its seed and its storefront, loaded only when asked for. */
export { demoRoutes } from './routes.js';
export { DEMO_FILE, type DemoCredentials, ensureDemoAccount } from './seed.js';
