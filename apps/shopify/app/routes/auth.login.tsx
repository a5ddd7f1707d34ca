import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { AppProvider, Button, Card, FormLayout, Page, TextField } from '@shopify/polaris';
import polarisTranslations from '@shopify/polaris/locales/en.json';
import polarisStyles from '@shopify/polaris/build/esm/styles.css?url';
import { useState } from 'react';
import { login } from '../shopify.server';

export const links = () => [{ rel: 'stylesheet', href: polarisStyles }];

/** Opening the app outside the Shopify admin: the merchant names the shop, then OAuth starts. */
export const loader = async ({ request }: LoaderFunctionArgs) => ({ errors: await shopErrors(request) });

export const action = async ({ request }: ActionFunctionArgs) => ({ errors: await shopErrors(request) });

async function shopErrors(request: Request): Promise<{ shop?: string }> {
  // login() answers a redirect once the shop is valid, or the reasons it is not.
  const result = await login(request);
  return {
    ...(result.shop
      ? { shop: result.shop === 'MISSING_SHOP' ? 'Enter your shop domain.' : 'Enter a valid shop domain, e.g. my-shop.myshopify.com.' }
      : {}),
  };
}

export default function Login() {
  const loaded = useLoaderData<typeof loader>();
  const submitted = useActionData<typeof action>();
  const [shop, setShop] = useState('');
  const errors = submitted?.errors ?? loaded.errors;
  return (
    <AppProvider i18n={polarisTranslations}>
      <Page narrowWidth>
        <Card>
          <Form method="post">
            <FormLayout>
              <TextField
                label="Shop domain"
                name="shop"
                helpText="my-shop.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit variant="primary">
                Log in
              </Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </AppProvider>
  );
}
