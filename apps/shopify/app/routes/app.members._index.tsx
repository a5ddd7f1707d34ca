import type { LoaderFunctionArgs, SerializeFrom } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation, useSearchParams, useSubmit } from '@remix-run/react';
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Page,
  Pagination,
  Select,
  Text,
  TextField,
  useBreakpoints,
} from '@shopify/polaris';
import { memo, useRef, useState } from 'react';
import { CustomerLink } from '../components/CustomerLink';
import { format, textFor } from '../i18n';
import { FailureBanner } from '../components/FailureBanner';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { fullName } from '../components/members/names';
import { authenticateShop } from '../admin/authenticate.server';
import { nameFromShopify, PAGE_SIZE, searchMembers } from '../admin/members.server';
import { MEMBER_STATUSES, memberStatusOf, type MemberStatus } from '../admin/member-statuses';
import { EMPTY_STATE_IMAGE } from '../components/illustrations';
import { LocalDate } from '../components/LocalDate';
import { HelpFooter } from '../components/HelpFooter';

/**
 * Members, newest first, or those matching a search by name, e-mail or customer id, all of them or
 * those live or paused (`?status=`, the Points page's link to the customers its tags leave out);
 * customers the core has no name for named by Shopify.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api, admin } = await authenticateShop(request);
  const url = new URL(request.url);
  const query = url.searchParams.get('q')?.trim() ?? '';
  const page = Math.max(0, Number.parseInt(url.searchParams.get('page') ?? '0', 10) || 0);
  const status = memberStatusOf(url.searchParams.get('status'));
  const found = await searchMembers(api, query, page, status);
  return { query, status, page, pageSize: PAGE_SIZE, ...found, members: await nameFromShopify(api, admin, found.members) };
};

type MembersData = SerializeFrom<typeof loader>;

export default function Members() {
  const data = useLoaderData<typeof loader>();
  const { members: m } = useMessages();
  return (
    <Page title={m.title}>
      <BlockStack gap="400">
        <SearchForm query={data.query} status={data.status} />
        {data.failure ? <FailureBanner failure={data.failure} /> : null}
        <Results data={data} />
      </BlockStack>
      <HelpFooter topic="members" />
    </Page>
  );
}

/**
 * The search: its keystrokes and the search's loading state re-render this form alone, not the rows.
 * A status picked submits the form at once; until the list answers, the list shows the status asked for.
 */
function SearchForm({ query, status }: { query: string; status: MemberStatus | null }) {
  const { members: m } = useMessages();
  const navigation = useNavigation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const [text, setText] = useState(query);
  const asked = navigation.location && new URLSearchParams(navigation.location.search).get('status');
  return (
    <Card>
      <Form method="get" ref={form}>
        <InlineStack gap="300" blockAlign="end">
          <div style={{ flex: 1 }}>
            <TextField
              label={m.searchLabel}
              name="q"
              type="search"
              autoComplete="off"
              placeholder={m.searchPlaceholder}
              value={text}
              onChange={setText}
            />
          </div>
          <Select
            label={m.statusLabel}
            name="status"
            options={[{ label: m.allStatuses, value: '' }, ...MEMBER_STATUSES.map((value) => ({ label: m.statuses[value], value }))]}
            value={asked ?? status ?? ''}
            onChange={() => submit(form.current)}
          />
          <Button submit variant="primary" loading={navigation.state === 'loading'}>
            {m.search}
          </Button>
        </InlineStack>
      </Form>
    </Card>
  );
}

/** The rows and the pages, drawn again only when the loader answers (memo: the page re-renders on every navigation state). */
const Results = memo(function Results({ data }: { data: MembersData }) {
  const { query, status, page, pageSize, members, total, failure } = data;
  const { members: m } = useMessages();
  const number = new Intl.NumberFormat(useAdminLanguage());
  const condensed = useBreakpoints().smDown;
  const [params] = useSearchParams();
  const pageUrl = (p: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(p));
    return `?${next.toString()}`;
  };
  return (
    <>
      {/* Which search and status the rows answer, so a reader (and a test) can tell fresh rows from the previous search's. */}
      <Card padding="0">
        <div data-results-for={query} data-results-status={status ?? ''} hidden />
        {members.length ? (
          <IndexTable
            condensed={condensed}
            resourceName={m.resourceName}
            itemCount={members.length}
            selectable={false}
            headings={[
              { title: m.columns.name },
              { title: m.columns.email },
              { title: m.columns.externalId },
              { title: m.columns.points, alignment: 'end' },
              { title: m.columns.tier },
              { title: m.columns.status },
              { title: m.columns.joined },
            ]}
          >
            {members.map((member, i) => {
              const name = (
                <Link to={`/app/members/${member.id}`} data-primary-link>
                  <Text as="span" fontWeight="semibold">
                    {fullName(member) || m.noName}
                  </Text>
                </Link>
              );
              const points = (
                <Text as="span" alignment="end" numeric>
                  {number.format(member.pointsBalance)}
                </Text>
              );
              const status = (
                <Badge tone={member.status === 'live' ? 'success' : undefined}>{textFor(m.statuses, member.status) ?? member.status}</Badge>
              );
              return (
                <IndexTable.Row id={member.id} key={member.id} position={i}>
                  {condensed ? (
                    // A phone: one member a stacked item, as Polaris lays a condensed table out, rather than seven columns scrolled sideways.
                    <Box paddingBlock="300" paddingInline="400" width="100%">
                      <BlockStack gap="100">
                        <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
                          {name}
                          <InlineStack gap="100" wrap={false}>
                            <Text as="span" tone="subdued">
                              {m.columns.points}
                            </Text>
                            {points}
                          </InlineStack>
                        </InlineStack>
                        {member.email ? (
                          <Text as="span" tone="subdued" breakWord>
                            {member.email}
                          </Text>
                        ) : null}
                        <InlineStack gap="200" blockAlign="center">
                          {status}
                          {member.tier ? <Text as="span">{member.tier}</Text> : null}
                          <Text as="span" tone="subdued">
                            <LocalDate value={member.createdAt} withTime={false} />
                          </Text>
                        </InlineStack>
                      </BlockStack>
                    </Box>
                  ) : (
                    <>
                      <IndexTable.Cell>{name}</IndexTable.Cell>
                      <IndexTable.Cell>{member.email ?? ''}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <CustomerLink customerId={member.customerId} externalId={member.externalId} label={m.shopifyCustomer} />
                      </IndexTable.Cell>
                      <IndexTable.Cell>{points}</IndexTable.Cell>
                      <IndexTable.Cell>{member.tier ?? ''}</IndexTable.Cell>
                      <IndexTable.Cell>{status}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <LocalDate value={member.createdAt} withTime={false} />
                      </IndexTable.Cell>
                    </>
                  )}
                </IndexTable.Row>
              );
            })}
          </IndexTable>
        ) : query ? (
          <EmptyState heading={format(m.noMatchTitle, { query })} image={EMPTY_STATE_IMAGE}>
            <p>{m.noMatchBody}</p>
          </EmptyState>
        ) : status ? (
          <EmptyState heading={m.noneWithStatus[status]} image={EMPTY_STATE_IMAGE}>
            <p>{m.noneWithStatusBody}</p>
          </EmptyState>
        ) : failure ? null : (
          <EmptyState heading={m.emptyTitle} image={EMPTY_STATE_IMAGE}>
            <p>{m.emptyBody}</p>
          </EmptyState>
        )}
      </Card>
      {total > 0 ? (
        <InlineStack align="space-between" blockAlign="center">
          <Text as="p" tone="subdued">
            {format(m.count[total === 1 ? 'one' : 'other'], { shown: number.format(members.length), total: number.format(total) })}
          </Text>
          <Pagination
            hasPrevious={page > 0}
            // A link only where there is a page: one without an address is announced as a link that goes nowhere.
            previousURL={page > 0 ? pageUrl(page - 1) : undefined}
            previousTooltip={m.previous}
            hasNext={(page + 1) * pageSize < total}
            nextURL={(page + 1) * pageSize < total ? pageUrl(page + 1) : undefined}
            nextTooltip={m.next}
          />
        </InlineStack>
      ) : null}
    </>
  );
});
