import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { type ShouldRevalidateFunction, useLoaderData } from '@remix-run/react';
import { authenticateShop } from '../admin/authenticate.server';
import { blankProgram, isProgramDraft, isProgramKind, type ProgramDraft, type ProgramKind } from '../admin/program-draft';
import { listRewards, loadProgram, saveProgram } from '../admin/program-save.server';
import { HelpFooter } from '../components/HelpFooter';
import { ProgramEditor, type SaveAnswer } from '../components/program/ProgramEditor';
import { isAdminLanguage } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { objectOf } from '../json';
import { jsonBody } from '../http.server';
import { outbox } from '../loop/outbox.server';
import { fetchShop, shopCollections, shopCurrency } from '../shopify/admin-api.server';
import { earningRules } from '../storage/stores.server';
import { failureResponse } from '../core/failure';

/** The program editor of a streak, challenge or mission (`new` for a new one): settings, milestones and rewards on one page. */
function kindOf(params: LoaderFunctionArgs['params']): ProgramKind {
  if (!isProgramKind(params.kind)) throw new Response(`No program editor for "${params.kind}".`, { status: 404 });
  return params.kind;
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const kind = kindOf(params);
  const { api, session, admin } = await authenticateShop(request);
  const [program, rewards, collections, currencyCode] = await Promise.all([
    !params.id || params.id === 'new'
      ? { ok: true as const, draft: blankProgram(kind) }
      : loadProgram(api, kind, params.id, earningRules, session.shop),
    listRewards(api, outbox, session.shop),
    // A challenge may count only some collections; without read_products the choice is not offered.
    kind === 'challenge' ? shopCollections(admin).catch(() => null) : [],
    // Amounts read in the shop's currency; without Shopify's answer they read as plain numbers.
    shopCurrency(admin).catch(() => null),
  ]);
  if (!program.ok) throw failureResponse(program.failure);
  return { draft: program.draft, rewards, collections, currencyCode };
};

export const action = async ({ request, params }: ActionFunctionArgs): Promise<SaveAnswer> => {
  const kind = kindOf(params);
  const { api, session, admin } = await authenticateShop(request);
  const body = objectOf(await jsonBody(request));
  const given = body.draft;
  if (!isProgramDraft(given)) throw new Response('The body must be {"draft": <the editor\'s program draft>}.', { status: 400 });
  const language = typeof body.language === 'string' && isAdminLanguage(body.language) ? body.language : 'en';
  // The page's own kind, whatever the body says; the id is the body's, since a first save that the
  // core refused in part has created the program while the page still shows "new".
  const draft: ProgramDraft = { ...given, kind, id: !params.id || params.id === 'new' ? (given.id ?? null) : params.id };
  const outcome = await saveProgram(
    {
      api,
      discounts: outbox,
      rules: earningRules,
      shop: session.shop,
      words: { ...ADMIN_MESSAGES[language].editor.checks, outage: ADMIN_MESSAGES[language].editors.refusals.outage },
      fieldWords: ADMIN_MESSAGES[language].rewards.editor.checks,
      language,
      // Without Shopify's answer a last day ends in UTC, as the rewards editor's would for a zone it does not know.
      timezone: () =>
        fetchShop(admin).then(
          (shop) => shop.ianaTimezone,
          () => null,
        ),
    },
    draft,
  );
  return { outcome, rewards: await listRewards(api, outbox, session.shop) };
};

// A save answers with the program as the core now has it, which the editor shows; reading it again
// after every save would only repeat those calls.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === 'POST' ? false : defaultShouldRevalidate;

export default function ProgramPage() {
  const { draft, rewards, collections, currencyCode } = useLoaderData<typeof loader>();
  return (
    <>
      <ProgramEditor
        key={`${draft.kind}:${draft.id ?? 'new'}`}
        initial={draft}
        rewards={rewards}
        collections={collections}
        currencyCode={currencyCode}
      />
      <HelpFooter topic="programs" />
    </>
  );
}
