import { useFetcher, useNavigate } from '@remix-run/react';
import { SaveBar, useAppBridge } from '@shopify/app-bridge-react';
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Checkbox,
  ChoiceList,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from '@shopify/polaris';
import { useEffect, useRef, useState } from 'react';
import {
  blankMilestone,
  blankTask,
  checkProgram,
  type EarningDraft,
  HOLD_DAYS,
  isDirty,
  METHODS,
  type MilestoneDraft,
  oneOf,
  PERIODS,
  type ProgramDraft,
  type RewardSummary,
  SETTING_FIELDS,
  type Settings,
  STATUSES,
  type TaskDraft,
  type TextSettingKey,
} from '../../admin/program-draft';
import type { SaveOutcome } from '../../admin/program-save.server';
import { BUILT_IN_ACTIVITIES, isBuiltInActivity } from '../../earning/plan';
import { format } from '../../i18n';
import { useAdminLanguage, useMessages } from '../../i18n/context';
import { TitledCard } from '../TitledCard';
import { NameField } from '../RecordFields';
import { DateTimeField } from './DateTimeField';
import { Milestones, usePeriods } from './Milestones';
import { RewardFields, ShopCurrency } from './RewardFields';

type Errors = Record<string, string | undefined>;

export interface SaveAnswer {
  outcome: SaveOutcome;
  rewards: RewardSummary[];
}

const SAVE_BAR_ID = 'program-save-bar';

/**
 * A streak, challenge or mission with its milestones and their rewards, edited on one page and
 * saved at once (contextual save bar, or the page's Save). The draft lives here until the core has
 * it: a save the core refuses in part leaves the refused parts as entered, their errors on their fields.
 */
/** A collection a challenge can be limited to. */
export interface CollectionChoice {
  id: string;
  title: string;
}

export function ProgramEditor({
  initial,
  rewards: initialRewards,
  collections,
  currencyCode,
}: {
  initial: ProgramDraft;
  rewards: RewardSummary[];
  /** The shop's currency, which fixed amounts are in; null when Shopify did not say. */
  currencyCode: string | null;
  /** The shop's collections; null when they could not be read. */
  collections: CollectionChoice[] | null;
}) {
  const { editor: m, editors, common } = useMessages();
  const language = useAdminLanguage();
  const fetcher = useFetcher<SaveAnswer>();
  const navigate = useNavigate();
  const shopify = useAppBridge();
  const [draft, setDraft] = useState(initial);
  const [baseline, setBaseline] = useState(initial);
  const [rewards, setRewards] = useState(initialRewards);
  const [errors, setErrors] = useState<Errors>({});
  const [problems, setProblems] = useState<SaveOutcome['problems']>([]);
  const [open, setOpen] = useState<string[]>([]);
  const [createdUrl, setCreatedUrl] = useState<string | null>(null);
  const created = useRef(0);
  const answered = useRef<SaveAnswer | null>(null);
  const saving = fetcher.state !== 'idle';
  const dirty = isDirty(draft, baseline);

  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== 'idle' || answered.current === answer) return;
    answered.current = answer;
    const { outcome } = answer;
    setRewards(answer.rewards);
    setErrors(outcome.errors);
    setProblems(outcome.problems);
    const failed = outcome.problems.length > 0 || Object.keys(outcome.errors).length > 0;
    // Fully saved: the page shows the program as the core now has it (milestones in target order).
    if (outcome.saved) setBaseline(outcome.saved);
    setDraft(failed || !outcome.saved ? outcome.draft : outcome.saved);
    const troubled = outcome.draft.milestones.filter((ms) =>
      Object.keys(outcome.errors).some((k) => k.startsWith(`milestones.${ms.key}.`)),
    );
    setOpen((was) => [
      ...new Set([...was.filter((k) => outcome.draft.milestones.some((ms) => ms.key === k)), ...troubled.map((ms) => ms.key)]),
    ]);
    if (failed) return;
    shopify.toast.show(initial.id ? m.saved : m.created);
    if (!initial.id && outcome.draft.id) setCreatedUrl(`/app/programs/${outcome.draft.kind}/${outcome.draft.id}`);
  }, [fetcher.data, fetcher.state, initial.id, m, shopify]);

  // A new program, once saved, moves to its own address; after the save bar has gone, so that
  // App Bridge does not hold the navigation for unsaved changes.
  useEffect(() => {
    if (createdUrl && !dirty) navigate(createdUrl, { replace: true });
  }, [createdUrl, dirty, navigate]);

  const update = (change: (next: ProgramDraft) => void, ...fields: string[]) => {
    setDraft((prev) => {
      const next = structuredClone(prev);
      change(next);
      return next;
    });
    if (fields.length)
      setErrors((prev) =>
        Object.fromEntries(Object.entries(prev).filter(([key]) => !fields.some((f) => key === f || key.startsWith(`${f}.`)))),
      );
  };
  const setSetting =
    <K extends keyof Settings>(key: K) =>
    (value: Settings[K]) =>
      update((d) => {
        d.settings[key] = value;
      }, `settings.${key}`);

  const save = () => {
    const found = checkProgram(draft, m.checks);
    setProblems([]);
    setErrors(found);
    if (Object.keys(found).length) {
      const troubled = draft.milestones.filter((ms) => Object.keys(found).some((k) => k.startsWith(`milestones.${ms.key}.`)));
      setOpen((was) => [...new Set([...was, ...troubled.map((ms) => ms.key)])]);
      return;
    }
    fetcher.submit({ draft, language }, { method: 'post', encType: 'application/json' });
  };
  const discard = () => {
    setDraft(baseline);
    setErrors({});
    setProblems([]);
  };

  const addMilestone = () => {
    const key = `new-${Date.now()}-${++created.current}`;
    update((d) => {
      d.milestones.push(blankMilestone(key));
    });
    setOpen((was) => [...was, key]);
  };

  const local = Object.keys(errors).length > 0 && !problems.length;
  const partNames = (scope: string) => {
    if (scope.startsWith('milestones.')) {
      const key = scope.split('.')[1];
      const ms = draft.milestones.find((x) => x.key === key);
      return format(m.result.part.milestone, { name: ms?.name || m.milestones.untitled });
    }
    return scope === 'completionReward' ? m.result.part.completionReward : m.result.part.settings;
  };
  const unplaced = Object.entries(errors).filter(([k]) => !placed(draft, k));
  const bannerLines = [
    ...problems.map((p, i) => (
      <p key={i}>
        {partNames(p.scope)}: {p.message}
      </p>
    )),
    ...unplaced.map(([k, message]) => (
      <p key={k}>
        {partNames(k)} ({k.split('.').pop()}): {message}
      </p>
    )),
  ];
  const title = draft.settings.name || (baseline.id ? baseline.settings.name : m.newTitle[draft.kind]);
  const problemKeys = new Set(
    draft.milestones.filter((ms) => Object.keys(errors).some((k) => k.startsWith(`milestones.${ms.key}.`))).map((ms) => ms.key),
  );

  return (
    <ShopCurrency.Provider value={currencyCode}>
      <Page
        title={title}
        titleMetadata={
          <Badge tone={draft.settings.status === 'live' ? 'success' : undefined}>{m.status.badge[draft.settings.status]}</Badge>
        }
        backAction={{ content: common.back, url: `/app/r/${draft.kind}` }}
        primaryAction={{ content: m.save, onAction: save, loading: saving, disabled: !dirty && !!draft.id }}
        actionGroups={
          draft.id ? [{ title: editors.frame.advanced, actions: [{ content: m.allFields, url: `/app/r/${draft.kind}/${draft.id}` }] }] : []
        }
      >
        <SaveBar id={SAVE_BAR_ID} open={dirty} discardConfirmation>
          <button {...{ variant: 'primary' }} onClick={save} disabled={saving}>
            {m.save}
          </button>
          <button onClick={discard} disabled={saving}>
            {m.discard}
          </button>
        </SaveBar>
        <Layout>
          {local || problems.length ? (
            <Layout.Section>
              <Banner tone="critical" title={local ? m.result.checks : draft.id ? m.result.partial : m.result.failed}>
                {/* No lines, no children: Polaris draws an empty content strip for an empty list. */}
                {bannerLines.length ? bannerLines : null}
              </Banner>
            </Layout.Section>
          ) : null}
          <Layout.Section>
            <BlockStack gap="400">
              <Basics draft={draft} errors={errors} setSetting={setSetting} />
              <Counting draft={draft} errors={errors} setSetting={setSetting} />
              <Earning
                draft={draft}
                errors={errors}
                setSetting={setSetting}
                collections={collections}
                setEarning={(earning) =>
                  update((d) => {
                    d.earning = earning;
                  }, 'earning')
                }
              />
              {draft.kind === 'streak' ? <Freezes draft={draft} errors={errors} setSetting={setSetting} /> : null}
              {draft.kind === 'mission' ? (
                <>
                  <Tasks
                    tasks={draft.settings.tasks}
                    errors={errors}
                    onChange={(tasks, field) =>
                      update((d) => {
                        d.settings.tasks = tasks;
                      }, field)
                    }
                    newKey={() => `new-${Date.now()}-${++created.current}`}
                  />
                  <TitledCard title={m.sections.completionReward}>
                    <RewardFields
                      choice={draft.completionReward}
                      rewards={rewards}
                      errors={Object.fromEntries(
                        Object.entries(errors)
                          .filter(([k]) => k.startsWith('completionReward.'))
                          .map(([k, v]) => [k.slice('completionReward.'.length), v]),
                      )}
                      onChange={(choice, field) =>
                        update((d) => {
                          d.completionReward = choice;
                        }, `completionReward.${field}`)
                      }
                    />
                  </TitledCard>
                </>
              ) : null}
              <Milestones
                draft={draft}
                rewards={rewards}
                errors={errors}
                open={open}
                problemKeys={problemKeys}
                onOpen={(key, isOpen) => setOpen((was) => (isOpen ? [...was, key] : was.filter((k) => k !== key)))}
                onChange={(key, next: MilestoneDraft, field) =>
                  update((d) => {
                    d.milestones = d.milestones.map((ms) => (ms.key === key ? next : ms));
                  }, `milestones.${key}.${field}`)
                }
                onAdd={addMilestone}
                onRemove={(key) =>
                  update((d) => {
                    d.milestones = d.milestones.filter((ms) => ms.key !== key);
                  }, `milestones.${key}`)
                }
              />
              <ShopperTexts draft={draft} errors={errors} setSetting={setSetting} />
            </BlockStack>
          </Layout.Section>
        </Layout>
      </Page>
    </ShopCurrency.Provider>
  );
}

/** The settings each kind's cards show (an error on any other field is listed in the banner). */
const shownSettings = (kind: ProgramDraft['kind']): string[] => [
  ...SETTING_FIELDS[kind],
  ...(kind === 'mission' ? ['isRepeatable', 'tasks'] : []),
];

const SHOWN_MILESTONE = ['name', 'target', 'eudTitle', 'status', 'description', 'rewardId'];
const SHOWN_REWARD = [
  'rewardId',
  'name',
  'eudTitle',
  'discountType',
  'discountValue',
  'rewardExpiryType',
  'rewardExpiryInDays',
  'rewardExpiryAt',
  'couponCodePrefix',
];

/** Whether an error's field is shown on this page (an error of any other field is listed in the banner, so none goes unseen). */
function placed(draft: ProgramDraft, key: string): boolean {
  const [scope, ...rest] = key.split('.');
  if (scope === 'settings') return shownSettings(draft.kind).includes(rest[0]!);
  if (scope === 'completionReward') return SHOWN_REWARD.includes(rest[0]!);
  if (scope !== 'milestones' || !draft.milestones.some((ms) => ms.key === rest[0])) return false;
  return rest[1] === 'reward' ? SHOWN_REWARD.includes(rest[2]!) : SHOWN_MILESTONE.includes(rest[1]!);
}

interface SectionProps {
  draft: ProgramDraft;
  errors: Errors;
  setSetting: <K extends keyof Settings>(key: K) => (value: Settings[K]) => void;
}

function Basics({ draft, errors, setSetting }: SectionProps) {
  const { editor: m } = useMessages();
  const s = draft.settings;
  return (
    <TitledCard title={m.sections.basics} region>
      <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
        <NameField
          label={m.name.label}
          helpText={m.name.help}
          value={s.name}
          onChange={setSetting('name')}
          error={errors['settings.name']}
        />
        <Select
          label={m.status.label}
          options={(['draft', 'live', 'paused'] as const).map((value) => ({ label: m.status[value], value }))}
          value={s.status}
          onChange={(v) => setSetting('status')(oneOf(STATUSES, v, s.status))}
          error={errors['settings.status']}
        />
      </InlineGrid>
      <TextField
        label={m.description.label}
        helpText={m.description.help}
        autoComplete="off"
        value={s.description}
        onChange={setSetting('description')}
        error={errors['settings.description']}
        maxLength={1024}
      />
    </TitledCard>
  );
}

function Counting({ draft, errors, setSetting }: SectionProps) {
  const { editor: m } = useMessages();
  const periods = usePeriods();
  const s = draft.settings;
  const period = m.units[s.aggregationPeriod].one;
  const amount = s.aggregationMethod === 'sum' ? m.method.sumSuffix : m.method.countSuffix;
  const words = draft.kind === 'streak' ? m.streak : draft.kind === 'challenge' ? m.challenge : m.mission;
  const method = (
    <Select
      label={m.method.label}
      helpText={m.method.help}
      options={[
        { label: m.method.count, value: 'count' },
        { label: m.method.sum, value: 'sum' },
      ]}
      value={s.aggregationMethod}
      onChange={(v) => setSetting('aggregationMethod')(oneOf(METHODS, v, s.aggregationMethod))}
      error={errors['settings.aggregationMethod']}
    />
  );
  const number = (key: TextSettingKey, label: string, suffix: string | undefined, helpText: string) => (
    <TextField
      label={label}
      type="number"
      autoComplete="off"
      value={s[key]}
      onChange={setSetting(key)}
      suffix={suffix}
      helpText={helpText}
      error={errors[`settings.${key}`]}
    />
  );
  return (
    <TitledCard title={m.sections.counting} region>
      <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
        <Select
          label={words.period.label}
          helpText={format(words.period.help, { period })}
          options={(['daily', 'weekly', 'monthly'] as const).map((value) => ({ label: words.period[value], value }))}
          value={s.aggregationPeriod}
          onChange={(v) => setSetting('aggregationPeriod')(oneOf(PERIODS, v, s.aggregationPeriod))}
          error={errors['settings.aggregationPeriod']}
        />
        {draft.kind !== 'mission' ? method : null}
        {draft.kind === 'streak' ? (
          <>
            {number('aggregationTargetValue', format(m.streak.target.label, { period }), amount, format(m.streak.target.help, { period }))}
            {number(
              'completionTargetValue',
              m.streak.length.label,
              format(m.streak.length.suffix, { periods: periods(draft) }),
              m.streak.length.help,
            )}
            {number(
              'toBeBrokenWarningHours',
              m.streak.warning.label,
              m.streak.warning.suffix,
              format(m.streak.warning.help, { hours: s.toBeBrokenWarningHours || '0' }),
            )}
          </>
        ) : null}
        {draft.kind === 'challenge' ? (
          <>
            {number('completionTargetValue', m.challenge.target.label, amount, format(m.challenge.target.help, { period }))}
            {number(
              'toBeFailedWarningHours',
              m.challenge.warning.label,
              m.challenge.warning.suffix,
              format(m.challenge.warning.help, { hours: s.toBeFailedWarningHours || '0' }),
            )}
            <DateTimeField
              label={m.challenge.startAt.label}
              helpText={m.challenge.startAt.help}
              value={s.startAt}
              onChange={setSetting('startAt')}
              error={errors['settings.startAt']}
            />
            <DateTimeField
              label={m.challenge.endAt.label}
              helpText={m.challenge.endAt.help}
              value={s.endAt}
              onChange={setSetting('endAt')}
              error={errors['settings.endAt']}
            />
          </>
        ) : null}
        {draft.kind === 'mission' ? (
          <Checkbox
            label={m.mission.repeatable.label}
            checked={s.isRepeatable}
            onChange={setSetting('isRepeatable')}
            error={errors['settings.isRepeatable']}
          />
        ) : null}
      </InlineGrid>
    </TitledCard>
  );
}

/**
 * What feeds the program by itself (CONTRACT §17) in the merchant's words, and the hold on its
 * rewards. A challenge's choice also sets how it counts: orders counted, or their amounts added.
 */
function Earning({
  draft,
  errors,
  setSetting,
  collections,
  setEarning,
}: SectionProps & { collections: CollectionChoice[] | null; setEarning(earning: EarningDraft): void }) {
  const { editor: m } = useMessages();
  const e = m.earning;
  const s = draft.settings;
  const { source, collectionIds } = draft.earning;
  const period = m.units[s.aggregationPeriod].one;
  const hold = s.rewardHoldDays.trim() || '0';
  const holds = [...new Set<string>([...HOLD_DAYS, hold])]
    .sort((a, b) => Number(a) - Number(b))
    .map((days) => ({ label: days === '0' ? e.hold.none : format(e.hold.days, { days }), value: days }));
  const challengeChoice = source === 'orders' ? `orders_${s.aggregationMethod}` : 'none';
  return (
    <TitledCard title={e.section} region>
      {draft.kind === 'streak' ? (
        <Select
          label={e.source.label}
          options={[
            { label: e.streak.none, value: 'none' },
            { label: format(e.streak.orders, { period }), value: 'orders' },
            { label: format(e.streak.visits, { period }), value: 'visits' },
          ]}
          value={source}
          helpText={source === 'visits' ? e.streak.visitsHelp : source === 'orders' ? e.ordersHelp : undefined}
          onChange={(v) => setEarning({ ...draft.earning, source: v === 'orders' || v === 'visits' ? v : 'none' })}
        />
      ) : null}
      {draft.kind === 'challenge' ? (
        <>
          <Select
            label={e.source.label}
            options={[
              { label: e.challenge.none, value: 'none' },
              { label: e.challenge.orders_count, value: 'orders_count' },
              { label: e.challenge.orders_sum, value: 'orders_sum' },
            ]}
            value={challengeChoice}
            helpText={source === 'orders' ? `${s.aggregationMethod === 'sum' ? `${e.challenge.sumHelp} ` : ''}${e.ordersHelp}` : undefined}
            onChange={(v) => {
              setEarning({ ...draft.earning, source: v === 'none' ? 'none' : 'orders' });
              if (v !== 'none') setSetting('aggregationMethod')(v === 'orders_sum' ? 'sum' : 'count');
            }}
          />
          {source === 'orders' ? (
            collections === null ? (
              <Text as="p" tone="subdued">
                {e.collections.unreadable}
              </Text>
            ) : collections.length ? (
              <ChoiceList
                title={e.collections.label}
                allowMultiple
                choices={collections.map((c) => ({ label: c.title, value: c.id }))}
                selected={collectionIds}
                onChange={(selected) => setEarning({ ...draft.earning, collectionIds: selected })}
              />
            ) : (
              <Text as="p" tone="subdued">
                {e.collections.none}
              </Text>
            )
          ) : null}
          {source === 'orders' && collections?.length ? (
            <Text as="p" tone="subdued">
              {e.collections.help}
            </Text>
          ) : null}
        </>
      ) : null}
      {draft.kind === 'mission' ? <Text as="p">{e.mission}</Text> : null}
      <Select
        label={e.hold.label}
        helpText={e.hold.help}
        options={holds}
        value={hold}
        onChange={setSetting('rewardHoldDays')}
        error={errors['settings.rewardHoldDays']}
      />
      <TextField
        label={m.holdout.label}
        type="number"
        min={0}
        max={50}
        suffix="%"
        autoComplete="off"
        value={s.holdoutPercent}
        onChange={setSetting('holdoutPercent')}
        helpText={m.holdout.help}
        error={errors['settings.holdoutPercent']}
      />
    </TitledCard>
  );
}

function Freezes({ draft, errors, setSetting }: SectionProps) {
  const { editor: m } = useMessages();
  const periods = usePeriods();
  const s = draft.settings;
  const period = m.units[s.aggregationPeriod].one;
  return (
    <TitledCard title={m.sections.freezes}>
      <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
        <TextField
          label={m.streak.maxFreezes.label}
          helpText={format(m.streak.maxFreezes.help, { period })}
          type="number"
          autoComplete="off"
          value={s.maxFreezes}
          onChange={setSetting('maxFreezes')}
          error={errors['settings.maxFreezes']}
        />
        <TextField
          label={m.streak.earnEvery.label}
          helpText={m.streak.earnEvery.help}
          suffix={format(m.streak.earnEvery.suffix, { periods: periods(draft) })}
          type="number"
          autoComplete="off"
          value={s.freezeEarnEveryPeriods}
          onChange={setSetting('freezeEarnEveryPeriods')}
          error={errors['settings.freezeEarnEveryPeriods']}
        />
      </InlineGrid>
    </TitledCard>
  );
}

function Tasks({
  tasks,
  errors,
  onChange,
  newKey,
}: {
  tasks: TaskDraft[];
  errors: Errors;
  onChange(tasks: TaskDraft[], field: string): void;
  newKey(): string;
}) {
  const { editor: m } = useMessages();
  const t = m.mission.task;
  return (
    <TitledCard title={m.sections.tasks} region>
      {errors['settings.tasks'] ? (
        <Text as="p" tone="critical">
          {errors['settings.tasks']}
        </Text>
      ) : null}
      {tasks.length ? null : (
        <Text as="p" tone="subdued">
          {m.mission.tasksEmpty}
        </Text>
      )}
      {tasks.map((task, i) => {
        const set = (field: keyof TaskDraft) => (value: string) =>
          onChange(
            tasks.map((x, k) => (k === i ? { ...x, [field]: value } : x)),
            `settings.tasks.${i}.${field}`,
          );
        const error = (field: string) => errors[`settings.tasks.${i}.${field}`];
        return (
          <Box key={task.key} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
            <BlockStack gap="200">
              <InlineGrid columns={{ xs: 2, md: 4 }} gap="200">
                <TextField label={t.name} autoComplete="off" value={task.name} onChange={set('name')} error={error('name')} />
                <BlockStack gap="100">
                  <Select
                    label={t.activityId}
                    options={[
                      ...BUILT_IN_ACTIVITIES.map((a) => ({ label: t.activities[a], value: a })),
                      { label: t.activities.custom, value: 'custom' },
                    ]}
                    value={isBuiltInActivity(task.activityId) ? task.activityId : 'custom'}
                    helpText={isBuiltInActivity(task.activityId) ? t.builtInHelp : undefined}
                    onChange={(v) => set('activityId')(v === 'custom' ? '' : v)}
                    error={isBuiltInActivity(task.activityId) ? error('activityId') : undefined}
                  />
                  {isBuiltInActivity(task.activityId) ? null : (
                    <TextField
                      label={t.customId}
                      helpText={t.activityHelp}
                      autoComplete="off"
                      value={task.activityId}
                      onChange={set('activityId')}
                      error={error('activityId')}
                    />
                  )}
                </BlockStack>
                <Select
                  label={m.method.label}
                  options={[
                    { label: m.method.count, value: 'count' },
                    { label: m.method.sum, value: 'sum' },
                  ]}
                  value={task.aggregationMethod}
                  onChange={set('aggregationMethod')}
                  error={error('aggregationMethod')}
                />
                <TextField
                  label={t.target}
                  type="number"
                  autoComplete="off"
                  value={task.targetValue}
                  onChange={set('targetValue')}
                  error={error('targetValue')}
                />
              </InlineGrid>
              <InlineStack align="end">
                <Button
                  variant="plain"
                  tone="critical"
                  onClick={() =>
                    onChange(
                      tasks.filter((_, k) => k !== i),
                      'settings.tasks',
                    )
                  }
                >
                  {t.remove}
                </Button>
              </InlineStack>
            </BlockStack>
          </Box>
        );
      })}
      {tasks.length < 20 ? (
        <InlineStack>
          <Button onClick={() => onChange([...tasks, blankTask(newKey())], 'settings.tasks')}>{t.add}</Button>
        </InlineStack>
      ) : null}
    </TitledCard>
  );
}

function ShopperTexts({ draft, errors, setSetting }: SectionProps) {
  const { editor: m } = useMessages();
  const s = draft.settings;
  const text = (key: TextSettingKey, label: string, maxLength: number, helpText?: string) => (
    <TextField
      label={label}
      helpText={helpText}
      autoComplete="off"
      value={s[key]}
      onChange={setSetting(key)}
      error={errors[`settings.${key}`]}
      maxLength={maxLength}
      multiline={maxLength > 48 ? 2 : undefined}
    />
  );
  return (
    <TitledCard title={m.sections.shopper}>
      {text('eudTitle', m.shopper.title.label, 48, m.shopper.title.help)}
      {text('eudDescription', m.shopper.description.label, 1024)}
      {draft.kind !== 'mission' ? text('eudMilestoneAchievedMessage', m.shopper.milestoneMessage.label, 1024) : null}
      {text('eudCompletedMessage', m.shopper.completedMessage.label, 1024)}
    </TitledCard>
  );
}
