import polarisDe from '@shopify/polaris/locales/de.json';
import polarisEn from '@shopify/polaris/locales/en.json';
import polarisEs from '@shopify/polaris/locales/es.json';
import polarisFr from '@shopify/polaris/locales/fr.json';
import polarisIt from '@shopify/polaris/locales/it.json';
import polarisJa from '@shopify/polaris/locales/ja.json';
import polarisKo from '@shopify/polaris/locales/ko.json';
import polarisPt from '@shopify/polaris/locales/pt-BR.json';
import polarisZhCN from '@shopify/polaris/locales/zh-CN.json';
import { de } from './de';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';
import { ja } from './ja';
import { ko } from './ko';
import { pt } from './pt';
import { zhCN } from './zh-CN';
import type { AdminLanguage, Messages } from './index';

/**
 * Every language's texts, on the server only: a page's loader hands the browser its own language's
 * (the layout's and the log-in page's), so the admin's scripts carry none of them.
 */
export const ADMIN_MESSAGES: Record<AdminLanguage, Messages> = { en, de, es, fr, it, ja, ko, pt, 'zh-CN': zhCN };

export type PolarisTranslations = typeof polarisEn;

/** Polaris's own texts (its buttons, pagination, loading labels) in each admin language; Brazilian Portuguese for `pt`. */
export const POLARIS_TRANSLATIONS: Record<AdminLanguage, PolarisTranslations> = {
  en: polarisEn,
  de: polarisDe,
  es: polarisEs,
  fr: polarisFr,
  it: polarisIt,
  ja: polarisJa,
  ko: polarisKo,
  pt: polarisPt,
  'zh-CN': polarisZhCN,
};
