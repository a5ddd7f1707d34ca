import { Banner } from '@shopify/polaris';
import { type CoreFailure, isOutage } from '../core/failure';
import { useMessages } from '../i18n/context';

/** A core answer a page could not do without, in words: the core's own for a refusal, the admin's for an outage. */
export function FailureBanner({ failure }: { failure: Pick<CoreFailure, 'status' | 'message'> }) {
  const { common } = useMessages();
  // An outage is the service's state, not the merchant's input: the core's English says nothing they can act on.
  if (!isOutage(failure.status)) return <Banner tone="critical" title={failure.message} />;
  return (
    <Banner tone="critical" title={common.unavailable.title}>
      <p>{common.unavailable.body}</p>
    </Banner>
  );
}
