import { Link } from '@remix-run/react';
import { BlockStack, Text } from '@shopify/polaris';
import type { MemberDetail } from '../../admin/members.server';
import { format } from '../../i18n';
import { useMessages } from '../../i18n/context';
import { fullName } from './names';

/** Whom the member's referral link brought, and who referred them, by name with a link to their page. */
export function ReferralsText({ referrals }: { referrals: MemberDetail['referrals'] }) {
  const { members: m } = useMessages();
  const { referredBy, referred } = referrals;
  return (
    <BlockStack gap="100">
      <Text as="p">
        {referred === 0 ? m.referrals.none : referred === 1 ? m.referrals.one : format(m.referrals.many, { count: referred })}
      </Text>
      {referredBy ? (
        <Text as="p">
          {m.referrals.referredBy} <Link to={`/app/members/${referredBy.id}`}>{fullName(referredBy) || referredBy.email || m.noName}</Link>
        </Text>
      ) : null}
    </BlockStack>
  );
}
