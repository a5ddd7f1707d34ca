/** The few Admin GraphQL operations the app needs, over the admin context's `graphql`. */
export interface AdminGraphql {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response>;
}

async function run<T>(admin: AdminGraphql, query: string, variables?: Record<string, unknown>): Promise<T> {
  const response = await admin.graphql(query, variables ? { variables } : undefined);
  const body: { data?: T; errors?: unknown } = await response.json();
  if (!body.data) throw new Error(`Admin API returned no data: ${JSON.stringify(body.errors ?? null)}`);
  return body.data;
}

export interface ShopInfo {
  id: string;
  name: string;
  ianaTimezone: string | null;
}

export async function fetchShop(admin: AdminGraphql): Promise<ShopInfo> {
  const data = await run<{ shop: ShopInfo }>(
    admin,
    `#graphql
    query LoyaltyShop { shop { id name ianaTimezone } }`,
  );
  return data.shop;
}

export interface CustomerInfo {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

/** The customer, or null when the shop has none with that id. */
export async function fetchCustomer(admin: AdminGraphql, customerGid: string): Promise<CustomerInfo | null> {
  const data = await run<{ customer: CustomerInfo | null }>(
    admin,
    `#graphql
    query LoyaltyCustomer($id: ID!) { customer(id: $id) { id firstName lastName email } }`,
    { id: customerGid },
  );
  return data.customer;
}

export interface MetafieldInput {
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

/** metafieldsSet is an upsert, so running it again with the same values changes nothing. */
export async function setMetafields(admin: AdminGraphql, metafields: MetafieldInput[]): Promise<void> {
  const data = await run<{ metafieldsSet: { userErrors: { field: string[] | null; message: string }[] } }>(
    admin,
    `#graphql
    mutation LoyaltyMetafields($metafields: [MetafieldsSetInput!]!) {
      metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message } }
    }`,
    { metafields },
  );
  const errors = data.metafieldsSet.userErrors;
  if (errors.length) throw new Error(`metafieldsSet failed: ${errors.map((e) => `${(e.field ?? []).join('.')}: ${e.message}`).join('; ')}`);
}

export interface UserError {
  field: string[] | null;
  code?: string | null;
  message: string;
}

/** Sends a Flow trigger; Flow answers userErrors for an unknown handle or a payload its fields refuse. */
export async function flowTriggerReceive(admin: AdminGraphql, handle: string, payload: Record<string, unknown>): Promise<UserError[]> {
  const data = await run<{ flowTriggerReceive: { userErrors: UserError[] } }>(
    admin,
    `#graphql
    mutation LoyaltyFlowTrigger($handle: String, $payload: JSON) {
      flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } }
    }`,
    { handle, payload },
  );
  return data.flowTriggerReceive.userErrors;
}

export interface BasicDiscountInput {
  title: string;
  code: string;
  customerGid: string;
  /** `percentage` takes 0..100 (the reward's value); `fixed_amount` is in the shop's currency. */
  discountType: 'percentage' | 'fixed_amount';
  discountValue: number;
  startsAt: string;
  endsAt: string | null;
}

/** One code discount for one customer, usable once (CONTRACT §16). */
export async function createBasicCodeDiscount(
  admin: AdminGraphql,
  input: BasicDiscountInput,
): Promise<{ id: string | null; userErrors: UserError[] }> {
  const value =
    input.discountType === 'percentage'
      ? { percentage: Math.min(input.discountValue, 100) / 100 }
      : { discountAmount: { amount: input.discountValue.toFixed(2), appliesOnEachItem: false } };
  const data = await run<{ discountCodeBasicCreate: { codeDiscountNode: { id: string } | null; userErrors: UserError[] } }>(
    admin,
    `#graphql
    mutation LoyaltyDiscountCreate($basicCodeDiscount: DiscountCodeBasicInput!) {
      discountCodeBasicCreate(basicCodeDiscount: $basicCodeDiscount) {
        codeDiscountNode { id }
        userErrors { field code message }
      }
    }`,
    {
      basicCodeDiscount: {
        title: input.title,
        code: input.code,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
        usageLimit: 1,
        appliesOncePerCustomer: true,
        context: { customers: { add: [input.customerGid] } },
        customerGets: { value, items: { all: true } },
      },
    },
  );
  const result = data.discountCodeBasicCreate;
  return { id: result.codeDiscountNode?.id ?? null, userErrors: result.userErrors };
}

/** The shop's primary locale (`read_locales`); null when Shopify does not say. */
export async function primaryLocale(admin: AdminGraphql): Promise<string | null> {
  const data = await run<{ shopLocales: { locale: string; primary: boolean }[] }>(
    admin,
    `#graphql
    query LoyaltyShopLocales { shopLocales { locale primary } }`,
  );
  return data.shopLocales.find((l) => l.primary)?.locale ?? null;
}

export interface MainTheme {
  name: string;
  /** `config/settings_data.json` as the theme has it; undefined when the theme has none. */
  settingsData: string | undefined;
}

/** The shop's published theme with its settings file (`read_themes`); null when the shop has none. */
export async function mainTheme(admin: AdminGraphql): Promise<MainTheme | null> {
  const data = await run<{
    themes: { nodes: { name: string; files: { nodes: { filename: string; body: { content?: string } }[] } }[] };
  }>(
    admin,
    `#graphql
    query LoyaltyMainTheme {
      themes(first: 1, roles: [MAIN]) {
        nodes {
          name
          files(filenames: ["config/settings_data.json"]) {
            nodes { filename body { ... on OnlineStoreThemeFileBodyText { content } } }
          }
        }
      }
    }`,
  );
  const theme = data.themes.nodes[0];
  if (!theme) return null;
  return { name: theme.name, settingsData: theme.files.nodes.find((f) => f.filename === 'config/settings_data.json')?.body.content };
}
