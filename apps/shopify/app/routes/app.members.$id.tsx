import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { Badge, Banner, BlockStack, Card, InlineGrid, Layout, Page, Text } from '@shopify/polaris';
import { ChallengesCard, MissionsCard, RewardsCard, type RowAnswer, StreaksCard } from '../components/members/MemberCards';
import { CustomerLink } from '../components/CustomerLink';
import { OrdersCard } from '../components/members/OrdersCard';
import { PointsCard } from '../components/members/PointsCard';
import { fullName } from '../components/members/names';
import { authenticateShop } from '../admin/authenticate.server';
import {
  adjustMemberPoints,
  grantFreezes,
  grantRefusal,
  memberDetail,
  nameFromShopify,
  resendRewardIssued,
  setMemberBirthday,
} from '../admin/members.server';
import { BirthdayField } from '../components/members/BirthdayField';
import { format, textFor } from '../i18n';
import { FailureBanner } from '../components/FailureBanner';
import { useMessages } from '../i18n/context';
import { outbox } from '../loop/outbox.server';
import { customerOrders } from '../earning/ledger.server';
import { leftOutBy } from '../earning/exclusions.server';
import { fetchShop } from '../shopify/admin-api.server';
import { pool } from '../storage/pool.server';
import { DateTimeZone, LocalDate, useZoneName } from '../components/LocalDate';
import { HelpFooter } from '../components/HelpFooter';
import { ReferralsText } from '../components/members/ReferralsText';

/**
 * One member: profile, points, progress on every program, reward logs with codes, the tags that
 * leave them out of the program; freezes, resending a code, adjusting points, their birthday.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { api, admin, session } = await authenticateShop(request);
  // Times are shown in the member's zone; the shop's stands in for members without one (as in the core).
  const shop = await fetchShop(admin).catch(() => null);
  const found = await memberDetail(api, params.id ?? '', shop?.ianaTimezone ?? null, {
    orders: (customerId) => customerOrders(pool(), session.shop, customerId),
    issuedAtShopify: (ids) => outbox.issuedAtShopify(session.shop, ids),
  });
  if (!found.detail) return { ...found, detail: null };
  const { customerId } = found.detail.member;
  const [[member], leftOut] = await Promise.all([
    nameFromShopify(api, admin, [found.detail.member]),
    customerId === null ? null : leftOutBy(pool(), session.shop, String(customerId)),
  ]);
  return { ...found, detail: { ...found.detail, member: member!, leftOut } };
};

export const action = async ({ request, params }: ActionFunctionArgs): Promise<RowAnswer> => {
  const { api, admin, session } = await authenticateShop(request);
  const form = await request.formData().catch(() => null);
  if (!form) throw new Response('The body must be a form (intent=grant, resend, adjust or birthday).', { status: 400 });
  const intent = form.get('intent');
  if (intent === 'grant') {
    const id = String(form.get('progressId') ?? '');
    // Sent as a number whatever was typed, so the core's own check answers anything it refuses.
    const count = Number(String(form.get('count') ?? '').trim());
    const result = await grantFreezes(api, id, count);
    if (result.ok) return { intent, ok: true, id, freezesAvailable: result.freezesAvailable };
    return { intent, ok: false, id, reason: await grantRefusal(api, id, result.failure), message: result.failure.message };
  }
  if (intent === 'resend') {
    const id = String(form.get('rewardLogId') ?? '');
    const result = await resendRewardIssued({ outbox, api, admin, shop: session.shop }, params.id ?? '', id);
    if (result.ok) return { intent, ok: true, id, couponCode: result.couponCode, storeCredit: result.storeCredit };
    return { intent, ok: false, id, reason: result.reason, message: result.message ?? '' };
  }
  if (intent === 'adjust') {
    const id = params.id ?? '';
    const result = await adjustMemberPoints(api, id, {
      // A number whatever was typed (NaN for none), so the one check refuses what is not a whole number.
      points: Number(String(form.get('points') ?? '').trim() || Number.NaN),
      note: String(form.get('note') ?? ''),
      key: String(form.get('key') ?? ''),
    });
    if (result.ok) return { intent, ok: true, id, balance: result.balance };
    return { intent, ok: false, id, reason: result.reason, message: result.message };
  }
  if (intent === 'birthday') {
    const id = params.id ?? '';
    // Month and day as picked (none: cleared); the core checks the day is one the month has.
    const month = String(form.get('month') ?? '');
    const day = String(form.get('day') ?? '');
    const birthday = month || day ? `${month.padStart(2, '0')}-${day.padStart(2, '0')}` : null;
    const result = await setMemberBirthday(api, id, birthday);
    if (result.ok) return { intent, ok: true, id, birthday: result.birthday };
    return { intent, ok: false, id, reason: result.reason, message: result.message };
  }
  throw new Response('Unknown intent', { status: 400 });
};

export default function Member() {
  const { detail, failure } = useLoaderData<typeof loader>();
  const { members: m } = useMessages();
  const zoneName = useZoneName();
  if (!detail)
    return (
      <Page title={m.title} backAction={{ content: m.back, url: '/app/members' }}>
        {failure ? <FailureBanner failure={failure} /> : <Banner tone="warning" title={m.notFound} />}
      </Page>
    );
  const { member, leftOut } = detail;
  return (
    <Page
      title={fullName(member) || member.email || m.noName}
      subtitle={member.email ?? undefined}
      backAction={{ content: m.back, url: '/app/members' }}
      titleMetadata={
        <Badge tone={member.status === 'live' ? 'success' : undefined}>{textFor(m.statuses, member.status) ?? member.status}</Badge>
      }
    >
      <DateTimeZone.Provider value={member.timezone ?? null}>
        <Layout>
          {leftOut?.length ? (
            <Layout.Section>
              <Banner tone="info" title={m.leftOut.title} action={{ content: m.leftOut.action, url: '/app/points' }}>
                {format(m.leftOut.body, { tags: leftOut.map((t) => `“${t}”`).join(', ') })}
              </Banner>
            </Layout.Section>
          ) : member.status === 'paused' && leftOut === null ? (
            // Paused, and not by the app for a tag (it keeps those it paused): by the account's own systems.
            <Layout.Section>
              <Banner tone="info" title={m.pausedElsewhere.title}>
                {m.pausedElsewhere.body}
              </Banner>
            </Layout.Section>
          ) : null}
          <Layout.Section>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {m.profile}
                </Text>
                <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
                  <BlockStack gap="100">
                    <Text as="p" tone="subdued">
                      {m.columns.externalId}
                    </Text>
                    <CustomerLink customerId={member.customerId} externalId={member.externalId} label={m.shopifyCustomer} />
                  </BlockStack>
                  <BlockStack gap="100">
                    <Text as="p" tone="subdued">
                      {m.columns.email}
                    </Text>
                    <Text as="p">{member.email ?? '—'}</Text>
                  </BlockStack>
                  <BlockStack gap="100">
                    <Text as="p" tone="subdued">
                      {m.timezone}
                    </Text>
                    <Text as="p">{member.timezone ? zoneName(member.timezone) : '—'}</Text>
                  </BlockStack>
                  <BlockStack gap="100">
                    <Text as="p" tone="subdued">
                      {m.columns.joined}
                    </Text>
                    <Text as="p">
                      <LocalDate value={member.createdAt} withTime={false} />
                    </Text>
                  </BlockStack>
                  <BirthdayField memberId={member.id} birthday={member.birthday} />
                  <BlockStack gap="100">
                    <Text as="p" tone="subdued">
                      {m.referrals.title}
                    </Text>
                    <ReferralsText referrals={detail.referrals} />
                  </BlockStack>
                </InlineGrid>
              </BlockStack>
            </Card>
          </Layout.Section>
          <Layout.Section>
            <PointsCard
              memberId={member.id}
              balance={member.pointsBalance}
              expiresAt={detail.pointsExpireAt}
              tier={detail.tier}
              followed={member.socialFollows}
              rows={detail.points}
            />
          </Layout.Section>
          {member.customerId !== null ? (
            <Layout.Section>
              <OrdersCard orders={detail.orders} rewards={detail.rewards} />
            </Layout.Section>
          ) : null}
          <Layout.Section>
            <StreaksCard rows={detail.streaks} />
          </Layout.Section>
          <Layout.Section>
            <ChallengesCard rows={detail.challenges} />
          </Layout.Section>
          <Layout.Section>
            <MissionsCard rows={detail.missions} />
          </Layout.Section>
          <Layout.Section>
            <RewardsCard rows={detail.rewards} />
          </Layout.Section>
        </Layout>
      </DateTimeZone.Provider>
      <HelpFooter topic="members" />
    </Page>
  );
}
