import polarisDe from '@shopify/polaris/locales/de.json';
import polarisEn from '@shopify/polaris/locales/en.json';
import { de } from './de';
import { en } from './en';
import type { AdminLanguage, Messages } from './index';

/**
 * Every language's texts, on the server only: a page's loader hands the browser its own language's
 * (the layout's and the log-in page's), so the admin's scripts carry none of them.
 */
export const ADMIN_MESSAGES: Record<AdminLanguage, Messages> = { en, de };

export type PolarisTranslations = typeof polarisEn;

/** Polaris's own texts (its buttons, pagination, loading labels) in each admin language. */
export const POLARIS_TRANSLATIONS: Record<AdminLanguage, PolarisTranslations> = {
  en: polarisEn,
  de: polarisDe,
};
