export * from './api.js';
export * from './birthday.js';
export * from './boards.js';
export * from './i18n.js';
export * from './model.js';
export * from './progress.js';
export * from './points.js';
export * from './referral.js';
