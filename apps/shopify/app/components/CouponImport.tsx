import { useRevalidator } from '@remix-run/react';
import { Banner, BlockStack, Card, DropZone, InlineStack, ProgressBar, Text } from '@shopify/polaris';
import { useState } from 'react';
import { isOutage } from '../core/failure';
import { format } from '../i18n';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';

type Outcome = { imported: number; duplicates: number } | { error: string; details: string[] };

/** The import route's answer (app.coupons.$rewardId.tsx): the counts, or the core's error and its details. */
function outcomeOf(body: unknown): Outcome {
  const answer = objectOf(body);
  if (typeof answer.imported === 'number' && typeof answer.duplicates === 'number')
    return { imported: answer.imported, duplicates: answer.duplicates };
  const details = Array.isArray(answer.details) ? answer.details.map(String) : [];
  return { error: String(answer.error ?? ''), details };
}

declare global {
  interface Window {
    shopify?: { idToken(): Promise<string> };
  }
}

/**
 * A reward's coupon pool: the counts, and a CSV upload (one code a line) with its progress and the
 * core's result count. The upload is an XMLHttpRequest because fetch reports no upload progress; it
 * carries the App Bridge session token itself, as App Bridge only adds it to fetch.
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
    const token = await window.shopify?.idToken();
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/app/coupons/${rewardId}?language=${language}`);
    xhr.setRequestHeader('content-type', 'text/csv');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      setProgress(100);
      try {
        // An outage is the service's state: the core's words for it say nothing the merchant can act on.
        setOutcome(
          isOutage(xhr.status) ? { error: messages.editors.refusals.outage, details: [] } : outcomeOf(JSON.parse(xhr.responseText)),
        );
      } catch {
        setOutcome({ error: format(m.uploadFailed, { status: xhr.status }), details: [] });
      }
      revalidator.revalidate();
    };
    xhr.onerror = () => setOutcome({ error: m.notSent, details: [] });
    xhr.send(file);
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
        <DropZone
          accept=".csv,text/csv,text/plain"
          type="file"
          allowMultiple={false}
          label={m.dropLabel}
          onDropAccepted={(files) => files[0] && upload(files[0])}
        >
          <DropZone.FileUpload actionTitle={m.choose} actionHint={m.dropHint} />
        </DropZone>
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
