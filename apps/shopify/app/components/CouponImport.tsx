import { useRevalidator } from '@remix-run/react';
import { Banner, BlockStack, Card, InlineStack, ProgressBar, Text } from '@shopify/polaris';
import { useState } from 'react';
import { isOutage } from '../core/failure';
import { format } from '../i18n';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';
import { CsvDropZone } from './CsvDropZone';
import { uploadFile } from './upload';

type Outcome = { imported: number; duplicates: number } | { error: string; details: string[] };

/** The import route's answer (app.coupons.$rewardId.tsx): the counts, or the core's error and its details. */
function outcomeOf(body: unknown): Outcome {
  const answer = objectOf(body);
  if (typeof answer.imported === 'number' && typeof answer.duplicates === 'number')
    return { imported: answer.imported, duplicates: answer.duplicates };
  const details = Array.isArray(answer.details) ? answer.details.map(String) : [];
  return { error: String(answer.error ?? ''), details };
}

/**
 * A reward's coupon pool: the counts, and a CSV upload (one code a line) with its progress and the
 * core's result count.
 */
export function CouponImport({ rewardId, available, issued }: { rewardId: string; available: number; issued: number }) {
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const revalidator = useRevalidator();
  const messages = useMessages();
  const language = useAdminLanguage();
  const m = messages.rewards.coupons;

  const upload = async (file: File) => {
    setOutcome(null);
    setProgress(0);
    const sent = await uploadFile(`/app/coupons/${rewardId}?language=${language}`, file, setProgress);
    if (sent.status === 0) return setOutcome({ error: m.notSent, details: [] });
    // An outage is the service's state: the core's words for it say nothing the merchant can act on.
    setOutcome(
      isOutage(sent.status)
        ? { error: messages.editors.refusals.outage, details: [] }
        : sent.body === null
          ? { error: format(m.uploadFailed, { status: sent.status }), details: [] }
          : outcomeOf(sent.body),
    );
    revalidator.revalidate();
  };

  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          {m.title}
        </Text>
        <InlineStack gap="600">
          <Text as="p">
            {m.available} <b data-testid="coupons-available">{available}</b>
          </Text>
          <Text as="p">
            {m.issued} <b>{issued}</b>
          </Text>
        </InlineStack>
        <CsvDropZone label={m.dropLabel} choose={m.choose} hint={m.dropHint} onFile={upload} />
        {progress !== null ? <ProgressBar progress={progress} size="small" /> : null}
        {outcome && 'imported' in outcome ? (
          <Banner tone="success" title={format(m.imported, { imported: outcome.imported, duplicates: outcome.duplicates })} />
        ) : null}
        {outcome && 'error' in outcome ? (
          <Banner tone="critical" title={outcome.error}>
            {outcome.details.map((d) => (
              <p key={d}>{d}</p>
            ))}
          </Banner>
        ) : null}
      </BlockStack>
    </Card>
  );
}
