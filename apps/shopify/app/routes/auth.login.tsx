import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { AppProvider, Button, Card, FormLayout, Page, TextField } from '@shopify/polaris';
import polarisStyles from '@shopify/polaris/build/esm/styles.css?url';
import { useState } from 'react';
import { adminLanguage } from '../i18n';
import { ADMIN_MESSAGES, POLARIS_TRANSLATIONS } from '../i18n/bundles.server';
import { login } from '../shopify.server';

export const links = () => [{ rel: 'stylesheet', href: polarisStyles }];

/**
 * Opening the app outside the Shopify admin: the merchant names the shop, then OAuth starts. The
 * page is outside the admin layout, so it takes its language from the request itself.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const language = adminLanguage(request);
  return { words: ADMIN_MESSAGES[language].login, polaris: POLARIS_TRANSLATIONS[language], errors: await shopErrors(request) };
};

export const action = async ({ request }: ActionFunctionArgs) => ({ errors: await shopErrors(request) });

async function shopErrors(request: Request): Promise<{ shop?: string }> {
  const m = ADMIN_MESSAGES[adminLanguage(request)].login;
  // login() answers a redirect once the shop is valid, or the reasons it is not.
  const result = await login(await asLoginReads(request));
  return { ...(result.shop ? { shop: result.shop === 'MISSING_SHOP' ? m.missing : m.invalid } : {}) };
}

/**
 * The request as login() can read it: it takes anything but a GET for a form whose `shop` is text,
 * and throws (a 500) on a HEAD, a body that is no form, or a file named `shop`. Those come as a GET,
 * or as a form holding `shop` only if it was text: the page then says the shop is missing.
 */
async function asLoginReads(request: Request): Promise<Request> {
  if (request.method === 'GET' || request.method === 'HEAD') return new Request(request.url, { headers: request.headers });
  const shop = (await request.formData().catch(() => undefined))?.get('shop');
  return new Request(request.url, { method: 'POST', body: new URLSearchParams(typeof shop === 'string' ? { shop } : {}) });
}

export default function Login() {
  const loaded = useLoaderData<typeof loader>();
  const submitted = useActionData<typeof action>();
  const [shop, setShop] = useState('');
  const errors = submitted?.errors ?? loaded.errors;
  const m = loaded.words;
  return (
    <AppProvider i18n={loaded.polaris}>
      <Page narrowWidth>
        <Card>
          <Form method="post">
            <FormLayout>
              <TextField
                label={m.shop}
                name="shop"
                helpText="my-shop.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit variant="primary">
                {m.submit}
              </Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </AppProvider>
  );
}
