import { Badge, BlockStack, Box, Button, Card, EmptyState, InlineGrid, InlineStack, Select, Text, TextField } from '@shopify/polaris';
import { NameField } from '../RecordFields';
import { RowsTable } from '../RowsTable';
import type { MilestoneDraft, ProgramDraft, RewardChoice, RewardSummary } from '../../admin/program-draft';
import { format } from '../../i18n';
import { useMessages } from '../../i18n/context';
import { RewardFields, useRewardSummary } from './RewardFields';

type Errors = Record<string, string | undefined>;

/** The words for a number of the program's units: "3 days", "2 weeks". */
export function usePeriods() {
  const { editor: m } = useMessages();
  return (draft: ProgramDraft, count?: number) => {
    const unit = m.units[draft.settings.aggregationPeriod];
    return count === 1 ? unit.one : unit.other;
  };
}

/**
 * The program's milestones: a table of what each is reached at and rewards, and below it the
 * form of each milestone being edited (new ones, and any the core refused, are open).
 */
export function Milestones({
  draft,
  rewards,
  errors,
  open,
  problemKeys,
  onOpen,
  onChange,
  onAdd,
  onRemove,
}: {
  draft: ProgramDraft;
  rewards: RewardSummary[];
  errors: Errors;
  open: string[];
  /** Milestones with an error from the last save. */
  problemKeys: Set<string>;
  onOpen(key: string, open: boolean): void;
  onChange(key: string, next: MilestoneDraft, field: string): void;
  onAdd(): void;
  onRemove(key: string): void;
}) {
  const { editor: m } = useMessages();
  const periods = usePeriods();
  const summary = useRewardSummary();
  const milestones = draft.milestones;
  const rewardText = (choice: RewardChoice) =>
    choice.mode === 'existing'
      ? summary(rewards.find((r) => r.id === choice.rewardId))
      : choice.mode === 'new'
        ? `${choice.draft.name || m.reward.new} (${m.reward.summary.unsaved})`
        : '—';
  const at = (ms: MilestoneDraft) =>
    format(m.milestones.at[draft.kind], { value: ms.target || '?', periods: periods(draft, Number(ms.target)) });
  return (
    <Card padding="0">
      <section aria-label={m.sections.milestones}>
        <Box padding="400">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {m.sections.milestones}
            </Text>
            {milestones.length ? <Button onClick={onAdd}>{m.milestones.add}</Button> : null}
          </InlineStack>
        </Box>
        {milestones.length ? (
          <RowsTable
            name={{ singular: m.sections.milestones, plural: m.sections.milestones }}
            headings={[
              m.milestones.headings.target,
              m.milestones.headings.name,
              m.milestones.headings.reward,
              m.milestones.headings.status,
              m.milestones.headings.actions,
            ]}
            action
            titleColumn={1}
            rows={milestones.map((ms) => ({
              id: ms.key,
              cells: [
                at(ms),
                <Text as="span" fontWeight="medium">
                  {ms.name || m.milestones.untitled}
                </Text>,
                rewardText(ms.reward),
                <InlineStack gap="100">
                  <Badge tone={ms.status === 'live' ? 'success' : undefined}>{m.status.badge[ms.status]}</Badge>
                  {!ms.id ? <Badge tone="info">{m.milestones.unsaved}</Badge> : null}
                  {problemKeys.has(ms.key) ? <Badge tone="critical">{m.milestones.needsAttention}</Badge> : null}
                </InlineStack>,
                <InlineStack gap="200" align="end">
                  <Button variant="plain" onClick={() => onOpen(ms.key, !open.includes(ms.key))}>
                    {open.includes(ms.key) ? m.milestones.done : m.milestones.edit}
                  </Button>
                  <Button variant="plain" tone="critical" onClick={() => onRemove(ms.key)}>
                    {m.milestones.remove}
                  </Button>
                </InlineStack>,
              ],
            }))}
          />
        ) : (
          <EmptyState heading={m.milestones.emptyHeading} action={{ content: m.milestones.add, onAction: onAdd }} image="">
            <p>{m.milestones.empty}</p>
          </EmptyState>
        )}
        {milestones
          .filter((ms) => open.includes(ms.key))
          .map((ms) => (
            <Box key={ms.key} padding="400" borderBlockStartWidth="025" borderColor="border">
              <MilestoneForm
                draft={draft}
                milestone={ms}
                rewards={rewards}
                errors={errors}
                onChange={(next, field) => onChange(ms.key, next, field)}
              />
            </Box>
          ))}
      </section>
    </Card>
  );
}

function MilestoneForm({
  draft,
  milestone: ms,
  rewards,
  errors,
  onChange,
}: {
  draft: ProgramDraft;
  milestone: MilestoneDraft;
  rewards: RewardSummary[];
  errors: Errors;
  onChange(next: MilestoneDraft, field: string): void;
}) {
  const { editor: m } = useMessages();
  const periods = usePeriods();
  const prefix = `milestones.${ms.key}`;
  const error = (field: string) => errors[`${prefix}.${field}`];
  const set = (field: keyof MilestoneDraft) => (value: string) => onChange({ ...ms, [field]: value }, field);
  const target = m.milestones.target[draft.kind];
  const rewardErrors = Object.fromEntries(
    Object.entries(errors)
      .filter(([key]) => key.startsWith(`${prefix}.reward.`))
      .map(([key, value]) => [key.slice(`${prefix}.reward.`.length), value]),
  );
  return (
    <section aria-label={format(m.milestones.card, { name: ms.name || m.milestones.untitled })}>
      <BlockStack gap="300">
        <Text as="h3" variant="headingSm">
          {format(m.milestones.card, { name: ms.name || m.milestones.untitled })}
        </Text>
        <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
          <NameField label={m.milestones.name} value={ms.name} onChange={set('name')} error={error('name')} />
          <TextField
            label={target.label}
            type="number"
            autoComplete="off"
            value={ms.target}
            onChange={set('target')}
            suffix={format(target.suffix, { periods: periods(draft, Number(ms.target)) })}
            error={error('target')}
          />
          <TextField
            label={m.milestones.title.label}
            autoComplete="off"
            value={ms.eudTitle}
            onChange={set('eudTitle')}
            error={error('eudTitle')}
            maxLength={48}
          />
          <Select
            label={m.milestones.status.label}
            options={[
              { label: m.milestones.status.live, value: 'live' },
              { label: m.milestones.status.draft, value: 'draft' },
              { label: m.status.badge.paused, value: 'paused' },
            ]}
            value={ms.status}
            onChange={set('status')}
            error={error('status')}
          />
        </InlineGrid>
        <TextField
          label={m.milestones.description.label}
          helpText={m.milestones.description.help}
          autoComplete="off"
          value={ms.description}
          onChange={set('description')}
          error={error('description')}
          maxLength={1024}
        />
        <RewardFields
          choice={ms.reward}
          rewards={rewards}
          errors={{ ...rewardErrors, rewardId: rewardErrors.rewardId ?? error('rewardId') }}
          onChange={(reward, field) => onChange({ ...ms, reward }, `reward.${field}`)}
        />
      </BlockStack>
    </section>
  );
}
