import type { CoreFailure } from '../core/failure';
import { format, type Messages } from '../i18n';
import { type Refusal, refusalInWords } from './refusals';

/** The tier editor's form (CONTRACT §19 `tier`), as the merchant types it. */
export interface TierDraft {
  name: string;
  status: 'live' | 'draft' | 'paused';
  threshold: string;
  multiplier: string;
  /** The reward's id, or '' for none. */
  entryReward: string;
  description: string;
}

/** The editor's field each core field of a tier is shown on; the name is also the name shoppers see. */
const FIELD_OF: Record<string, keyof TierDraft> = {
  name: 'name',
  status: 'status',
  pointsThreshold: 'threshold',
  earnMultiplier: 'multiplier',
  entryRewardId: 'entryReward',
  eudTitle: 'name',
  eudDescription: 'description',
};

/** The editor's labels, with the shop's name for points (`points`). */
export function tierLabels(messages: Messages, points: string): Record<keyof TierDraft, string> {
  const m = messages.tiers.editor;
  return {
    name: m.name.label,
    status: messages.editors.status.label,
    threshold: capitalised(format(m.threshold.label, { points })),
    multiplier: m.multiplier.label,
    entryReward: m.entryReward.label,
    description: m.description.label,
  };
}

/** The core's refusal of a tier on the editor's fields; its `invalid` multiplier is the one-decimal rule, said as such. */
export function tierRefusal(failure: CoreFailure, messages: Messages, points: string): Refusal {
  return refusalInWords(failure, messages.editors.refusals, messages.language, tierLabels(messages, points), (f) => FIELD_OF[f], {
    multiplier: messages.tiers.editor.multiplier.oneDecimal,
  });
}

/** A tier's threshold and multiplier in the merchant's words, with the shop's name for points. */
export function tierWords(
  m: Messages['tiers'],
  language: string,
  points: string,
  tier: { threshold: number | string; multiplier: number | string },
) {
  // Two decimals, so a multiplier typed as 1.25 reads as typed (the editor refuses it) rather than rounded.
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
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
