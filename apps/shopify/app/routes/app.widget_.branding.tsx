import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { type ShouldRevalidateFunction, useLoaderData, useSearchParams } from '@remix-run/react';
import { Banner, BlockStack, Card, FormLayout, Layout, Page, Select, Text, TextField } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import { authenticateShop } from '../admin/authenticate.server';
import {
  ALIGNMENTS,
  type BrandingDraft,
  brandingDraft,
  brandingValues,
  isBrandingDraft,
  LAUNCHER_COLOURS,
  LAUNCHER_FIELDS,
  TEXTS,
  THEME_COLOURS,
  toHex,
} from '../admin/branding';
import { WIDGET_LANGUAGES, type WidgetLanguage, widgetLanguage } from '../admin/onboarding/storefront-texts';
import { refusalInWords } from '../admin/refusals';
import { syncWidgetMetafields } from '../admin/widget-metafields.server';
import { EditorFrame } from '../components/EditorFrame';
import { HelpFooter } from '../components/HelpFooter';
import { PhoneSizedFrame } from '../components/PhoneSizedFrame';
import { TitledCard } from '../components/TitledCard';
import { type EditorAnswer, useEditorDraft } from '../components/useEditorDraft';
import { config } from '../config.server';
import { records, updateFromValues } from '../core/records.server';
import { claimedLanguage, format, type Messages } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';
import { jsonBody } from '../http.server';
import { type AdminGraphql, publishedLocales } from '../shopify/admin-api.server';
import { liveWidgetIds } from '../shopify/widget-metafields.server';
import { failureResponse } from '../core/failure';

/**
 * The widget's branding in the merchant's words: colours, the launcher's place, offsets and label,
 * and the texts, on the records the storefront shows (or those `?theme=`, `?floating_widget=`,
 * `?template=` name), with the real widget previewed as they are edited. The texts and the
 * launcher's label are edited per language (`?language=`, CONTRACT §7).
 */

const SLUGS = ['theme', 'floating_widget', 'template'] as const;
type Ids = Record<(typeof SLUGS)[number], string>;

async function idsOf(request: Request, api: Parameters<typeof liveWidgetIds>[0]): Promise<Partial<Ids>> {
  const asked = new URL(request.url).searchParams;
  const live = await liveWidgetIds(api);
  const pick = (slug: keyof Ids, fallback: string | null) => asked.get(slug) ?? fallback ?? undefined;
  return {
    theme: pick('theme', live.themeId),
    floating_widget: pick('floating_widget', live.floatingWidgetId),
    template: pick('template', live.templateId),
  };
}

/**
 * The languages the texts are edited in: those of the shop's published locales the widget speaks,
 * the shop's default first, and English, which shoppers of every other language read.
 */
async function textLanguages(admin: AdminGraphql): Promise<WidgetLanguage[]> {
  const locales = await publishedLocales(admin).catch(() => []);
  return [...new Set<WidgetLanguage>([...locales.map(widgetLanguage), 'en'])];
}

const isWidgetLanguage = (value: unknown): value is WidgetLanguage => WIDGET_LANGUAGES.some((l) => l === value);

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api, account, admin } = await authenticateShop(request);
  const [ids, languages] = await Promise.all([idsOf(request, api), textLanguages(admin)]);
  if (!ids.theme || !ids.floating_widget || !ids.template) return { ready: false as const };
  const asked = new URL(request.url).searchParams.get('language');
  const language = languages.find((l) => l === asked) ?? languages[0]!;
  const [theme, launcher, template] = await Promise.all([
    records(api, 'theme').get(ids.theme),
    records(api, 'floating_widget').get(ids.floating_widget, language),
    records(api, 'template').get(ids.template, language),
  ]);
  for (const found of [theme, launcher, template]) if (!found.ok) throw failureResponse(found.failure);
  if (!theme.ok || !launcher.ok || !template.ok) return { ready: false as const };
  return {
    ready: true as const,
    ids: { theme: theme.data.id, floating_widget: launcher.data.id, template: template.data.id },
    draft: brandingDraft(theme.data, launcher.data, template.data),
    names: { theme: theme.data.name, floating_widget: launcher.data.name, template: template.data.name },
    accountId: account.accountId,
    baseUrl: config.corePublicUrl,
    // The preview gets what the theme embed gives the storefront: the shop's currency too.
    currency: account.currencyCode,
    language,
    languages,
  };
};

const labelsOf = (m: Messages['editors']['branding']): Record<keyof BrandingDraft, string> => ({
  ...m.colours,
  ...m.texts,
  fontFamily: m.font.label,
  borderRadius: m.corners.label,
  launcherTitle: m.launcher.label.label,
  alignment: m.launcher.position.label,
  offsetX: m.launcher.offsetX.label,
  offsetY: m.launcher.offsetY.label,
  launcherFontSize: m.launcher.fontSize.label,
});

export const action = async ({ request }: ActionFunctionArgs): Promise<EditorAnswer<BrandingDraft>> => {
  const { api, admin, session } = await authenticateShop(request);
  const input = objectOf(await jsonBody(request));
  const language = claimedLanguage(input.language, request);
  const words = ADMIN_MESSAGES[language].editors;
  const ids = objectOf(input.ids);
  const textLanguage = input.textLanguage;
  if (
    input.intent !== 'save' ||
    !isBrandingDraft(input.draft) ||
    !SLUGS.every((s) => typeof ids[s] === 'string') ||
    !isWidgetLanguage(textLanguage)
  )
    throw new Response(
      'The body must be {"intent": "save", "draft": {…}, "ids": {"theme", "floating_widget", "template"}, "textLanguage": <a widget language>}.',
      { status: 400 },
    );
  const values = brandingValues(input.draft);
  const [themeNow, launcherNow, templateNow] = await Promise.all([
    records(api, 'theme').get(String(ids.theme)),
    records(api, 'floating_widget').get(String(ids.floating_widget), textLanguage),
    records(api, 'template').get(String(ids.template), textLanguage),
  ]);
  // One of the three not there (another id, or deleted since) is refused before any is written, so
  // the others are not saved under a refusal.
  if (!themeNow.ok || !launcherNow.ok || !templateNow.ok) {
    const failure = [themeNow, launcherNow, templateNow].flatMap((now) => (now.ok ? [] : [now.failure]))[0]!;
    return { ok: false, refusal: refusalInWords(failure, words.refusals, language, labelsOf(words.branding)) };
  }
  // A text left as it reads in this language is not written, so a language without its own text
  // keeps following the default language's instead of holding a copy of it.
  const unchanged = (now: typeof launcherNow | typeof templateNow, key: string, value: unknown) =>
    ((now.data as Record<string, unknown>)[key] ?? null) === value;
  if (unchanged(launcherNow, 'eudTitle', values.floating_widget.eudTitle))
    delete (values.floating_widget as Record<string, unknown>).eudTitle;
  for (const [key, value] of Object.entries(values.template)) if (unchanged(templateNow, key, value)) delete values.template[key];
  const labels = labelsOf(words.branding);
  const fieldErrors: Record<string, string> = {};
  const messages: string[] = [];
  const saved: Record<string, Record<string, unknown>> = {};
  const written: (typeof SLUGS)[number][] = [];
  // Only the launcher's label and the texts are localisable; the language leaves the rest as they are.
  const write = (slug: (typeof SLUGS)[number], body: Record<string, unknown>) =>
    updateFromValues(api, slug, String(ids[slug]), body, slug === 'theme' ? undefined : textLanguage);
  for (const slug of SLUGS) {
    if (slug === 'template' && !Object.keys(values.template).length) {
      saved.template = templateNow.data;
      continue;
    }
    const result = await write(slug, values[slug]);
    if (result.ok) {
      saved[slug] = result.data;
      written.push(slug);
      continue;
    }
    const fieldOf = (f: string) => (slug === 'floating_widget' ? LAUNCHER_FIELDS[f] : f);
    const colours = Object.fromEntries([...THEME_COLOURS, ...Object.keys(LAUNCHER_COLOURS)].map((k) => [k, words.branding.colourRefused]));
    const refusal = refusalInWords(result.failure, words.refusals, language, labels, fieldOf, colours);
    Object.assign(fieldErrors, refusal.fieldErrors);
    messages.push(refusal.message);
  }
  if (messages.length) {
    // Each record is tried, so every refused field is shown at once; then the ones the core took are
    // put back as they read, so a refused save changes nothing (a text that followed the default
    // language then holds that text in this language: the core keeps no "unset" for a language).
    const before = { theme: themeNow.data, floating_widget: launcherNow.data, template: templateNow.data } as Record<
      string,
      Record<string, unknown>
    >;
    await Promise.all(
      written.map((slug) => write(slug, Object.fromEntries(Object.keys(values[slug]).map((key) => [key, before[slug]![key] ?? null])))),
    );
    return { ok: false, refusal: { message: messages.join(' '), fieldErrors } };
  }
  // A record the storefront shows may now be another (e.g. one paused elsewhere since): the embed follows.
  await syncWidgetMetafields(session.shop, admin, api);
  return { ok: true, id: String(ids.theme), draft: brandingDraft(saved.theme!, saved.floating_widget!, saved.template!) };
};

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === 'POST' ? false : defaultShouldRevalidate;

export default function BrandingPage() {
  const data = useLoaderData<typeof loader>();
  const { editors, common } = useMessages();
  if (!data.ready) {
    return (
      <Page title={editors.branding.title} backAction={{ content: common.back, url: '/app/widget' }}>
        <BlockStack gap="400">
          <Banner tone="warning" title={editors.branding.missing} action={{ content: editors.branding.title, url: '/app' }} />
          <HelpFooter topic="widget" />
        </BlockStack>
      </Page>
    );
  }
  return <BrandingEditor key={`${JSON.stringify(data.ids)}:${data.language}`} {...data} />;
}

/**
 * The preview frame's document: the real widget from the core, whose reads of the three records get
 * the draft's values laid over the stored ones, opened as a guest would open it.
 */
function previewDocument(
  baseUrl: string,
  accountId: string,
  ids: Ids,
  draft: BrandingDraft,
  note: string,
  languageCode: string,
  currency: string | null,
): string {
  const init = {
    baseUrl,
    accountId,
    languageCode,
    templateId: ids.template,
    themeId: ids.theme,
    floatingWidgetId: ids.floating_widget,
    ...(currency ? { currency } : {}),
  };
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  const script = `(() => {
  const ids = ${json(ids)};
  const overlay = ${json(brandingValues(draft))};
  const read = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await read(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const found = /\\/schema\\/(theme|floating_widget|template)\\/record\\/([^/]+)$/.exec(url.pathname);
    if (!found || !response.ok || decodeURIComponent(found[2]) !== ids[found[1]]) return response;
    const body = await response.json();
    const values = Object.fromEntries(Object.entries(overlay[found[1]]).filter(([, v]) => v !== null && v !== ''));
    return new Response(JSON.stringify({ ...body, data: { ...body.data, ...values } }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  // The widget moves the focus into its panel when it opens; here that would take it from the
  // field the merchant is typing in each time the preview reloads. It may once they work inside.
  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function (options) { if (document.hasFocus()) focus.call(this, options); };
  window.LoyaltyWidget = { q: [], init: function () { this.q.push(arguments); } };
  LoyaltyWidget.init(${json(init)});
  // Opened, so the texts and colours inside show too.
  const open = setInterval(() => {
    const button = [...document.body.children].map((el) => el.shadowRoot?.querySelector('.lw-launcher')).find(Boolean);
    if (button) { clearInterval(open); button.click(); }
  }, 100);
})();`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:system-ui;margin:0;min-height:100vh;background:#f6f6f7}header{height:64px;background:#1a1c1e;color:#fff;display:flex;align-items:center;padding:0 16px}</style></head><body><header>${escapeHtml(note)}</header><script>${script}</script><script src="${baseUrl}/widget/loader.js" async></script></body></html>`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** How long the preview waits after the last keystroke before it reloads the widget. */
const PREVIEW_DELAY_MS = 400;

function BrandingEditor({
  ids,
  draft: initial,
  accountId,
  baseUrl,
  currency,
  language,
  languages,
}: {
  ids: Ids;
  draft: BrandingDraft;
  accountId: string;
  baseUrl: string;
  currency: string | null;
  /** The language the texts are edited in, and the ones to choose from (the shop's default first). */
  language: WidgetLanguage;
  languages: WidgetLanguage[];
}) {
  const { editors } = useMessages();
  const m = editors.branding;
  const adminLanguage = useAdminLanguage();
  const [, setSearchParams] = useSearchParams();
  const languageName = new Intl.DisplayNames([adminLanguage], { type: 'language' });
  const form = useEditorDraft(initial, ids.theme, () => '/app/widget/branding');
  const { draft } = form;
  const labels = labelsOf(m);
  const [shown, setShown] = useState(initial);
  useEffect(() => {
    const timer = setTimeout(() => setShown(draft), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft]);

  const text = (key: keyof BrandingDraft, help?: string, type: 'text' | 'number' = 'text') => (
    <TextField key={key} label={labels[key]} helpText={help} type={type} autoComplete="off" {...form.field(key)} />
  );
  const colour = (key: keyof BrandingDraft) => (
    <TextField
      key={key}
      label={labels[key]}
      helpText={m.colourHelp}
      autoComplete="off"
      {...form.field(key)}
      connectedRight={
        <input
          type="color"
          // The text field is the accessible control; the swatch is a mouse shortcut to the same value.
          aria-hidden
          tabIndex={-1}
          value={/^#[0-9a-f]{6}$/i.test(toHex(draft[key])) ? toHex(draft[key]) : '#000000'}
          onChange={(event) => form.set(key, event.target.value)}
          style={{ width: 44, height: 36, border: 0, padding: 0, background: 'none' }}
        />
      }
    />
  );
  return (
    <EditorFrame
      id="branding-save-bar"
      title={m.title}
      backUrl="/app/widget"
      allFieldsUrl={`/app/r/theme/${ids.theme}`}
      helpTopic="widget"
      form={form}
      onSave={() => form.save({ ids, textLanguage: language })}
    >
      <Layout.Section>
        <BlockStack gap="400">
          <Text as="p" tone="subdued">
            {m.help}
          </Text>
          <Card>
            <Select
              label={m.language.label}
              helpText={form.dirty ? m.language.dirty : m.language.help}
              options={languages.map((l, at) => {
                const name = languageName.of(l) ?? l;
                return { label: at === 0 ? format(m.language.primary, { name }) : name, value: l };
              })}
              value={language}
              // Another language is another page of texts: what is typed here is saved or discarded first.
              disabled={form.dirty}
              onChange={(next) =>
                setSearchParams((params) => {
                  params.set('language', next);
                  return params;
                })
              }
            />
          </Card>
          <TitledCard title={m.sections.colours} region>
            <FormLayout>
              <FormLayout.Group>{THEME_COLOURS.slice(0, 3).map(colour)}</FormLayout.Group>
              <FormLayout.Group>{THEME_COLOURS.slice(3).map(colour)}</FormLayout.Group>
              <FormLayout.Group>
                {text('fontFamily', m.font.help)}
                {text('borderRadius', m.corners.help, 'number')}
              </FormLayout.Group>
            </FormLayout>
          </TitledCard>
          <TitledCard title={m.sections.launcher} region>
            <FormLayout>
              {text('launcherTitle', m.launcher.label.help)}
              <Select
                label={labels.alignment}
                options={ALIGNMENTS.map((a) => ({ label: m.launcher.position.options[a], value: a }))}
                {...form.field('alignment')}
              />
              <FormLayout.Group>
                {text('offsetX', m.launcher.offsetX.help, 'number')}
                {text('offsetY', m.launcher.offsetY.help, 'number')}
                {text('launcherFontSize', m.launcher.fontSize.help, 'number')}
              </FormLayout.Group>
              <FormLayout.Group>{(Object.keys(LAUNCHER_COLOURS) as (keyof typeof LAUNCHER_COLOURS)[]).map(colour)}</FormLayout.Group>
            </FormLayout>
          </TitledCard>
          <TitledCard title={m.sections.texts} region>
            <FormLayout>
              {[0, 2, 4, 6, 8].map((at) => (
                <FormLayout.Group key={at}>{TEXTS.slice(at, at + 2).map((key) => text(key))}</FormLayout.Group>
              ))}
            </FormLayout>
          </TitledCard>
        </BlockStack>
      </Layout.Section>
      <Layout.Section variant="oneThird">
        <TitledCard title={m.preview.title}>
          <PhoneSizedFrame
            title={m.preview.frameTitle}
            data-testid="branding-preview"
            lang={language}
            srcDoc={previewDocument(baseUrl, accountId, ids, shown, m.preview.note, language, currency)}
            height={640}
            style={{ border: '1px solid #e1e3e5', borderRadius: 8 }}
          />
        </TitledCard>
      </Layout.Section>
    </EditorFrame>
  );
}
