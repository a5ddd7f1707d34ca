import { useFetcher } from '@remix-run/react';
import { useAppBridge } from '@shopify/app-bridge-react';
import { Badge, BlockStack, Button, Card, InlineError, InlineStack, Text, TextField } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import { format, textFor } from '../../i18n';
import { useAdminLanguage, useMessages, useMoneyText, useNumberText } from '../../i18n/context';
import { useDateText, usePeriodText } from '../LocalDate';
import { RowsTable, type TableRow } from '../RowsTable';
import type {
  AdjustRefusal,
  BirthdayRefusal,
  ChallengeRow,
  GrantRefusal,
  MissionRow,
  Note,
  ResendRefusal,
  RewardRow,
  StreakRow,
} from '../../admin/members.server';

/** What the member page's action answers for one row; the page words it in the merchant's language. */
export type RowAnswer =
  | { intent: 'grant'; ok: true; id: string; freezesAvailable: number }
  | { intent: 'grant'; ok: false; id: string; reason: GrantRefusal; message: string }
  | { intent: 'resend'; ok: true; id: string; couponCode: string; storeCredit: { amount: number; currency: string } | null }
  | { intent: 'resend'; ok: false; id: string; reason: ResendRefusal; message: string }
  | { intent: 'adjust'; ok: true; id: string; balance: number }
  | { intent: 'adjust'; ok: false; id: string; reason: AdjustRefusal; message: string }
  | { intent: 'birthday'; ok: true; id: string; birthday: string | null }
  | { intent: 'birthday'; ok: false; id: string; reason: BirthdayRefusal; message: string };

/** The toast for a success, or the error to show on its row. */
function useAnswerText(answer: RowAnswer | undefined): { toast: string | null; error: string | null } {
  const { members: m, editors } = useMessages();
  const money = useMoneyText();
  const language = useAdminLanguage();
  if (!answer) return { toast: null, error: null };
  // An outage is the service's state, whatever was asked; each table words the refusals of its own.
  const refusal = <R extends string>(words: Record<Exclude<R, 'outage'>, string>, reason: R, message: string) =>
    reason === 'outage' ? editors.refusals.outage : format(words[reason as Exclude<R, 'outage'>], { message });
  if (answer.intent === 'adjust')
    return answer.ok
      ? { toast: format(m.points.adjusted, { balance: new Intl.NumberFormat(language).format(answer.balance) }), error: null }
      : { toast: null, error: refusal(m.points.refusals, answer.reason, answer.message) };
  if (answer.intent === 'birthday')
    return answer.ok
      ? { toast: answer.birthday ? m.birthday.saved : m.birthday.cleared, error: null }
      : { toast: null, error: refusal(m.birthday.refusals, answer.reason, answer.message) };
  if (answer.intent === 'grant')
    return answer.ok
      ? { toast: format(m.granted, { available: answer.freezesAvailable }), error: null }
      : { toast: null, error: format(m.grantFailed, { message: refusal(m.grantRefusals, answer.reason, answer.message) }) };
  if (answer.ok && answer.storeCredit)
    return { toast: format(m.resentCredit, { amount: money(answer.storeCredit.amount, answer.storeCredit.currency) }), error: null };
  return answer.ok
    ? { toast: format(m.resent, { code: answer.couponCode }), error: null }
    : { toast: null, error: format(m.resendFailed, { message: refusal(m.resendRefusals, answer.reason, answer.message) }) };
}

function StatusBadge({ status }: { status: string }) {
  const { members: m } = useMessages();
  const tone =
    status === 'in_progress'
      ? 'info'
      : status === 'completed'
        ? 'success'
        : status === 'broken' || status === 'failed'
          ? 'critical'
          : undefined;
  return <Badge tone={tone}>{textFor(m.statuses, status) ?? status}</Badge>;
}

/**
 * A card with a heading and a table (condensed on a phone: `RowsTable`), or an empty state that
 * says how rows come to be.
 */
export function Section({
  title,
  empty,
  headings,
  rows,
  action = false,
}: {
  title: string;
  empty: string;
  headings: [string, ...string[]];
  rows: TableRow[];
  /** The last column holds the row's action (buttons that say what they do). */
  action?: boolean;
}) {
  return (
    <Card padding="0">
      <section aria-label={title}>
        <BlockStack gap="200">
          <div style={{ padding: 'var(--p-space-400) var(--p-space-400) 0' }}>
            <Text as="h2" variant="headingMd">
              {title}
            </Text>
          </div>
          {rows.length ? (
            <RowsTable name={{ singular: title, plural: title }} headings={headings} rows={rows} action={action} />
          ) : (
            <div style={{ padding: '0 var(--p-space-400) var(--p-space-400)' }}>
              <Text as="p" tone="subdued">
                {empty}
              </Text>
            </div>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}

/** Shows the App Bridge toast for a fetcher's success; an error stays on its row. */
export function useToastFor(answer: RowAnswer | undefined): string | null {
  const shopify = useAppBridge();
  const { toast, error } = useAnswerText(answer);
  useEffect(() => {
    if (toast) shopify.toast.show(toast);
    // Once per answer: the fetcher's data object is new with each submission, the text is not.
  }, [answer]);
  return error;
}

function GrantFreezes({ row }: { row: StreakRow }) {
  const { members: m } = useMessages();
  const fetcher = useFetcher<RowAnswer>();
  const [count, setCount] = useState('1');
  const error = useToastFor(fetcher.data);
  // What the core would refuse or leave unchanged is said instead of offered (CONTRACT §14).
  const unavailable =
    row.status !== 'in_progress'
      ? m.onlyInProgress
      : !row.maxFreezes
        ? m.grantRefusals.off
        : row.freezesAvailable >= row.maxFreezes
          ? format(m.freezesFull, { max: row.maxFreezes })
          : null;
  if (unavailable)
    return (
      // Table cells do not wrap; these are sentences.
      <div style={{ whiteSpace: 'normal', maxWidth: '20rem' }}>
        <Text as="span" tone="subdued">
          {unavailable}
        </Text>
      </div>
    );
  const fieldId = `freezes-${row.id}`;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="grant" />
      <input type="hidden" name="progressId" value={row.id} />
      <BlockStack gap="100">
        <InlineStack gap="200" blockAlign="end" wrap={false}>
          <div style={{ width: '5rem' }}>
            <TextField
              id={fieldId}
              label={m.freezeCount}
              labelHidden
              name="count"
              type="number"
              autoComplete="off"
              value={count}
              onChange={setCount}
            />
          </div>
          <Button
            submit
            loading={fetcher.state !== 'idle'}
            accessibilityLabel={`${m.grant}: ${row.streakName ?? m.deletedPrograms.streak}`}
          >
            {m.grant}
          </Button>
        </InlineStack>
        {error ? (
          // Table cells do not wrap; the core's message may be a sentence.
          <div style={{ whiteSpace: 'normal', maxWidth: '20rem' }}>
            <InlineError fieldID={fieldId} message={error} />
          </div>
        ) : null}
      </BlockStack>
    </fetcher.Form>
  );
}

/** Progress on a program whose definition was deleted: the core joins no name (nor goal) for it. */
function Deleted({ words }: { words: string }) {
  return (
    <Text as="span" tone="subdued">
      {words}
    </Text>
  );
}

export function StreaksCard({ rows }: { rows: StreakRow[] }) {
  const { members: m } = useMessages();
  const date = useDateText();
  const period = usePeriodText();
  const c = m.streakColumns;
  return (
    <Section
      title={m.streaks}
      empty={m.emptyStreaks}
      headings={[c.streak, c.status, c.run, c.freezes, c.breaksAt, c.grant]}
      action
      rows={rows.map((row) => ({
        id: row.id,
        cells: [
          row.streakName ?? <Deleted words={m.deletedPrograms.streak} />,
          <StatusBadge status={row.status} />,
          row.run,
          <BlockStack gap="100">
            <Text as="span" tone={row.maxFreezes ? undefined : 'subdued'}>
              {format(m.freezes, { available: row.freezesAvailable, used: row.freezesUsed, max: row.maxFreezes })}
            </Text>
            {row.frozenPeriodKeys.length ? (
              <Text as="span" tone="subdued">
                {format(m.frozenPeriods, { periods: row.frozenPeriodKeys.map(period).join(', ') })}
              </Text>
            ) : null}
          </BlockStack>,
          row.status === 'in_progress' && row.breaksAt ? date(row.breaksAt) : '',
          <GrantFreezes row={row} />,
        ],
      }))}
    />
  );
}

export function ChallengesCard({ rows }: { rows: ChallengeRow[] }) {
  const { members: m } = useMessages();
  const period = usePeriodText();
  const number = useNumberText();
  const c = m.challengeColumns;
  return (
    <Section
      title={m.challenges}
      empty={m.emptyChallenges}
      headings={[c.challenge, c.window, c.status, c.progress]}
      rows={rows.map((row) => ({
        id: row.id,
        cells: [
          row.challengeName ?? <Deleted words={m.deletedPrograms.challenge} />,
          period(row.periodKey),
          <StatusBadge status={row.status} />,
          row.target === null ? number(row.value) : `${number(row.value)} / ${number(row.target)}`,
        ],
      }))}
    />
  );
}

export function MissionsCard({ rows }: { rows: MissionRow[] }) {
  const { members: m } = useMessages();
  const date = useDateText();
  const c = m.missionColumns;
  return (
    <Section
      title={m.missions}
      empty={m.emptyMissions}
      headings={[c.mission, c.status, c.tasks, c.started]}
      rows={rows.map((row) => ({
        id: row.id,
        cells: [
          row.missionName ?? <Deleted words={m.deletedPrograms.mission} />,
          <StatusBadge status={row.status} />,
          row.tasks === null ? row.tasksCompleted : `${row.tasksCompleted} / ${row.tasks}`,
          date(row.startedAt),
        ],
      }))}
    />
  );
}

/** A note in the admin's language where the app wrote it ("a refund of order #1001", "A refund" where the row names the order), else as written. */
export function useNoteText(): (note: Note | null) => string {
  const { members: m } = useMessages();
  return (note) => {
    if (note === null) return '';
    if (note.kind === 'text') return note.text;
    return note.order === null ? m.takenBackOfIt[note.kind] : format(m.takenBack[note.kind], { order: note.order });
  };
}

/** "Store credit of €12.50", in the admin's language. */
function useStoreCreditText(): (credit: { amount: number; currency: string }) => string {
  const { members: m } = useMessages();
  const money = useMoneyText();
  return (credit) => format(m.storeCredit, { amount: money(credit.amount, credit.currency) });
}

/** What a reward gave, as the Code column says it: its code, the store credit, the points, or that its code is to come. */
function Gave({ row }: { row: RewardRow }) {
  const { members: m } = useMessages();
  const creditText = useStoreCreditText();
  const number = new Intl.NumberFormat(useAdminLanguage());
  if (row.couponCode)
    return (
      <Text as="span" fontWeight="semibold">
        <code>{row.couponCode}</code>
      </Text>
    );
  if (row.storeCredit) return <Text as="span">{creditText(row.storeCredit)}</Text>;
  if (row.points !== null) {
    // Held points are not on the balance yet; a revoked reward's were taken back off it.
    const words = row.status === 'pending' ? m.pointsHeld : row.status === 'revoked' ? m.pointsTakenBack : m.pointsCredited;
    return <Text as="span">{format(words, { points: number.format(row.points) })}</Text>;
  }
  return (
    <Text as="span" tone="subdued">
      {m.noCode}
    </Text>
  );
}

/** What Resend would send again: an issued reward's code or store credit (CONTRACT §17: Reward issued is for an issued reward only, not a held or revoked one). */
function resendable(row: RewardRow, creditText: (credit: { amount: number; currency: string }) => string): string | null {
  if (row.status !== 'issued') return null;
  return row.couponCode ?? (row.storeCredit && creditText(row.storeCredit));
}

/** Resend for a reward whose code or store credit (`what`, as `resendable` says it) Reward issued sends again. */
function Resend({ row, what }: { row: RewardRow; what: string }) {
  const { members: m } = useMessages();
  const fetcher = useFetcher<RowAnswer>();
  const error = useToastFor(fetcher.data);
  const label = row.couponCode ? m.resend : m.rewardColumns.resend;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="rewardLogId" value={row.id} />
      <BlockStack gap="100">
        <Button submit loading={fetcher.state !== 'idle'} accessibilityLabel={`${label}: ${what}`}>
          {label}
        </Button>
        {error ? (
          <div style={{ whiteSpace: 'normal', maxWidth: '20rem' }}>
            <InlineError fieldID={`resend-${row.id}`} message={error} />
          </div>
        ) : null}
      </BlockStack>
    </fetcher.Form>
  );
}

/** Whether a reward is held, issued or revoked (CONTRACT §17), and what became of a revoked one's Shopify discount. */
export function RewardStatus({ row }: { row: RewardRow }) {
  const { members: m } = useMessages();
  const noteText = useNoteText();
  const date = useDateText();
  if (row.status === 'pending') return <Badge tone="attention">{format(m.rewardStatus.pending, { date: date(row.confirmAt) })}</Badge>;
  if (row.status === 'issued') return <Badge tone="success">{m.rewardStatus.issued}</Badge>;
  return (
    <BlockStack gap="100">
      <Badge tone="critical">
        {row.revokedReason ? format(m.revokedBecause, { reason: noteText(row.revokedReason) }) : m.rewardStatus.revoked}
      </Badge>
      {row.discount ? (
        <div style={{ whiteSpace: 'normal', maxWidth: '20rem' }}>
          <Text as="span" tone="subdued">
            {textFor(m.discountOutcomes, row.discount) ?? row.discount}
          </Text>
        </div>
      ) : null}
    </BlockStack>
  );
}

export function RewardsCard({ rows }: { rows: RewardRow[] }) {
  const { members: m } = useMessages();
  const date = useDateText();
  const creditText = useStoreCreditText();
  const c = m.rewardColumns;
  return (
    <Section
      title={m.rewards}
      empty={m.emptyRewards}
      headings={[c.reward, c.from, c.status, c.code, c.issued, c.expires, c.resend]}
      action
      rows={rows.map((row) => {
        const what = resendable(row, creditText);
        return {
          id: row.id,
          cells: [
            // Table cells do not wrap; a long reward name or status would push Resend out of the card at 1280 px.
            <div style={{ whiteSpace: 'normal', minWidth: '8rem', maxWidth: '12rem' }}>{row.title ?? ''}</div>,
            textFor(m.sources, row.source) ?? row.source,
            <div style={{ whiteSpace: 'normal', maxWidth: '14rem' }}>
              <RewardStatus row={row} />
            </div>,
            <Gave row={row} />,
            row.issuedAt ? date(row.issuedAt) : '',
            row.expiresAt ? date(row.expiresAt) : m.never,
            what ? <Resend row={row} what={what} /> : null,
          ],
        };
      })}
    />
  );
}
