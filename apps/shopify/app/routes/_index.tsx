import { type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { getOnly } from '../http.server';

/** Shopify opens the app at its root with the shop in the query; the admin lives under /app. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  throw redirect(`/app${url.search}`);
};

export const action = getOnly;
