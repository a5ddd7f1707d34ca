import { objectOf } from '../json';
import { type CombinesWith, type MinimumRequirement, NO_COMBINATIONS } from './reward-issuing';

/** The few Admin GraphQL operations the app needs, over the admin context's `graphql`. */
export interface AdminGraphql {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response>;
}

/**
 * What an Admin API call's failure says, as the library throws it: its GraphQL errors' codes
 * (`THROTTLED`, …), else its HTTP status; neither when Shopify never answered.
 */
export function adminFailure(err: unknown): { codes: string[]; status: number | null } {
  const failure = objectOf(err);
  const graphql = objectOf(objectOf(failure.body).errors).graphQLErrors;
  // One code per GraphQL error, '' for an error without one.
  const codes = Array.isArray(graphql)
    ? graphql.map((g) => objectOf(objectOf(g).extensions).code).map((c) => (typeof c === 'string' ? c : ''))
    : [];
  const status = objectOf(failure.response).code;
  return { codes, status: typeof status === 'number' ? status : null };
}

/** Whether Shopify turned the call away for the shop's rate limit (GraphQL THROTTLED or HTTP 429). */
export function throttled(err: unknown): boolean {
  const { codes, status } = adminFailure(err);
  return codes.includes('THROTTLED') || status === 429;
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

/** The shop's GID alone: what a metafield write needs as its owner. */
export async function fetchShopId(admin: AdminGraphql): Promise<string> {
  const data = await run<{ shop: { id: string } }>(
    admin,
    `#graphql
    query LoyaltyShopId { shop { id } }`,
  );
  return data.shop.id;
}

export interface CustomerInfo {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  /** The language the customer uses the store in (`en`, `fr-CA`), as Shopify keeps it. */
  locale?: string | null;
}

/** The customer, or null when the shop has none with that id. */
export async function fetchCustomer(admin: AdminGraphql, customerGid: string): Promise<CustomerInfo | null> {
  const data = await run<{ customer: CustomerInfo | null }>(
    admin,
    `#graphql
    query LoyaltyCustomer($id: ID!) { customer(id: $id) { id firstName lastName email locale } }`,
    { id: customerGid },
  );
  return data.customer;
}

/** The customer whose e-mail address this is, or null when the shop has none (`customerByIdentifier`, API 2025-04 and later). */
export async function fetchCustomerByEmail(admin: AdminGraphql, email: string): Promise<CustomerInfo | null> {
  const data = await run<{ customerByIdentifier: CustomerInfo | null }>(
    admin,
    `#graphql
    query LoyaltyCustomerByEmail($email: String!) {
      customerByIdentifier(identifier: { emailAddress: $email }) { id firstName lastName email locale }
    }`,
    { email },
  );
  return data.customerByIdentifier;
}

/** How many orders the shop's customer with this e-mail address has placed; 0 when there is no such customer. */
export async function ordersByEmail(admin: AdminGraphql, email: string): Promise<number> {
  const data = await run<{ customerByIdentifier: { numberOfOrders: string } | null }>(
    admin,
    `#graphql
    query LoyaltyCustomerOrders($email: String!) {
      customerByIdentifier(identifier: { emailAddress: $email }) { numberOfOrders }
    }`,
    { email },
  );
  return Number(data.customerByIdentifier?.numberOfOrders ?? 0);
}

/** The shop's customers among `gids` (at most 250, Shopify's bound for `nodes`), in one query; ids it has no customer for are left out. */
export async function fetchCustomers(admin: AdminGraphql, gids: readonly string[]): Promise<CustomerInfo[]> {
  if (!gids.length) return [];
  const data = await run<{ nodes: (Partial<CustomerInfo> | null)[] }>(
    admin,
    `#graphql
    query LoyaltyCustomers($ids: [ID!]!) { nodes(ids: $ids) { ... on Customer { id firstName lastName email locale } } }`,
    { ids: gids },
  );
  // A node of another type answers as an empty object.
  return data.nodes.filter((n): n is CustomerInfo => typeof n?.id === 'string');
}

/** A customer with their tags and when Shopify last changed them, as the exclusions' sweep reads them. */
export interface TaggedCustomer extends CustomerInfo {
  tags: string[];
  updatedAt: string;
}

const TAGGED_FIELDS = 'id firstName lastName email locale tags updatedAt';

/** Shopify's search syntax for a tag: quoted, its quotes and backslashes escaped. */
const tagQuery = (tag: string) => `tag:"${tag.replace(/["\\]/g, '\\$&')}"`;

/** One page (250, Shopify's most) of the shop's customers with the tag, and the cursor of the next; null after the last. */
export async function customersTagged(
  admin: AdminGraphql,
  tag: string,
  after: string | null,
): Promise<{ customers: TaggedCustomer[]; next: string | null }> {
  const data = await run<{ customers: { nodes: TaggedCustomer[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(
    admin,
    `#graphql
    query LoyaltyTaggedCustomers($query: String!, $after: String) {
      customers(first: 250, after: $after, query: $query) { nodes { ${TAGGED_FIELDS} } pageInfo { hasNextPage endCursor } }
    }`,
    { query: tagQuery(tag), after },
  );
  const { nodes, pageInfo } = data.customers;
  return { customers: nodes, next: pageInfo.hasNextPage ? pageInfo.endCursor : null };
}

/** The shop's customers among `gids` (at most 250) with their tags; ids it has no customer for are left out. */
export async function customersWithTags(admin: AdminGraphql, gids: readonly string[]): Promise<TaggedCustomer[]> {
  if (!gids.length) return [];
  const data = await run<{ nodes: (Partial<TaggedCustomer> | null)[] }>(
    admin,
    `#graphql
    query LoyaltyCustomerTags($ids: [ID!]!) { nodes(ids: $ids) { ... on Customer { ${TAGGED_FIELDS} } } }`,
    { ids: gids },
  );
  return data.nodes.filter((n): n is TaggedCustomer => typeof n?.id === 'string');
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

/** Deletes the owner's metafields by key; a key the owner has no metafield for is no error. */
export async function deleteMetafields(admin: AdminGraphql, ownerId: string, namespace: string, keys: string[]): Promise<void> {
  const data = await run<{ metafieldsDelete: { userErrors: { field: string[] | null; message: string }[] } }>(
    admin,
    `#graphql
    mutation LoyaltyMetafieldsDelete($metafields: [MetafieldIdentifierInput!]!) {
      metafieldsDelete(metafields: $metafields) { deletedMetafields { key } userErrors { field message } }
    }`,
    { metafields: keys.map((key) => ({ ownerId, namespace, key })) },
  );
  const errors = data.metafieldsDelete.userErrors;
  if (errors.length)
    throw new Error(`metafieldsDelete failed: ${errors.map((e) => `${(e.field ?? []).join('.')}: ${e.message}`).join('; ')}`);
}

/** Adds and removes a customer's tags; adding a tag it has, or removing one it lacks, is no error. */
export async function changeTags(admin: AdminGraphql, id: string, add: string[], remove: string[]): Promise<void> {
  type Answer = { userErrors: { field: string[] | null; message: string }[] };
  const check = (name: string, answer: Answer) => {
    if (answer.userErrors.length)
      throw new Error(`${name} failed: ${answer.userErrors.map((e) => `${(e.field ?? []).join('.')}: ${e.message}`).join('; ')}`);
  };
  if (remove.length) {
    const data = await run<{ tagsRemove: Answer }>(
      admin,
      `#graphql
      mutation LoyaltyTagsRemove($id: ID!, $tags: [String!]!) { tagsRemove(id: $id, tags: $tags) { userErrors { field message } } }`,
      { id, tags: remove },
    );
    check('tagsRemove', data.tagsRemove);
  }
  if (add.length) {
    const data = await run<{ tagsAdd: Answer }>(
      admin,
      `#graphql
      mutation LoyaltyTagsAdd($id: ID!, $tags: [String!]!) { tagsAdd(id: $id, tags: $tags) { userErrors { field message } } }`,
      { id, tags: add },
    );
    check('tagsAdd', data.tagsAdd);
  }
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

export interface CodeDiscountInput {
  title: string;
  code: string;
  /** The one customer who may use it; none: anyone may, once (a referred friend's gift, who is no customer yet). */
  customerGid?: string;
  /** `percentage` takes 0..100 (the reward's value); `fixed_amount` is in the shop's currency; `free_product` takes `variant`'s price. */
  discountType: 'percentage' | 'fixed_amount' | 'free_shipping' | 'free_product';
  discountValue: number;
  /** A free product's variant (GID). */
  variant?: string;
  startsAt: string;
  endsAt: string | null;
  minimum?: MinimumRequirement;
  /** Collection GIDs the discount is limited to; none: all products. */
  collections?: string[];
  combinesWith?: CombinesWith;
}

/** DiscountMinimumRequirementInput, or null for none. */
function minimumInput(minimum: MinimumRequirement | undefined) {
  if (!minimum) return null;
  return 'subtotal' in minimum
    ? { subtotal: { greaterThanOrEqualToSubtotal: minimum.subtotal.toFixed(2) } }
    : { quantity: { greaterThanOrEqualToQuantity: String(minimum.quantity) } };
}

/** A variant's price as Shopify has it now (a decimal in the shop's currency), or null when the shop no longer has it. */
async function variantPrice(admin: AdminGraphql, id: string): Promise<string | null> {
  const data = await run<{ productVariant: { price: string } | null }>(
    admin,
    `#graphql
    query LoyaltyVariantPrice($id: ID!) { productVariant(id: $id) { price } }`,
    { id },
  );
  return data.productVariant?.price ?? null;
}

/**
 * What a basic code discount's customer gets: an amount off (percentage or fixed) on all products or
 * the chosen collections, or one item of a product free: its variant's price off, once for the
 * order (not on each item), so a second item in the cart is paid. Null when the free product's
 * variant is gone.
 */
async function customerGets(admin: AdminGraphql, input: CodeDiscountInput) {
  if (input.discountType === 'free_product') {
    const price = input.variant ? await variantPrice(admin, input.variant) : null;
    if (price === null) return null;
    return {
      value: { discountAmount: { amount: price, appliesOnEachItem: false } },
      items: { products: { productVariantsToAdd: [input.variant] } },
    };
  }
  const value =
    input.discountType === 'percentage'
      ? { percentage: Math.min(input.discountValue, 100) / 100 }
      : { discountAmount: { amount: input.discountValue.toFixed(2), appliesOnEachItem: false } };
  return { value, items: input.collections?.length ? { collections: { add: input.collections } } : { all: true } };
}

/**
 * One code discount for one customer (a referred friend's gift: for anyone), usable once (CONTRACT
 * §16): an amount off or a free product with `discountCodeBasicCreate`, or free shipping with
 * `discountCodeFreeShippingCreate`; with the minimum purchase and combinations the merchant set.
 */
export async function createCodeDiscount(
  admin: AdminGraphql,
  input: CodeDiscountInput,
): Promise<{ id: string | null; userErrors: UserError[] }> {
  const common = {
    title: input.title,
    code: input.code,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    usageLimit: 1,
    appliesOncePerCustomer: true,
    context: input.customerGid ? { customers: { add: [input.customerGid] } } : { all: 'ALL' },
    combinesWith: input.combinesWith ?? NO_COMBINATIONS,
    minimumRequirement: minimumInput(input.minimum),
  };
  type Created = { codeDiscountNode: { id: string } | null; userErrors: UserError[] };
  if (input.discountType === 'free_shipping') {
    const data = await run<{ discountCodeFreeShippingCreate: Created }>(
      admin,
      `#graphql
      mutation LoyaltyFreeShippingCreate($freeShippingCodeDiscount: DiscountCodeFreeShippingInput!) {
        discountCodeFreeShippingCreate(freeShippingCodeDiscount: $freeShippingCodeDiscount) {
          codeDiscountNode { id }
          userErrors { field code message }
        }
      }`,
      { freeShippingCodeDiscount: { ...common, destination: { all: true } } },
    );
    const result = data.discountCodeFreeShippingCreate;
    return { id: result.codeDiscountNode?.id ?? null, userErrors: result.userErrors };
  }
  const gets = await customerGets(admin, input);
  if (!gets) return { id: null, userErrors: [{ field: null, message: 'The product this reward gives is no longer in the shop.' }] };
  const data = await run<{ discountCodeBasicCreate: Created }>(
    admin,
    `#graphql
    mutation LoyaltyDiscountCreate($basicCodeDiscount: DiscountCodeBasicInput!) {
      discountCodeBasicCreate(basicCodeDiscount: $basicCodeDiscount) {
        codeDiscountNode { id }
        userErrors { field code message }
      }
    }`,
    { basicCodeDiscount: { ...common, customerGets: gets } },
  );
  const result = data.discountCodeBasicCreate;
  return { id: result.codeDiscountNode?.id ?? null, userErrors: result.userErrors };
}

/**
 * Whether Shopify refused a code discount because its code is in use: for a code the app reserved
 * for one reward log or gift, an earlier attempt made it (and died before recording it).
 */
export const codeTaken = (userErrors: UserError[]): boolean =>
  userErrors.some((e) => e.code === 'TAKEN' || /already (been )?taken|must be unique/i.test(e.message));

/** The shop's currency (ISO 4217), in which fixed amounts, minimums and store credit are given. */
export async function shopCurrency(admin: AdminGraphql): Promise<string> {
  const data = await run<{ shop: { currencyCode: string } }>(
    admin,
    `#graphql
    query LoyaltyShopCurrency { shop { currencyCode } }`,
  );
  return data.shop.currencyCode;
}

export interface StoreCredit {
  id: string;
  amount: string;
  currencyCode: string;
  expiresAt: string | null;
  createdAt: string;
}

/** Credits the customer's store credit account in `currencyCode` (Shopify opens one if the customer has none). */
export async function creditStoreCredit(
  admin: AdminGraphql,
  input: { customerGid: string; amount: number; currencyCode: string; expiresAt: string | null },
): Promise<{ id: string | null; userErrors: UserError[] }> {
  const data = await run<{
    storeCreditAccountCredit: { storeCreditAccountTransaction: { id: string } | null; userErrors: UserError[] };
  }>(
    admin,
    `#graphql
    mutation LoyaltyStoreCredit($id: ID!, $creditInput: StoreCreditAccountCreditInput!) {
      storeCreditAccountCredit(id: $id, creditInput: $creditInput) {
        storeCreditAccountTransaction { id }
        userErrors { field code message }
      }
    }`,
    {
      id: input.customerGid,
      creditInput: {
        creditAmount: { amount: input.amount.toFixed(2), currencyCode: input.currencyCode },
        ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
      },
    },
  );
  const result = data.storeCreditAccountCredit;
  return { id: result.storeCreditAccountTransaction?.id ?? null, userErrors: result.userErrors };
}

/** The customer's latest store credit credits (newest first, up to 50 per account), to find one an interrupted attempt made. */
export async function recentStoreCredits(admin: AdminGraphql, customerGid: string): Promise<StoreCredit[]> {
  type Money = { amount: string; currencyCode: string };
  const data = await run<{
    customer: {
      storeCreditAccounts: {
        nodes: { transactions: { nodes: { id?: string; amount?: Money; expiresAt?: string | null; createdAt?: string }[] } }[];
      };
    } | null;
  }>(
    admin,
    `#graphql
    query LoyaltyStoreCredits($id: ID!) {
      customer(id: $id) {
        storeCreditAccounts(first: 10) {
          nodes {
            transactions(first: 50, reverse: true) {
              nodes { ... on StoreCreditAccountCreditTransaction { id amount { amount currencyCode } expiresAt createdAt } }
            }
          }
        }
      }
    }`,
    { id: customerGid },
  );
  return (data.customer?.storeCreditAccounts.nodes ?? []).flatMap((account) =>
    account.transactions.nodes.flatMap((t) =>
      t.id && t.amount && t.createdAt
        ? [
            {
              id: t.id,
              amount: t.amount.amount,
              currencyCode: t.amount.currencyCode,
              expiresAt: t.expiresAt ?? null,
              createdAt: t.createdAt,
            },
          ]
        : [],
    ),
  );
}

/** A code discount found by its code, with how often it was used. */
export interface CodeDiscount {
  id: string;
  usageCount: number;
  status: string | null;
}

/** The code discount with that code; null when the shop has none. */
export async function codeDiscountByCode(admin: AdminGraphql, code: string): Promise<CodeDiscount | null> {
  const data = await run<{
    codeDiscountNodeByCode: { id: string; codeDiscount: { asyncUsageCount?: number; status?: string } | null } | null;
  }>(
    admin,
    `#graphql
    query LoyaltyDiscountByCode($code: String!) {
      codeDiscountNodeByCode(code: $code) {
        id
        codeDiscount {
          ... on DiscountCodeBasic { asyncUsageCount status }
          ... on DiscountCodeFreeShipping { asyncUsageCount status }
        }
      }
    }`,
    { code },
  );
  const node = data.codeDiscountNodeByCode;
  if (!node) return null;
  return { id: node.id, usageCount: node.codeDiscount?.asyncUsageCount ?? 0, status: node.codeDiscount?.status ?? null };
}

/** Ends a code discount now (a revoked reward's unused code); deactivating one already inactive changes nothing. */
export async function deactivateCodeDiscount(admin: AdminGraphql, id: string): Promise<UserError[]> {
  const data = await run<{ discountCodeDeactivate: { userErrors: UserError[] } }>(
    admin,
    `#graphql
    mutation LoyaltyDiscountDeactivate($id: ID!) {
      discountCodeDeactivate(id: $id) { codeDiscountNode { id } userErrors { field code message } }
    }`,
    { id },
  );
  return data.discountCodeDeactivate.userErrors;
}

export interface Collection {
  id: string;
  title: string;
}

/** The shop's collections by title (`read_products`), for a challenge's choice of products. */
export async function shopCollections(admin: AdminGraphql): Promise<Collection[]> {
  const data = await run<{ collections: { nodes: Collection[] } }>(
    admin,
    `#graphql
    query LoyaltyCollections { collections(first: 250, sortKey: TITLE) { nodes { id title } } }`,
  );
  return data.collections.nodes;
}

/** The collections (GIDs) of each product (GIDs; `read_products`); a product the shop no longer has is in none. */
export async function productCollections(admin: AdminGraphql, productGids: readonly string[]): Promise<Map<string, string[]>> {
  const data = await run<{ nodes: ({ id?: string; collections?: { nodes: { id: string }[] } } | null)[] }>(
    admin,
    `#graphql
    query LoyaltyProductCollections($ids: [ID!]!) {
      nodes(ids: $ids) { ... on Product { id collections(first: 250) { nodes { id } } } }
    }`,
    { ids: productGids },
  );
  const found = new Map<string, string[]>();
  for (const node of data.nodes) if (node?.id) found.set(node.id, node.collections?.nodes.map((c) => c.id) ?? []);
  return found;
}

/** The shop's published locales (`read_locales`), the primary one first. */
export async function publishedLocales(admin: AdminGraphql): Promise<string[]> {
  const data = await run<{ shopLocales: { locale: string; primary: boolean }[] }>(
    admin,
    `#graphql
    query LoyaltyPublishedLocales { shopLocales(published: true) { locale primary } }`,
  );
  return [...data.shopLocales].sort((a, b) => Number(b.primary) - Number(a.primary)).map((l) => l.locale);
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
