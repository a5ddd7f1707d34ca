import { Link, useFetcher, useRevalidator } from '@remix-run/react';
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  InlineGrid,
  InlineStack,
  List,
  ProgressBar,
  Text,
} from '@shopify/polaris';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { format, textFor } from '../i18n';
import { useAdminLanguage, useMessages } from '../i18n/context';
import type { Checklist } from '../admin/onboarding/checklist.server';
import { templateAmounts, TEMPLATE_IDS, type TemplateId } from '../admin/onboarding/program-templates';
import { FLOW_ACTIONS, TRIGGERS } from '../shopify/flow-extensions';

const ACTION = '/app/onboarding';
const PROGRESS_ID = 'onboarding-progress';

/** What the checklist asks its route (app.onboarding.tsx). */
type Intent =
  | { intent: 'create'; template: TemplateId; status: 'live' | 'draft'; shopifyDiscounts: boolean }
  | { intent: 'launch'; slug: string; id: string }
  | { intent: 'widget' }
  | { intent: 'mark'; step: 'automate' | 'preview'; done: boolean }
  | { intent: 'open'; open: boolean }
  | { intent: 'preview-token' };

type Answer = {
  intent?: string;
  ok: boolean;
  message?: string;
  busy?: boolean;
  leftOver?: { name: string }[];
  definition?: { slug: string; id: string; name: string };
  name?: string;
  accessToken?: string;
  externalId?: string;
};

/** Where a program opens: its editor, or the Points page for points and tiers. */
const programUrl = (slug: string, id: string) => (slug === 'points_setting' ? '/app/points' : `/app/r/${slug}/${id}`);

function useSend() {
  const fetcher = useFetcher<Answer>();
  const language = useAdminLanguage();
  const send = (body: Intent) => fetcher.submit({ ...body, language }, { method: 'post', action: ACTION, encType: 'application/json' });
  return { fetcher, send, busy: fetcher.state !== 'idle' };
}

/** Which step is open: one at a time, so the merchant reads the step to do now. */
type Expand = { open: boolean; onOpen: () => void };

/**
 * A step of the checklist: a region named by its title, with its done badge and its latest outcome
 * (what the merchant just did, or what the step found), which stays in view when the step folds;
 * only an open step shows its body.
 */
function Step({
  title,
  done,
  open,
  onOpen,
  outcome,
  children,
}: { title: string; done: boolean; outcome?: ReactNode; children: ReactNode } & Expand) {
  const { onboarding: m } = useMessages();
  return (
    <section aria-label={title}>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingMd">
            {title}
          </Text>
          <Badge tone={done ? 'success' : undefined}>{done ? m.done : m.toDo}</Badge>
          {open ? null : (
            <Button variant="plain" disclosure="down" onClick={onOpen} accessibilityLabel={`${m.show}: ${title}`}>
              {m.show}
            </Button>
          )}
        </InlineStack>
        {outcome}
        {open ? children : null}
      </BlockStack>
    </section>
  );
}

/** A document for the preview frame: the widget loader from the core, then init (guest, or member with a token). */
function previewDocument(baseUrl: string, config: Record<string, string>): string {
  const init = JSON.stringify({ baseUrl, ...config }).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:system-ui;margin:0;min-height:100vh;background:#f6f6f7}</style></head><body><script>window.LoyaltyWidget={q:[],init:function(){this.q.push(arguments)}};LoyaltyWidget.init(${init});</script><script src="${baseUrl}/widget/loader.js" async></script></body></html>`;
}

function ProgramStep({ data, currency, ...expand }: { data: Checklist['program']; currency: string | null } & Expand) {
  const { onboarding: o } = useMessages();
  const amounts = templateAmounts(useAdminLanguage(), currency);
  const m = o.steps.program;
  const { fetcher, send, busy } = useSend();
  const [chosen, setChosen] = useState<TemplateId | null>(null);
  const [status, setStatus] = useState<'live' | 'draft'>('live');
  const [discounts, setDiscounts] = useState(true);
  const answer = fetcher.data;
  const outcome = (
    <>
      {answer?.intent === 'create' && answer.ok && answer.definition ? (
        <Banner tone="success" title={format(m.created, { name: answer.definition.name, status: m.statuses[status] ?? status })}>
          <InlineStack gap="300">
            <Link to={programUrl(answer.definition.slug, answer.definition.id)}>{m.open}</Link>
            {answer.definition.slug === 'points_setting' ? <Link to="/app/tiers">{m.openTiers}</Link> : null}
          </InlineStack>
        </Banner>
      ) : null}
      {answer?.intent === 'create' && !answer.ok && answer.busy ? <Banner tone="warning" title={m.busy} /> : null}
      {answer?.intent === 'create' && !answer.ok && !answer.busy ? (
        <Banner tone="critical" title={format(m.failed, { message: answer.message ?? '' })}>
          <p>{answer.leftOver?.length ? format(m.leftOver, { names: answer.leftOver.map((r) => r.name).join(', ') }) : m.nothingKept}</p>
        </Banner>
      ) : null}
      {answer?.intent === 'launch' ? (
        <Banner
          tone={answer.ok ? 'success' : 'critical'}
          title={answer.ok ? format(m.launched, { name: answer.name ?? '' }) : (answer.message ?? '')}
        />
      ) : null}
    </>
  );
  return (
    <Step title={m.title} done={data.done} outcome={outcome} {...expand}>
      <Text as="p" tone="subdued">
        {m.intro}
      </Text>
      <InlineGrid columns={{ xs: 1, md: 2, lg: 3 }} gap="300">
        {TEMPLATE_IDS.map((id) => {
          const t = m.templates[id];
          return (
            <Box key={id} padding="300" borderWidth="025" borderColor={chosen === id ? 'border-emphasis' : 'border'} borderRadius="200">
              <section aria-label={t.title}>
                <BlockStack gap="200">
                  <Text as="h4" variant="headingSm">
                    {t.title}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t.summary}
                  </Text>
                  <List>
                    {t.creates.map((line) => (
                      <List.Item key={line}>{format(line, amounts)}</List.Item>
                    ))}
                  </List>
                  <Button pressed={chosen === id} onClick={() => setChosen(id)} accessibilityLabel={`${m.choose}: ${t.title}`}>
                    {chosen === id ? m.chosen : m.choose}
                  </Button>
                </BlockStack>
              </section>
            </Box>
          );
        })}
      </InlineGrid>
      {chosen ? (
        <BlockStack gap="200">
          <ChoiceList
            title={m.status}
            choices={[
              { label: m.live, value: 'live' },
              { label: m.draft, value: 'draft' },
            ]}
            selected={[status]}
            onChange={(v) => setStatus(v[0] === 'draft' ? 'draft' : 'live')}
          />
          <Checkbox label={m.shopifyDiscounts} helpText={m.shopifyDiscountsHelp} checked={discounts} onChange={setDiscounts} />
          <Text as="p" tone="subdued">
            {m.language}
          </Text>
          <Box>
            <Button
              variant="primary"
              loading={busy}
              onClick={() => send({ intent: 'create', template: chosen, status, shopifyDiscounts: discounts })}
            >
              {m.create}
            </Button>
          </Box>
        </BlockStack>
      ) : null}
      {data.programs.length ? (
        <BlockStack gap="100">
          <Text as="h4" variant="headingSm">
            {m.yours}
          </Text>
          {data.programs.map((p) => (
            <InlineStack key={p.id} gap="200" blockAlign="center">
              <Link to={programUrl(p.slug, p.id)}>{p.slug === 'points_setting' ? m.kinds.points_setting : p.name}</Link>
              {p.slug === 'points_setting' ? (
                <Link to="/app/tiers">{m.openTiers}</Link>
              ) : (
                <Text as="span" tone="subdued">
                  {m.kinds[p.slug]}
                </Text>
              )}
              <Badge tone={p.status === 'live' ? 'success' : undefined}>{textFor(m.statuses, p.status) ?? p.status}</Badge>
              {p.status !== 'live' ? (
                <Button size="slim" disabled={busy} onClick={() => send({ intent: 'launch', slug: p.slug, id: p.id })}>
                  {m.goLive}
                </Button>
              ) : null}
            </InlineStack>
          ))}
        </BlockStack>
      ) : null}
    </Step>
  );
}

/**
 * Coming back to the admin's tab (from the theme editor's) checks the theme again, so the step
 * ticks itself once the merchant has saved there.
 */
function useRecheckOnReturn(active: boolean) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (!active) return;
    let last = 0;
    const recheck = () => {
      // Focus and visibilitychange both fire on one return: one check is enough.
      if (document.visibilityState !== 'visible' || Date.now() - last < 1000) return;
      last = Date.now();
      revalidate.current();
    };
    window.addEventListener('focus', recheck);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      window.removeEventListener('focus', recheck);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, [active]);
}

function EmbedStep({ data, ...expand }: { data: Checklist['embed'] } & Expand) {
  const { onboarding: o } = useMessages();
  const m = o.steps.embed;
  const { fetcher, send, busy } = useSend();
  useRecheckOnReturn(!data.done);
  const check = data.check;
  const outcome = (
    <>
      {fetcher.data?.intent === 'widget' ? (
        <Banner tone={fetcher.data.ok ? 'success' : 'critical'} title={fetcher.data.ok ? m.recordsCreated : (fetcher.data.message ?? '')} />
      ) : null}
      <div data-testid="embed-check">
        {check.ok ? (
          <Banner tone="success" title={format(m.ok, { theme: check.themeName })} />
        ) : (
          <Banner tone="warning" title={format(m.reasons[check.reason], { theme: check.themeName ?? '', detail: check.detail ?? '' })} />
        )}
      </div>
    </>
  );
  return (
    <Step title={m.title} done={data.done} outcome={outcome} {...expand}>
      <Text as="p" tone="subdued">
        {m.intro}
      </Text>
      {data.ready ? null : (
        <InlineStack gap="200" blockAlign="center">
          <Text as="p">{m.missingRecords}</Text>
          <Button loading={busy} onClick={() => send({ intent: 'widget' })}>
            {m.createRecords}
          </Button>
        </InlineStack>
      )}
      {data.done ? null : (
        <BlockStack gap="200">
          <Box>
            {/* A new tab: the admin stays open here, and its check re-runs when the merchant comes back. */}
            <Button variant="primary" url={data.link} target="_blank">
              {m.openEditor}
            </Button>
          </Box>
          <Text as="p">{m.then}</Text>
        </BlockStack>
      )}
    </Step>
  );
}

function MarkButton({ step, done }: { step: 'automate' | 'preview'; done: boolean }) {
  const { onboarding: o } = useMessages();
  const { send, busy } = useSend();
  return (
    <Box>
      <Button loading={busy} onClick={() => send({ intent: 'mark', step, done: !done })}>
        {done ? o.markUndone : o.markDone}
      </Button>
    </Box>
  );
}

function AutomateStep({ done, mission, ...expand }: { done: boolean; mission: string | null } & Expand) {
  const { onboarding: o } = useMessages();
  const m = o.steps.automate;
  return (
    <Step title={m.title} done={done} {...expand}>
      <Text as="p" tone="subdued">
        {m.intro}
      </Text>
      <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
        <BlockStack gap="100">
          <Text as="h4" variant="headingSm">
            {m.actions}
          </Text>
          <List>
            {Object.entries(FLOW_ACTIONS).map(([handle, name]) => (
              <List.Item key={handle}>{name}</List.Item>
            ))}
          </List>
        </BlockStack>
        <BlockStack gap="100">
          <Text as="h4" variant="headingSm">
            {m.triggers}
          </Text>
          <List>
            {Object.entries(TRIGGERS).map(([handle, name]) => (
              <List.Item key={handle}>{name}</List.Item>
            ))}
          </List>
        </BlockStack>
      </InlineGrid>
      {[m.recipeOther, m.recipeTag].map((recipe) => (
        <BlockStack key={recipe.title} gap="100">
          <Text as="h4" variant="headingSm">
            {recipe.title}
          </Text>
          <List type="number">
            {recipe.steps.map((line) => (
              <List.Item key={line}>{format(line, { mission: mission ?? m.yourMission })}</List.Item>
            ))}
          </List>
        </BlockStack>
      ))}
      <MarkButton step="automate" done={done} />
    </Step>
  );
}

function PreviewStep({ done, baseUrl, embed, ...expand }: { done: boolean; baseUrl: string; embed: Checklist['embed'] } & Expand) {
  const { onboarding: o } = useMessages();
  const m = o.steps.preview;
  const token = useSend();
  const [mode, setMode] = useState<'guest' | 'member' | null>(null);
  const { templateId, themeId, floatingWidgetId } = embed.ids;
  const config = embed.ready
    ? { accountId: embed.accountId, templateId: templateId!, themeId: themeId!, floatingWidgetId: floatingWidgetId! }
    : null;
  const memberToken = token.fetcher.data?.intent === 'preview-token' ? token.fetcher.data.accessToken : undefined;
  useEffect(() => {
    if (mode === 'member' && !memberToken && token.fetcher.state === 'idle') token.send({ intent: 'preview-token' });
  }, [mode, memberToken, token]);
  const shown =
    config && mode === 'guest' ? config : config && mode === 'member' && memberToken ? { ...config, accessToken: memberToken } : null;
  return (
    <Step title={m.title} done={done} {...expand}>
      <Text as="p" tone="subdued">
        {m.intro}
      </Text>
      {embed.ready ? (
        <InlineStack gap="200">
          <Button pressed={mode === 'guest'} onClick={() => setMode('guest')}>
            {m.guest}
          </Button>
          <Button pressed={mode === 'member'} onClick={() => setMode('member')}>
            {m.member}
          </Button>
          <Link to="/app/widget">{m.more}</Link>
        </InlineStack>
      ) : (
        <Text as="p">{m.needsIds}</Text>
      )}
      {mode === 'member' && token.fetcher.data?.externalId ? (
        <Text as="p" tone="subdued">
          {format(m.memberNote, { externalId: token.fetcher.data.externalId })}
        </Text>
      ) : null}
      {shown ? (
        <iframe
          key={mode}
          title={m.frameTitle}
          data-testid={`onboarding-preview-${mode}`}
          srcDoc={previewDocument(baseUrl, shown)}
          style={{ width: '100%', height: 520, border: '1px solid #e1e3e5', borderRadius: 8 }}
        />
      ) : null}
      <MarkButton step="preview" done={done} />
    </Step>
  );
}

/**
 * The dashboard's first-run checklist: four steps from a fresh install to a live, visible and
 * automated program, shown until every step is done, then folded (the merchant can reopen it).
 */
/** `currency`: the shop's, which the templates' amounts are named in (bare numbers when unknown). */
export function OnboardingChecklist({ data, baseUrl, currency }: { data: Checklist; baseUrl: string; currency: string | null }) {
  const { onboarding: m } = useMessages();
  const { send, busy } = useSend();
  const steps = [data.program.done, data.embed.done, data.automate.done, data.preview.done];
  const done = steps.filter(Boolean).length;
  const progress = { done, total: steps.length };
  // Flow's actions take a program by its name: the recipe names the shop's mission, never its id.
  const mission = data.program.programs.find((p) => p.slug === 'mission')?.name ?? null;
  // The first step not done is open, and the next one opens by itself when it is done.
  const current = Math.max(steps.indexOf(false), 0);
  const [chosen, setChosen] = useState(current);
  useEffect(() => setChosen(current), [current]);
  const expand = (i: number): Expand => ({ open: chosen === i, onOpen: () => setChosen(i) });
  if (!data.open) {
    return (
      <Card>
        <InlineStack align="space-between" blockAlign="center">
          <Text as="p">{format(m.folded, progress)}</Text>
          <Button loading={busy} onClick={() => send({ intent: 'open', open: true })}>
            {m.reopen}
          </Button>
        </InlineStack>
      </Card>
    );
  }
  return (
    <Card>
      <section aria-label={m.title}>
        <BlockStack gap="500">
          <InlineStack align="space-between" blockAlign="center">
            <BlockStack gap="100">
              <Text as="h2" variant="headingLg">
                {m.title}
              </Text>
              <Text as="p" tone="subdued" id={PROGRESS_ID}>
                {format(m.progress, progress)}
              </Text>
            </BlockStack>
            <Button variant="tertiary" loading={busy} onClick={() => send({ intent: 'open', open: false })}>
              {m.hide}
            </Button>
          </InlineStack>
          <ProgressBar progress={(100 * done) / progress.total} tone="success" size="small" ariaLabelledBy={PROGRESS_ID} />
          <ProgramStep data={data.program} currency={currency} {...expand(0)} />
          <EmbedStep data={data.embed} {...expand(1)} />
          <AutomateStep done={data.automate.done} mission={mission} {...expand(2)} />
          <PreviewStep done={data.preview.done} baseUrl={baseUrl} embed={data.embed} {...expand(3)} />
        </BlockStack>
      </section>
    </Card>
  );
}
