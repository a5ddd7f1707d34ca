import { AppProvider } from '@shopify/polaris';
import polarisEn from '@shopify/polaris/locales/en.json';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ColumnChart } from '../app/components/Charts';
import { ADMIN_MESSAGES } from '../app/i18n/bundles.server';
import { AdminLanguageProvider } from '../app/i18n/context';

/** The admin's column chart as it renders: its numbers in the admin's language, short over a column, whole in its tooltip. */
const chart = (
  language: 'en' | 'de',
  points = [
    { label: '2026-12-01', value: 24_888 },
    { label: '2026-12-02', value: 7 },
  ],
  currency: string | null = null,
) => {
  const inLanguage = createElement(AdminLanguageProvider, {
    language,
    messages: ADMIN_MESSAGES[language],
    children: createElement(ColumnChart, { title: 'Points earned', points, currency }),
  });
  return renderToStaticMarkup(createElement(AppProvider, { i18n: polarisEn, children: inLanguage }));
};

describe('the column chart', () => {
  it('labels a column short enough for it and tells the whole number in its tooltip, in the admin’s language', () => {
    const en = chart('en');
    expect(en).toContain('>24.9K</text>');
    expect(en).toContain('>7</text>');
    expect(en).toContain('<title>Dec 1, 2026: 24,888</title>');
    const de = chart('de');
    const short = new Intl.NumberFormat('de', { notation: 'compact', maximumFractionDigits: 1 }).format(24_888);
    expect(de).toContain(`>${short}</text>`);
    expect(de).toContain(`: ${new Intl.NumberFormat('de').format(24_888)}</title>`);
  });

  it('shows money with its currency and cents, not rounded to whole units', () => {
    const money = chart('en', [{ label: '2026-12-03', value: 125.5 }], 'EUR');
    expect(money).toContain('<title>Dec 3, 2026: €125.50</title>');
    expect(money).toContain('>€125.5</text>');
  });
});
