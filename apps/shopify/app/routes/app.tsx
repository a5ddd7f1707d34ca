import type { HeadersFunction, LoaderFunctionArgs } from '@remix-run/node';
import {
  isRouteErrorResponse,
  Link,
  Outlet,
  useLoaderData,
  useRouteError,
  useRevalidator,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import { EmptyState, Page } from '@shopify/polaris';
import { NavMenu } from '@shopify/app-bridge-react';
import polarisStyles from '@shopify/polaris/build/esm/styles.css?url';
import { AppProvider } from '@shopify/shopify-app-remix/react';
import { boundary } from '@shopify/shopify-app-remix/server';
import { config } from '../config.server';
import { adminLanguage } from '../i18n';
import { ADMIN_MESSAGES, POLARIS_TRANSLATIONS } from '../i18n/bundles.server';
import { AdminLanguageProvider } from '../i18n/context';
import { isJsonObject } from '../json';
import { authenticate } from '../shopify.server';

export const links = () => [{ rel: 'stylesheet', href: polarisStyles }];

/** The merchant's language with its texts and Polaris's, the only ones the browser is sent. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  const language = adminLanguage(request);
  return { apiKey: config.apiKey, language, messages: ADMIN_MESSAGES[language], polaris: POLARIS_TRANSLATIONS[language] };
};

// Shopify names the merchant's language only on the admin's first load: keep it for the session's
// in-app navigations instead of re-deriving it from URLs that no longer carry it.
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

/** The embedded admin: App Bridge navigation around every page under /app, in the merchant's language. */
export default function AdminLayout() {
  const { apiKey, language, messages, polaris } = useLoaderData<typeof loader>();
  const nav = messages.common.nav;
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey} i18n={polaris}>
      <AdminLanguageProvider language={language} messages={messages}>
        <NavMenu>
          <Link to="/app" rel="home">
            {nav.dashboard}
          </Link>
          <Link to="/app/r/streak">{nav.streaks}</Link>
          <Link to="/app/r/challenge">{nav.challenges}</Link>
          <Link to="/app/r/mission">{nav.missions}</Link>
          <Link to="/app/r/leaderboard">{nav.leaderboards}</Link>
          <Link to="/app/r/reward">{nav.rewards}</Link>
          <Link to="/app/members">{nav.members}</Link>
          <Link to="/app/points">{nav.points}</Link>
          <Link to="/app/tiers">{nav.tiers}</Link>
          <Link to="/app/widget">{nav.widget}</Link>
          <Link to="/app/r/webhook">{nav.webhooks}</Link>
          <Link to="/app/notifications">{nav.notifications}</Link>
          <Link to="/app/data-requests">{nav.dataRequests}</Link>
        </NavMenu>
        {/* The page's one main landmark: assistive technology jumps to it past the navigation. */}
        <main>
          <Outlet />
        </main>
      </AdminLanguageProvider>
    </AppProvider>
  );
}

/**
 * Shopify needs its own boundary to break out of the iframe for re-authentication. A page's 404
 * (an address naming nothing, or a record deleted since) shows inside the admin instead, with its
 * navigation and a way back, in the merchant's language; so does a page the loyalty service did not
 * answer for (`failureResponse` marks a 429 or 5xx, unreachable included), with a way to try again.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const layout = useRouteLoaderData<typeof loader>('routes/app');
  const { revalidate } = useRevalidator();
  const response = isRouteErrorResponse(error) ? error : null;
  const outage = isJsonObject(response?.data) && response.data.coreOutage === true;
  if (!layout || !(outage || response?.status === 404)) return boundary.error(error);
  const { common } = layout.messages;
  // Trying again runs the loaders with App Bridge's session token; a reload would lose the shop and host.
  const words = outage
    ? { ...common.unavailable, action: { content: common.unavailable.action, onAction: () => revalidate() } }
    : { ...common.notFound, action: { content: common.notFound.action, url: '/app' } };
  return (
    <AppProvider isEmbeddedApp apiKey={layout.apiKey} i18n={layout.polaris}>
      <main>
        <Page title={words.title} backAction={{ content: common.back, url: '/app' }}>
          <EmptyState heading={words.title} action={words.action} image="">
            <p>{words.body}</p>
          </EmptyState>
        </Page>
      </main>
    </AppProvider>
  );
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
