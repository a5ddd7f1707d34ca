import { Badge, BlockStack, Box, InlineStack, List, Text } from '@shopify/polaris';
import type { OrderRow, RewardRow } from '../../admin/members.server';
import { format, textFor } from '../../i18n';
import { useMessages, useMoneyText, useNumberText } from '../../i18n/context';
import { useDateText } from '../LocalDate';
import { TitledCard } from '../TitledCard';
import { RewardStatus } from './MemberCards';

const STATE_TONES = {
  earned: 'success',
  partly_refunded: 'warning',
  refunded: 'critical',
  cancelled: 'critical',
  skipped: undefined,
} as const;

/**
 * A customer's orders and their effect on the program (CONTRACT §17): what each earned in which
 * program, what its refunds and cancellation took back, and the rewards it earned, held or revoked.
 */
export function OrdersCard({ orders, rewards }: { orders: OrderRow[]; rewards: RewardRow[] }) {
  const { members: m } = useMessages();
  const date = useDateText();
  const number = useNumberText();
  const money = useMoneyText();
  // A sum an order adds is its amount, in the order's currency; a count is a number of orders.
  const amount = (log: OrderRow['logs'][number], value: number, currency: string | null) =>
    log.method === 'sum' ? money(value, currency) : number(value);
  const rewardsById = new Map(rewards.map((r) => [r.id, r]));
  return (
    <TitledCard title={m.orders} region>
      {orders.length ? null : (
        <Text as="p" tone="subdued">
          {m.emptyOrders}
        </Text>
      )}
      {orders.map((order) => (
        <Box key={order.orderId} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
          <section aria-label={order.name}>
            <BlockStack gap="200">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h3" variant="headingSm">
                  {format(m.order, { name: order.name, date: date(order.processedAt), amount: money(order.amount, order.currency) })}
                </Text>
                <Badge tone={STATE_TONES[order.state]}>{m.orderStates[order.state]}</Badge>
              </InlineStack>
              {order.skipReason ? (
                <Text as="p" tone="subdued">
                  {textFor(m.skipReasons, order.skipReason) ?? order.skipReason}
                </Text>
              ) : order.logs.length || order.points ? (
                <List>
                  {order.points ? (
                    <List.Item>
                      <BlockStack gap="100">
                        <Text as="span">{format(m.orderPoints, { value: number(order.points.earned) })}</Text>
                        {order.points.bonus > 1 ? (
                          <Text as="span" tone="subdued">
                            {format(m.orderPointsBonus, { n: number(order.points.bonus) })}
                          </Text>
                        ) : null}
                        {order.points.refused ? (
                          <Text as="span" tone="critical">
                            {format(m.refused, { message: order.points.refused })}
                          </Text>
                        ) : null}
                        {order.points.reversed > 0 ? (
                          <Text as="span" tone="subdued">
                            {format(m.orderPointsTakenBack, { value: number(order.points.reversed) })}
                          </Text>
                        ) : null}
                      </BlockStack>
                    </List.Item>
                  ) : null}
                  {order.logs.map((log) => (
                    <List.Item key={`${log.kind}:${log.definitionName}:${log.activityId}`}>
                      <BlockStack gap="100">
                        <Text as="span">
                          {format(m.earned, {
                            program: log.definitionName,
                            kind: `${textFor(m.sources, log.kind) ?? log.kind}${log.activityId === 'first_order' ? `, ${m.firstOrder}` : ''}`,
                            value: amount(log, log.value, order.currency),
                          })}
                        </Text>
                        {log.refused ? (
                          <Text as="span" tone="critical">
                            {format(m.refused, { message: log.refused })}
                          </Text>
                        ) : null}
                        {log.reversals
                          .filter((r) => r.value > 0)
                          .map((r) => (
                            <Text as="span" tone="subdued" key={r.uniqueIdentifier}>
                              {format(r.uniqueIdentifier.startsWith('cancel:') ? m.reversals.cancel : m.reversals.refund, {
                                value: amount(log, r.value, order.currency),
                              })}
                            </Text>
                          ))}
                        {log.rewardLogIds.flatMap((id) => {
                          const reward = rewardsById.get(id);
                          return reward ? (
                            <InlineStack key={id} gap="200" blockAlign="center">
                              <Text as="span">{format(m.orderReward, { title: reward.title ?? '' })}</Text>
                              <RewardStatus row={reward} />
                            </InlineStack>
                          ) : (
                            []
                          );
                        })}
                      </BlockStack>
                    </List.Item>
                  ))}
                </List>
              ) : (
                <Text as="p" tone="subdued">
                  {m.nothingFed}
                </Text>
              )}
            </BlockStack>
          </section>
        </Box>
      ))}
    </TitledCard>
  );
}
