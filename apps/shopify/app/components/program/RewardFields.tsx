import { Link } from '@remix-run/react';
import { createContext, useContext } from 'react';
import { BlockStack, ChoiceList, InlineGrid, Select, TextField } from '@shopify/polaris';
import { LastDayField, NameField } from '../RecordFields';
import {
  CODE_SOURCES,
  DISCOUNT_TYPES,
  EXPIRY_TYPES,
  type NewReward,
  oneOf,
  REWARD_MODES,
  type RewardChoice,
  type RewardSummary,
} from '../../admin/program-draft';
import { format } from '../../i18n';
import { useAdminLanguage, useMessages } from '../../i18n/context';

/** The shop's currency (`shop { currencyCode }`), which fixed amounts and store credit are in; null when unknown. */
export const ShopCurrency = createContext<string | null>(null);

/**
 * A reward in a merchant's words: `10 % off`, `€5.00 off`, free shipping or store credit (amounts
 * in the shop's currency with `Intl`), and whether the app issues it as a Shopify discount.
 */
export function useRewardSummary() {
  const { editor: m } = useMessages();
  const language = useAdminLanguage();
  const currency = useContext(ShopCurrency);
  return (reward: RewardSummary | undefined) => {
    if (!reward) return '';
    const amount = currency
      ? new Intl.NumberFormat(language, { style: 'currency', currency }).format(reward.discountValue)
      : new Intl.NumberFormat(language).format(reward.discountValue);
    const value = format(m.reward.summary[reward.kind], {
      value: reward.kind === 'percentage' ? new Intl.NumberFormat(language).format(reward.discountValue) : amount,
    });
    const shopify = reward.shopifyDiscount && reward.kind !== 'store_credit' ? ` · ${m.reward.summary.shopify}` : '';
    return `${reward.name} · ${value}${shopify}`;
  };
}

/**
 * A milestone's (or a mission's) reward: none, one of the account's rewards, or a new one created
 * with the save — its discount, expiry, and how its codes are issued (a Shopify discount by default).
 */
export function RewardFields({
  choice,
  rewards,
  errors,
  onChange,
}: {
  choice: RewardChoice;
  rewards: RewardSummary[];
  /** This reward's errors by field (`rewardId`, `discountValue`, …). */
  errors: Record<string, string | undefined>;
  onChange(next: RewardChoice, field: string): void;
}) {
  const { editor: m } = useMessages();
  const summary = useRewardSummary();
  const currency = useContext(ShopCurrency);
  const r = choice.draft;
  const set = <K extends keyof NewReward>(key: K, value: NewReward[K]) => onChange({ ...choice, draft: { ...r, [key]: value } }, key);
  const chosen = rewards.find((x) => x.id === choice.rewardId);
  return (
    <BlockStack gap="300">
      <ChoiceList
        title={m.reward.label}
        choices={[
          { label: m.reward.none, value: 'none' },
          { label: m.reward.existing, value: 'existing', disabled: !rewards.length },
          { label: m.reward.new, value: 'new' },
        ]}
        selected={[choice.mode]}
        onChange={([mode]) => onChange({ ...choice, mode: oneOf(REWARD_MODES, mode, choice.mode) }, 'mode')}
      />
      {choice.mode === 'existing' ? (
        <BlockStack gap="100">
          <Select
            label={m.reward.pick}
            options={rewards.map((x) => ({ label: summary(x), value: x.id }))}
            placeholder={m.reward.choose}
            value={choice.rewardId}
            onChange={(rewardId) => onChange({ ...choice, rewardId }, 'rewardId')}
            error={errors.rewardId}
          />
          {chosen ? <Link to={`/app/rewards/${chosen.id}`}>{chosen.name}</Link> : null}
        </BlockStack>
      ) : null}
      {choice.mode === 'new' ? (
        <BlockStack gap="300">
          <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
            <NameField
              label={m.reward.name.label}
              helpText={m.reward.name.help}
              value={r.name}
              onChange={(v) => set('name', v)}
              error={errors.name}
            />
            <TextField
              label={m.reward.title.label}
              autoComplete="off"
              value={r.eudTitle}
              onChange={(v) => set('eudTitle', v)}
              error={errors.eudTitle}
              maxLength={48}
            />
            <Select
              label={m.reward.type.label}
              options={[
                { label: m.reward.type.percentage, value: 'percentage' },
                { label: m.reward.type.fixed_amount, value: 'fixed_amount' },
              ]}
              value={r.discountType}
              onChange={(v) => set('discountType', oneOf(DISCOUNT_TYPES, v, r.discountType))}
              error={errors.discountType}
            />
            <TextField
              label={m.reward.value.label}
              type="number"
              autoComplete="off"
              value={r.discountValue}
              onChange={(v) => set('discountValue', v)}
              suffix={r.discountType === 'percentage' ? m.reward.value.percentSuffix : (currency ?? m.reward.value.amountSuffix)}
              error={errors.discountValue}
            />
            <Select
              label={m.reward.expiry.label}
              options={(['no_expiry', 'relative', 'absolute'] as const).map((value) => ({ label: m.reward.expiry[value], value }))}
              value={r.rewardExpiryType}
              onChange={(v) => set('rewardExpiryType', oneOf(EXPIRY_TYPES, v, r.rewardExpiryType))}
              error={errors.rewardExpiryType}
            />
            {r.rewardExpiryType === 'relative' ? (
              <TextField
                label={m.reward.expiry.days}
                type="number"
                autoComplete="off"
                value={r.rewardExpiryInDays}
                onChange={(v) => set('rewardExpiryInDays', v)}
                error={errors.rewardExpiryInDays}
              />
            ) : null}
            {r.rewardExpiryType === 'absolute' ? (
              <LastDayField value={r.rewardExpiryAt} onChange={(v) => set('rewardExpiryAt', v)} error={errors.rewardExpiryAt} />
            ) : null}
          </InlineGrid>
          <ChoiceList
            title={m.reward.codes.label}
            choices={[
              { label: m.reward.codes.shopify, value: 'shopify', helpText: m.reward.codes.shopifyHelp },
              { label: m.reward.codes.generated, value: 'generated', helpText: m.reward.codes.generatedHelp },
              { label: m.reward.codes.pool, value: 'pool', helpText: m.reward.codes.poolHelp },
            ]}
            selected={[r.codes]}
            onChange={([codes]) => set('codes', oneOf(CODE_SOURCES, codes, r.codes))}
          />
          {r.codes === 'generated' ? (
            <TextField
              label={m.reward.codes.prefix}
              autoComplete="off"
              value={r.couponCodePrefix}
              onChange={(v) => set('couponCodePrefix', v)}
              error={errors.couponCodePrefix}
              maxLength={16}
            />
          ) : null}
        </BlockStack>
      ) : null}
    </BlockStack>
  );
}
