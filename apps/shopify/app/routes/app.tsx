import type { HeadersFunction, LoaderFunctionArgs } from '@remix-run/node';
import { Link, Outlet, useLoaderData, useRouteError } from '@remix-run/react';
import { NavMenu } from '@shopify/app-bridge-react';
import polarisStyles from '@shopify/polaris/build/esm/styles.css?url';
import { AppProvider } from '@shopify/shopify-app-remix/react';
import { boundary } from '@shopify/shopify-app-remix/server';
import { apiKey, authenticate } from '../shopify.server';

export const links = () => [{ rel: 'stylesheet', href: polarisStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return { apiKey };
};

/** The embedded admin: App Bridge navigation around every page under /app. */
export default function AdminLayout() {
  const { apiKey } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey}>
      <NavMenu>
        <Link to="/app" rel="home">
          Dashboard
        </Link>
        <Link to="/app/r/streak">Streaks</Link>
        <Link to="/app/r/challenge">Challenges</Link>
        <Link to="/app/r/mission">Missions</Link>
        <Link to="/app/r/leaderboard">Leaderboards</Link>
        <Link to="/app/r/reward">Rewards</Link>
        <Link to="/app/widget">Widget</Link>
        <Link to="/app/r/webhook">Webhooks</Link>
        <Link to="/app/notifications">Notifications</Link>
        <Link to="/app/data-requests">Data requests</Link>
      </NavMenu>
      <Outlet />
    </AppProvider>
  );
}

// Shopify needs its own boundary to break out of the iframe for re-authentication.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
