import { format, type Messages } from '../i18n';

/** A tier's threshold and multiplier in the merchant's words, with the shop's name for points. */
export function tierWords(
  m: Messages['tiers'],
  language: string,
  points: string,
  tier: { threshold: number | string; multiplier: number | string },
) {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const shown = (value: number | string) => (value !== '' && Number.isFinite(Number(value)) ? number.format(Number(value)) : '…');
  return {
    from: format(m.list.from, { threshold: shown(tier.threshold), points }),
    earns:
      Number(tier.multiplier) === 1
        ? format(m.list.earnsUsual, { points })
        : format(m.list.earns, { multiplier: shown(tier.multiplier), points }),
  };
}

/** The shop's name for points, else the admin's word. */
export const pointsName = (m: Messages['tiers'], currencyName: string | null) => currencyName ?? m.pointsWord;

/** "stars to reach it" starts a label: "Stars to reach it". */
export const capitalised = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/** Whether a multiplier has more than one decimal: the core's own rule (1.5, not 1.25), checked before sending. */
export function tooManyDecimals(value: string): boolean {
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n * 10 - Math.round(n * 10)) > 1e-9;
}
