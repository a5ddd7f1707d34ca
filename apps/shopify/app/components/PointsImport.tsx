import { useFetcher } from '@remix-run/react';
import { Banner, BlockStack, ProgressBar, Text } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import { isOutage } from '../core/failure';
import { format } from '../i18n';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';
import type { ImportState } from '../points-import/imports.server';
import { useDateText } from './LocalDate';
import { RowsTable } from './RowsTable';
import { TitledCard } from './TitledCard';
import { CsvDropZone } from './CsvDropZone';
import { uploadFile } from './upload';

type Outcome = { tone: 'success' | 'info' | 'critical'; title: string; details: string[] };

/** Whether the worker still has rows of the import to give. */
const underWay = (i: ImportState) => i.done + i.failed < i.rows;

/** How often the page reads the imports' progress again while one is under way. */
const POLL_MS = 2000;

/**
 * Balances brought from another loyalty app: the file picker (app.points-import.tsx checks the file
 * and queues it) and the shop's latest imports, their progress read again from that route while one
 * runs, and the rows that could not be given, by line, with why.
 */
export function PointsImport({ imports }: { imports: ImportState[] }) {
  const messages = useMessages();
  const m = messages.editors.points.import;
  const language = useAdminLanguage();
  const date = useDateText();
  // The progress alone is read again (the route's loader), not the whole page.
  const progressOf = useFetcher<{ imports: ImportState[] }>();
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const shown = progressOf.data?.imports ?? imports;
  const running = shown.some(underWay);

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => progressOf.state === 'idle' && progressOf.load('/app/points-import'), POLL_MS);
    return () => clearInterval(timer);
  }, [running, progressOf]);

  const upload = async (file: File) => {
    setOutcome(null);
    setProgress(0);
    const sent = await uploadFile(`/app/points-import?language=${language}&name=${encodeURIComponent(file.name)}`, file, setProgress);
    const body = objectOf(sent.body);
    if (sent.status === 0) setOutcome({ tone: 'critical', title: m.notSent, details: [] });
    else if (isOutage(sent.status)) setOutcome({ tone: 'critical', title: messages.editors.refusals.outage, details: [] });
    else if (body.queued === true) {
      const zero = Number(body.zero) || 0;
      setOutcome({ tone: 'success', title: format(zero ? m.queued : m.queuedNoZero, { rows: Number(body.rows), zero }), details: [] });
    } else if (body.queued === false) setOutcome({ tone: 'info', title: format(m.already, { date: date(body.createdAt) }), details: [] });
    else
      setOutcome({
        tone: 'critical',
        title: typeof body.error === 'string' ? body.error : m.refused,
        details: Array.isArray(body.details) ? body.details.map(String) : [],
      });
    progressOf.load('/app/points-import');
  };

  const reason = (why: string) =>
    why === 'not_found' || why === 'not_installed' || why === 'already_imported' || why === 'tier_gone'
      ? m.reasons[why]
      : format(m.reasons.other, { message: why });

  return (
    <TitledCard title={m.title} region>
      <Text as="p">{m.body}</Text>
      <Text as="p">{m.tiers}</Text>
      <Text as="p">{m.birthdays}</Text>
      <CsvDropZone label={m.dropLabel} choose={m.choose} hint={m.hint} onFile={upload} />
      {progress !== null && outcome === null ? <ProgressBar progress={progress} size="small" /> : null}
      {outcome ? (
        <Banner tone={outcome.tone} title={outcome.title}>
          {outcome.details.map((d) => (
            <p key={d}>{d}</p>
          ))}
        </Banner>
      ) : null}
      {shown.length ? (
        <BlockStack gap="300">
          <Text as="h3" variant="headingSm">
            {m.history}
          </Text>
          {shown.map((i) => (
            <BlockStack gap="200" key={i.id}>
              <Text as="p" fontWeight="semibold">
                {i.fileName}
              </Text>
              <Text as="p" tone="subdued">
                {format(m.uploaded, { date: date(i.createdAt) })}
              </Text>
              <Text as="p">
                {underWay(i)
                  ? format(m.progress, { done: i.done, rows: i.rows, failed: i.failed })
                  : format(m.finished, {
                      points: i.points.toLocaleString(language),
                      customers: format(m.customers[i.given === 1 ? 'one' : 'other'], { count: i.given.toLocaleString(language) }),
                      failed: i.failed,
                    })}
                {i.tiered ? ` ${format(m.tiered[i.tiered === 1 ? 'one' : 'other'], { count: i.tiered.toLocaleString(language) })}` : null}
                {i.birthdays
                  ? ` ${format(m.birthdaysGiven[i.birthdays === 1 ? 'one' : 'other'], { count: i.birthdays.toLocaleString(language) })}`
                  : null}
              </Text>
              {underWay(i) ? <ProgressBar progress={Math.round(((i.done + i.failed) / i.rows) * 100)} size="small" /> : null}
              {i.failures.length ? (
                <section aria-label={m.failures}>
                  <RowsTable
                    name={{ singular: m.failureColumns.line, plural: m.failures }}
                    headings={[m.failureColumns.line, m.failureColumns.customer, m.failureColumns.why]}
                    numeric={[0]}
                    titleColumn={1}
                    rows={i.failures.map((f) => ({ id: String(f.line), cells: [String(f.line), f.customer, reason(f.reason)] }))}
                  />
                </section>
              ) : null}
            </BlockStack>
          ))}
        </BlockStack>
      ) : null}
    </TitledCard>
  );
}
