import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import { adminLanguage } from './i18n';

/** The document's language, as the admin's pages pick theirs on a first load: screen readers speak the page in it. */
export const loader = ({ request }: LoaderFunctionArgs) => ({ language: adminLanguage(request) });

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
