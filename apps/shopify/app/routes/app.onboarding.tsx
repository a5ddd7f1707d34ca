import type { ActionFunctionArgs } from '@remix-run/node';
import { authenticateShop } from '../admin/authenticate.server';
import { PREVIEW_MEMBER } from '../admin/onboarding/checklist.server';
import { createPointsProgram, launchPoints, POINTS_TEMPLATE, type TemplateMemory } from '../admin/onboarding/create-points.server';
import { createProgram, createWidgetRecords, launchProgram, templateLanguage } from '../admin/onboarding/create-program.server';
import { isProgramTemplate, isTemplateId } from '../admin/onboarding/program-templates';
import { STOREFRONT_TEXTS } from '../admin/onboarding/storefront-texts';
import { syncWidgetMetafields } from '../admin/widget-metafields.server';
import { config } from '../config.server';
import { failureMessage } from '../core/failure';
import { mintEndUserToken } from '../core/enduser-token.server';
import { claimedLanguage } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { objectOf } from '../json';
import { outbox } from '../loop/outbox.server';
import { jsonBody, postAction, postOnly } from '../http.server';
import { shopCurrency } from '../shopify/admin-api.server';
import { checklistMarks, earningRules, templateLaunches } from '../storage/stores.server';

/** The points and tiers template's records for the shop, in the app's database. */
const pointsMemory = (shop: string): TemplateMemory => ({
  claim: () => templateLaunches.claim(shop, POINTS_TEMPLATE),
  release: (claim) => templateLaunches.release(shop, POINTS_TEMPLATE, claim),
  records: () => templateLaunches.records(shop, POINTS_TEMPLATE),
  keep: (record) => templateLaunches.keep(shop, POINTS_TEMPLATE, record),
  forget: (keys) => templateLaunches.forget(shop, POINTS_TEMPLATE, keys),
});

/** A failed step's answer, an outage said in the merchant's words (the core's words say nothing they can act on). */
const worded = <R extends { ok: boolean; status?: number; message?: string }>(result: R, outage: string): R =>
  result.ok || result.status === undefined
    ? result
    : { ...result, message: failureMessage({ status: result.status, message: result.message ?? '' }, outage) };

const invalid = (message: string) => Response.json({ ok: false, message, fieldErrors: {}, leftOver: [] }, { status: 400 });

/**
 * The checklist's writes (components/OnboardingChecklist.tsx), each answered as JSON: `{intent:
 * 'create', template, status, shopifyDiscounts}`, `{intent: 'launch', slug, id}` (slug
 * `points_setting`: points and tiers), `{intent: 'widget'}`, `{intent: 'mark', step, done}`,
 * `{intent: 'open', open}` or `{intent: 'preview-token'}`; each with the `language` the admin shows.
 */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { session, admin, api, account } = await authenticateShop(request);
  const parsed = await jsonBody(request);
  if (parsed === null) return invalid('The body must be JSON.');
  const input = objectOf(parsed);
  const { outage } = ADMIN_MESSAGES[claimedLanguage(input.language, request)].editors.refusals;
  switch (input.intent) {
    case 'create': {
      // Named back only when it is text: String() of an array nested thousands deep overflows the stack.
      if (!isTemplateId(input.template))
        return invalid(
          typeof input.template === 'string' ? `Unknown template "${input.template.slice(0, 100)}".` : 'template must be text.',
        );
      if (input.status !== 'live' && input.status !== 'draft') return invalid('status must be live or draft.');
      const language = await templateLanguage(admin);
      // Amounts of money in the texts name the shop's currency when it can be read.
      const currency = await shopCurrency(admin).catch(() => null);
      const markShopifyDiscount = (rewardId: string, on: boolean) => outbox.setShopifyDiscount(session.shop, rewardId, on);
      const shopifyDiscounts = input.shopifyDiscounts === true;
      const result = isProgramTemplate(input.template)
        ? await createProgram(
            api,
            { template: input.template, status: input.status, shopifyDiscounts, language, currency },
            { markShopifyDiscount, setEarningRule: (definitionId, rule) => earningRules.set(session.shop, definitionId, rule) },
          )
        : await createPointsProgram(
            api,
            { status: input.status, shopifyDiscounts, language, currency },
            { markShopifyDiscount },
            pointsMemory(session.shop),
          );
      // The first program brings the widget's records; a failed one takes them away again.
      await syncWidgetMetafields(session.shop, admin, api);
      const status = result.ok ? 200 : result.busy ? 409 : 422;
      return Response.json({ intent: 'create', ...worded(result, outage) }, { status });
    }
    case 'launch': {
      const slug = input.slug;
      if (slug === 'points_setting') {
        const name = STOREFRONT_TEXTS[await templateLanguage(admin)].points.title;
        const launched = await launchPoints(api, pointsMemory(session.shop), name);
        // Live points are what the storefront's points block says.
        await syncWidgetMetafields(session.shop, admin, api);
        return Response.json({ intent: 'launch', ...worded(launched, outage) }, { status: launched.ok ? 200 : launched.status });
      }
      if ((slug !== 'streak' && slug !== 'challenge' && slug !== 'mission') || typeof input.id !== 'string')
        return invalid('Unknown program.');
      const launched = await launchProgram(api, slug, input.id);
      return Response.json({ intent: 'launch', ...worded(launched, outage) }, { status: launched.ok ? 200 : launched.status });
    }
    case 'widget': {
      const result = await createWidgetRecords(api, await templateLanguage(admin));
      await syncWidgetMetafields(session.shop, admin, api);
      return Response.json({ intent: 'widget', ...worded(result, outage) }, { status: result.ok ? 200 : 422 });
    }
    case 'mark': {
      if (input.step !== 'automate' && input.step !== 'preview') return invalid('step must be automate or preview.');
      await checklistMarks.mark(session.shop, input.step, input.done === true);
      return Response.json({ intent: 'mark', ok: true });
    }
    case 'open':
      await checklistMarks.setOpen(session.shop, input.open === true);
      return Response.json({ intent: 'open', ok: true });
    case 'preview-token': {
      const minted = await mintEndUserToken(config.coreUrl, account, PREVIEW_MEMBER);
      if (minted instanceof Response) return minted;
      return Response.json(
        { intent: 'preview-token', ok: true, externalId: PREVIEW_MEMBER, ...minted },
        { headers: { 'cache-control': 'no-store' } },
      );
    }
    default:
      return invalid('Unknown intent.');
  }
});

export const loader = postOnly;
