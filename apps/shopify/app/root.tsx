import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import { useEffect } from 'react';
import { adminLanguage } from './i18n';
import { ADMIN_MESSAGES } from './i18n/bundles.server';
import { common as englishCommon } from './i18n/en/common';

/**
 * The document's language, as the admin's pages pick theirs on a first load: screen readers speak
 * the page in it. With it, the words of the error page below, in that language.
 */
export const loader = ({ request }: LoaderFunctionArgs) => {
  const language = adminLanguage(request);
  const { notFound, refused, failed } = ADMIN_MESSAGES[language].common;
  return { language, failures: { notFound, refused, failed } };
};

/** Kept from the first load, as the layout keeps its language: later requests no longer say it. */
export const shouldRevalidate = () => false;

/** The app's name as the tab and assistive technology call the document; Shopify's admin shows its own title bar. */
export const meta: MetaFunction = () => [{ title: 'Loyalty' }];

export default function App() {
  const { language } = useLoaderData<typeof loader>();
  // Marks the page as interactive: before hydration a click on server-rendered markup does nothing, so
  // browser tests (and anyone automating the admin) wait for this rather than guessing from the network.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/**
 * What a page outside the admin's own boundary (app.tsx) answers when it cannot be shown: an
 * address naming nothing, a method the page does not take, a failure. Remix's default boundary
 * would log each of them as an error, a stranger's 404 included; a failure is logged where it
 * happened (entry.server's handleError), and the status stays the one Remix set (but for the
 * app's database out of reach, which the server answers 503: entry.server's finalAnswer).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<typeof loader>('root');
  const language = root?.language ?? 'en';
  const failures = root?.failures ?? englishCommon;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const words = status === 404 ? failures.notFound : status < 500 ? failures.refused : failures.failed;
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{`${words.title} · Loyalty`}</title>
      </head>
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: '4rem auto', maxWidth: '36rem', padding: '0 1rem' }}>
        <main>
          <h1>{words.title}</h1>
          <p>{words.body}</p>
        </main>
      </body>
    </html>
  );
}
