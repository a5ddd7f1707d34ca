import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the shop's Admin endpoints: a real HTTP server that answers token exchange
 * (as Shopify does: the id_token must be signed with the app's secret) and the app's few GraphQL
 * operations (shop, the shop's id and currency, customer (by id, or by e-mail with its number of orders),
 * customers by tag and their tags, metafieldsSet and metafieldsDelete checked against their documented inputs, tagsAdd and tagsRemove, flowTriggerReceive,
 * discountCodeBasicCreate, discountCodeFreeShippingCreate and storeCreditAccountCredit checked field by field against their
 * documented input types, a customer's store credit transactions, a discount by code and
 * discountCodeDeactivate, shopLocales, the main theme's settings_data.json, collections, products' collections and a variant's price) from
 * in-memory data as Shopify documents them (userErrors, THROTTLED), and records what it was asked.
 */
export interface AdminStub {
  origin: string;
  /** The shop's customers by GID; `numberOfOrders` (customerByIdentifier's) is 0 when left out. */
  customers: Map<
    string,
    { firstName: string | null; lastName: string | null; email: string | null; locale?: string; numberOfOrders?: number }
  >;
  /** The shop's metafields by `ownerId|namespace|key`, as metafieldsSet and metafieldsDelete left them. */
  metafields: Map<string, string>;
  /** Each owner's tags by GID, as tagsAdd and tagsRemove left them. */
  tags: Map<string, Set<string>>;
  requests: { operation: string; variables: Record<string, unknown> }[];
  /** The token exchanges it granted, by requested token type. */
  tokenExchanges: string[];
  /** When set, every request answers this HTTP status. */
  failWith: number | null;
  /** Code discounts created, by code (Shopify refuses a second discount with a code in use); `usageCount` as checkout would raise it. */
  discounts: Map<string, { id: string; input: Record<string, unknown>; usageCount: number; active: boolean }>;
  /** The shop's collections (collections query). */
  collections: { id: string; title: string }[];
  /** Each product's collections, by product GID (nodes query); a product not listed is in none. */
  productCollections: Map<string, string[]>;
  /** The shop's variants' prices (Money: a decimal string), by variant GID; a variant not listed is gone. */
  variantPrices: Map<string, string>;
  /**
   * Answers queued per operation, taken one per call before the normal answer: `throttled` (Shopify's
   * 200 with a THROTTLED GraphQL error), an HTTP status, or userErrors.
   */
  scripted: Map<
    string,
    ({ throttled: true } | { status: number } | { userErrors: { field: string[] | null; code?: string; message: string }[] })[]
  >;
  /** Awaited before a discountCodeBasicCreate is answered (after the discount exists), e.g. to kill the app. */
  beforeDiscountAnswer: (() => Promise<void>) | null;
  /** The shop's currency (shop { currencyCode }). */
  currencyCode: string;
  /** Store credit credits made, by customer GID, oldest first, as storeCreditAccountCredit made them. */
  storeCredits: Map<string, { id: string; amount: string; currencyCode: string; expiresAt: string | null; createdAt: string }[]>;
  /** Awaited before a storeCreditAccountCredit is answered (after the credit exists), e.g. to kill the app. */
  beforeCreditAnswer: (() => Promise<void>) | null;
  /** The shop's locales (shopLocales), the primary one first by default. */
  locales: { locale: string; primary: boolean }[];
  /** The published theme (themes(roles: MAIN)) and its config/settings_data.json text; null: no main theme. */
  mainTheme: { name: string; settingsData: string | null } | null;
  /** How long each GraphQL answer waits, so that concurrent callers overlap. */
  delayMs: number;
  /** Customers per page of a customers search (Shopify's is the query's `first`, at most 250), smaller to make tests page. */
  customersPageSize: number;
  close(): Promise<void>;
}

/** A theme's settings_data.json as Shopify writes it (a comment block first), without app embeds. */
export const PLAIN_SETTINGS_DATA = `/*
 * ------------------------------------------------------------
 * IMPORTANT: The contents of this file are auto-generated.
 * ------------------------------------------------------------
 */
{
  "current": { "colors_solid_button_labels": "#ffffff", "blocks": {} },
  "presets": { "Default": { "colors_solid_button_labels": "#ffffff" } }
}
`;

export const STUB_SHOP = { id: 'gid://shopify/Shop/424242', name: 'Test Shop', ianaTimezone: 'Europe/Paris' };

/**
 * The input objects of metafieldsSet and metafieldsDelete as Shopify's Admin GraphQL reference
 * documents them (2025-10): each field's GraphQL type; `!` is required.
 */
const METAFIELDS_SET_INPUT = {
  ownerId: 'ID!',
  namespace: 'String',
  key: 'String!',
  value: 'String!',
  type: 'String',
  compareDigest: 'String',
};
const METAFIELD_IDENTIFIER_INPUT = { ownerId: 'ID!', namespace: 'String!', key: 'String!' };

/**
 * The input objects the discount and store credit mutations take, as Shopify's Admin GraphQL
 * reference documents them (2025-10), field by field: each field's GraphQL type; `!` is required,
 * `[T!]` a list. Deprecated fields (customerSelection) are left out: the app must not send them.
 */
const INPUT_TYPES: Record<string, Record<string, string>> = {
  DiscountCodeBasicInput: {
    appliesOncePerCustomer: 'Boolean',
    code: 'String',
    combinesWith: 'DiscountCombinesWithInput',
    context: 'DiscountContextInput',
    customerGets: 'DiscountCustomerGetsInput',
    endsAt: 'DateTime',
    minimumRequirement: 'DiscountMinimumRequirementInput',
    recurringCycleLimit: 'Int',
    startsAt: 'DateTime',
    title: 'String',
    usageLimit: 'Int',
  },
  DiscountCodeFreeShippingInput: {
    appliesOncePerCustomer: 'Boolean',
    appliesOnOneTimePurchase: 'Boolean',
    appliesOnSubscription: 'Boolean',
    code: 'String',
    combinesWith: 'DiscountCombinesWithInput',
    context: 'DiscountContextInput',
    destination: 'DiscountShippingDestinationSelectionInput',
    endsAt: 'DateTime',
    maximumShippingPrice: 'Decimal',
    minimumRequirement: 'DiscountMinimumRequirementInput',
    recurringCycleLimit: 'Int',
    startsAt: 'DateTime',
    title: 'String',
    usageLimit: 'Int',
  },
  DiscountCombinesWithInput: { orderDiscounts: 'Boolean', productDiscounts: 'Boolean', shippingDiscounts: 'Boolean' },
  DiscountContextInput: {
    all: 'DiscountBuyerSelection',
    customers: 'DiscountCustomersInput',
    customerSegments: 'DiscountCustomerSegmentsInput',
  },
  DiscountCustomersInput: { add: '[ID!]', remove: '[ID!]' },
  DiscountCustomerSegmentsInput: { add: '[ID!]', remove: '[ID!]' },
  DiscountCustomerGetsInput: {
    appliesOnOneTimePurchase: 'Boolean',
    appliesOnSubscription: 'Boolean',
    items: 'DiscountItemsInput',
    value: 'DiscountCustomerGetsValueInput',
  },
  DiscountCustomerGetsValueInput: {
    discountAmount: 'DiscountAmountInput',
    discountOnQuantity: 'DiscountOnQuantityInput',
    percentage: 'Float',
  },
  DiscountAmountInput: { amount: 'Decimal', appliesOnEachItem: 'Boolean' },
  DiscountOnQuantityInput: { effect: 'DiscountEffectInput', quantity: 'UnsignedInt64' },
  DiscountEffectInput: { amount: 'Decimal', percentage: 'Float' },
  DiscountItemsInput: { all: 'Boolean', collections: 'DiscountCollectionsInput', products: 'DiscountProductsInput' },
  DiscountCollectionsInput: { add: '[ID!]', remove: '[ID!]' },
  DiscountProductsInput: {
    productsToAdd: '[ID!]',
    productsToRemove: '[ID!]',
    productVariantsToAdd: '[ID!]',
    productVariantsToRemove: '[ID!]',
  },
  DiscountMinimumRequirementInput: { quantity: 'DiscountMinimumQuantityInput', subtotal: 'DiscountMinimumSubtotalInput' },
  DiscountMinimumQuantityInput: { greaterThanOrEqualToQuantity: 'UnsignedInt64' },
  DiscountMinimumSubtotalInput: { greaterThanOrEqualToSubtotal: 'Decimal' },
  DiscountShippingDestinationSelectionInput: { all: 'Boolean', countries: 'DiscountCountriesInput' },
  DiscountCountriesInput: { add: '[CountryCode!]', includeRestOfWorld: 'Boolean', remove: '[CountryCode!]' },
  StoreCreditAccountCreditInput: { creditAmount: 'MoneyInput!', expiresAt: 'DateTime' },
  MoneyInput: { amount: 'Decimal!', currencyCode: 'CurrencyCode!' },
};

/** Whether a value coerces to a GraphQL scalar or enum as Shopify's schema reads it. */
const SCALARS: Record<string, (v: unknown) => boolean> = {
  Boolean: (v) => typeof v === 'boolean',
  String: (v) => typeof v === 'string',
  ID: (v) => typeof v === 'string',
  Int: (v) => Number.isInteger(v),
  Float: (v) => typeof v === 'number' && Number.isFinite(v),
  Decimal: (v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) || (typeof v === 'number' && Number.isFinite(v)),
  UnsignedInt64: (v) => (typeof v === 'string' && /^\d+$/.test(v)) || (Number.isInteger(v) && (v as number) >= 0),
  DateTime: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}T/.test(v),
  CurrencyCode: (v) => typeof v === 'string' && /^[A-Z]{3}$/.test(v),
  CountryCode: (v) => typeof v === 'string' && /^[A-Z]{2}$/.test(v),
  DiscountBuyerSelection: (v) => v === 'ALL',
};

/** GraphQL's variable coercion of one input object, field by field and nested: what it refuses, as Shopify words it. */
function inputObjectErrors(value: unknown, type: string, path: string, variable: string): string[] {
  const fields = INPUT_TYPES[type]!;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`Variable $${variable} of type ${type}! was provided invalid value for ${path} (Expected a ${type} object)`];
  const input = value as Record<string, unknown>;
  const at = (field: string) => (path ? `${path}.${field}` : field);
  return [
    ...Object.keys(input)
      .filter((field) => !(field in fields))
      .map(
        (field) => `Variable $${variable} of type ${type}! was provided invalid value for ${at(field)} (Field is not defined on ${type})`,
      ),
    ...Object.entries(fields).flatMap(([field, declared]) => {
      const required = declared.endsWith('!');
      const fieldType = declared.replace(/!$/, '');
      const v = input[field];
      if (v === undefined || v === null)
        return required
          ? [`Variable $${variable} of type ${type}! was provided invalid value for ${at(field)} (Expected value to not be null)`]
          : [];
      const list = /^\[(\w+)!\]$/.exec(fieldType);
      const check = (item: unknown, where: string, t: string): string[] =>
        t in INPUT_TYPES
          ? inputObjectErrors(item, t, where, variable)
          : SCALARS[t]!(item)
            ? []
            : [
                `Variable $${variable} of type ${type}! was provided invalid value for ${where} (Could not coerce value ${JSON.stringify(item)} to ${t})`,
              ];
      if (list)
        return Array.isArray(v) ? v.flatMap((item, i) => check(item, `${at(field)}.${i}`, list[1]!)) : check(v, at(field), list[1]!);
      return check(v, at(field), fieldType);
    }),
  ];
}

/** The metafield types Shopify documents (list types are `list.` + a single type). */
const METAFIELD_TYPES = new Set([
  'boolean',
  'collection_reference',
  'color',
  'customer_reference',
  'date',
  'date_time',
  'dimension',
  'file_reference',
  'id',
  'json',
  'language',
  'link',
  'metaobject_reference',
  'mixed_reference',
  'money',
  'multi_line_text_field',
  'number_decimal',
  'number_integer',
  'page_reference',
  'product_reference',
  'product_taxonomy_value_reference',
  'rating',
  'rich_text_field',
  'single_line_text_field',
  'url',
  'variant_reference',
  'volume',
  'weight',
]);

/** What GraphQL's variable coercion refuses (Shopify answers these as top-level errors, no data). */
function inputErrors(list: Record<string, unknown>[], fields: Record<string, string>, name: string): string[] {
  if (!Array.isArray(list)) return [`$metafields must be a list of ${name}`];
  return list.flatMap((input, i) => [
    ...Object.keys(input)
      .filter((field) => !(field in fields))
      .map(
        (field) =>
          `Variable $metafields of type [${name}!]! was provided invalid value for ${i}.${field} (Field is not defined on ${name})`,
      ),
    ...Object.entries(fields)
      .filter(([field, type]) =>
        type.endsWith('!') ? typeof input[field] !== 'string' : input[field] != null && typeof input[field] !== 'string',
      )
      .map(([field, type]) => `Variable $metafields of type [${name}!]! was provided invalid value for ${i}.${field} (Expected ${type})`),
  ]);
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** The userErrors Shopify documents for metafieldsSet's rules on values (limits, key and namespace form, types). */
function metafieldsSetErrors(list: Record<string, unknown>[]): { field: string[]; code: string; message: string }[] {
  if (list.length > 25)
    return [{ field: ['metafields'], code: 'LESS_THAN_OR_EQUAL_TO', message: 'Exceeded the maximum metafields input limit of 25.' }];
  return list.flatMap((m, i) => {
    const at = (field: string) => ['metafields', String(i), field];
    const errors: { field: string[]; code: string; message: string }[] = [];
    if (!/^gid:\/\/shopify\/\w+\/\d+$/.test(String(m.ownerId)))
      errors.push({ field: at('ownerId'), code: 'INVALID', message: 'Owner does not exist.' });
    if (!/^[\w-]{2,64}$/.test(String(m.key))) errors.push({ field: at('key'), code: 'INVALID', message: 'Key is invalid.' });
    if (m.namespace != null && !/^(\$app(:[\w-]+)?|[\w-]{3,255})$/.test(String(m.namespace)))
      errors.push({ field: at('namespace'), code: 'INVALID', message: 'Namespace is invalid.' });
    if (String(m.value).trim() === '') errors.push({ field: at('value'), code: 'BLANK', message: "Value can't be blank." });
    const type = String(m.type ?? '');
    if (!METAFIELD_TYPES.has(type.replace(/^list\./, '')))
      errors.push({
        field: at('type'),
        code: 'INVALID_TYPE',
        message: 'Type must be one of the following: ' + [...METAFIELD_TYPES].join(', ') + '.',
      });
    if (type === 'json' && !isJson(String(m.value)))
      errors.push({ field: at('value'), code: 'INVALID_VALUE', message: 'Value must be valid JSON.' });
    if (type === 'single_line_text_field' && /\n/.test(String(m.value)))
      errors.push({ field: at('value'), code: 'INVALID_VALUE', message: 'Value must be a single line text string.' });
    return errors;
  });
}

/** Whether `token` is a JWT signed (HS256) with `secret`, as Shopify checks an id_token. */
function signedWith(token: string, secret: string): boolean {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return false;
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `apiSecretKey` is the app's secret, which token exchange must present and sign the id_token with. */
export async function startAdminStub(apiSecretKey?: string): Promise<AdminStub> {
  const stub: Omit<AdminStub, 'origin' | 'close'> = {
    customers: new Map(),
    metafields: new Map(),
    tags: new Map(),
    requests: [],
    tokenExchanges: [],
    failWith: null,
    discounts: new Map(),
    collections: [],
    productCollections: new Map(),
    variantPrices: new Map(),
    scripted: new Map(),
    beforeDiscountAnswer: null,
    currencyCode: 'EUR',
    storeCredits: new Map(),
    beforeCreditAnswer: null,
    locales: [{ locale: 'en', primary: true }],
    mainTheme: { name: 'Dawn', settingsData: PLAIN_SETTINGS_DATA },
    delayMs: 0,
    customersPageSize: 250,
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (stub.failWith) return send(stub.failWith, { errors: 'stubbed failure' });
      if (req.url === '/admin/oauth/access_token' && req.method === 'POST') {
        const body = JSON.parse(raw) as { client_secret?: string; subject_token?: string; requested_token_type?: string };
        if (!apiSecretKey || body.client_secret !== apiSecretKey || !signedWith(body.subject_token ?? '', apiSecretKey)) {
          return send(400, { error: 'invalid_subject_token' });
        }
        stub.tokenExchanges.push(body.requested_token_type ?? '');
        return send(200, { access_token: `shpat_stub_${stub.tokenExchanges.length}`, scope: 'read_customers' });
      }
      if (!/^\/admin\/api\/[^/]+\/graphql\.json$/.test(req.url ?? '') || !req.headers['x-shopify-access-token'])
        return send(404, { errors: 'Not Found' });
      const { query, variables = {} } = JSON.parse(raw) as { query: string; variables?: Record<string, unknown> };
      const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? 'anonymous';
      stub.requests.push({ operation, variables });
      if (stub.delayMs) await new Promise((resolve) => setTimeout(resolve, stub.delayMs));
      const scripted = stub.scripted.get(operation)?.shift();
      if (scripted && 'throttled' in scripted)
        return send(200, {
          errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
        });
      if (scripted && 'status' in scripted) return send(scripted.status, { errors: 'stubbed failure' });
      if (operation === 'LoyaltyFlowTrigger')
        return send(200, { data: { flowTriggerReceive: { userErrors: scripted?.userErrors ?? [] } } });
      if (operation === 'LoyaltyDiscountCreate' || operation === 'LoyaltyFreeShippingCreate') {
        const [variable, type, mutation] =
          operation === 'LoyaltyDiscountCreate'
            ? ['basicCodeDiscount', 'DiscountCodeBasicInput', 'discountCodeBasicCreate']
            : ['freeShippingCodeDiscount', 'DiscountCodeFreeShippingInput', 'discountCodeFreeShippingCreate'];
        const invalid = inputObjectErrors(variables[variable], type, '', variable);
        if (invalid.length) return send(200, { errors: invalid.map((message) => ({ message })) });
        const input = variables[variable] as Record<string, unknown>;
        const code = String(input.code);
        if (scripted) return send(200, { data: { [mutation]: { codeDiscountNode: null, userErrors: scripted.userErrors } } });
        if (stub.discounts.has(code)) {
          return send(200, {
            data: {
              [mutation]: {
                codeDiscountNode: null,
                userErrors: [{ field: [variable, 'code'], code: 'TAKEN', message: 'Code must be unique. Please try a different code.' }],
              },
            },
          });
        }
        const id = `gid://shopify/DiscountCodeNode/${stub.discounts.size + 1}`;
        stub.discounts.set(code, { id, input, usageCount: 0, active: true });
        await stub.beforeDiscountAnswer?.();
        return send(200, { data: { [mutation]: { codeDiscountNode: { id }, userErrors: [] } } });
      }
      if (operation === 'LoyaltyStoreCredit') {
        const invalid = [
          ...(typeof variables.id === 'string' ? [] : ['Variable $id of type ID! was provided invalid value']),
          ...inputObjectErrors(variables.creditInput, 'StoreCreditAccountCreditInput', '', 'creditInput'),
        ];
        if (invalid.length) return send(200, { errors: invalid.map((message) => ({ message })) });
        const owner = String(variables.id);
        const input = variables.creditInput as { creditAmount: { amount: string; currencyCode: string }; expiresAt?: string | null };
        const userErrors = [
          ...(Number(input.creditAmount.amount) <= 0
            ? [
                {
                  field: ['creditInput', 'creditAmount', 'amount'],
                  code: 'NEGATIVE_OR_ZERO_AMOUNT',
                  message: 'A positive amount must be used to credit a store credit account.',
                },
              ]
            : []),
          ...(input.expiresAt && Date.parse(input.expiresAt) <= Date.now()
            ? [{ field: ['creditInput', 'expiresAt'], code: 'EXPIRES_AT_IN_PAST', message: 'The expiry date must be in the future.' }]
            : []),
          ...(/^gid:\/\/shopify\/Customer\/\d+$/.test(owner)
            ? []
            : [{ field: ['id'], code: 'ACCOUNT_NOT_FOUND', message: 'Store credit account does not exist.' }]),
          ...(scripted && 'userErrors' in scripted ? scripted.userErrors : []),
        ];
        if (userErrors.length)
          return send(200, { data: { storeCreditAccountCredit: { storeCreditAccountTransaction: null, userErrors } } });
        const credits = stub.storeCredits.get(owner) ?? [];
        const credit = {
          id: `gid://shopify/StoreCreditAccountCreditTransaction/${[...stub.storeCredits.values()].flat().length + 1}`,
          amount: input.creditAmount.amount,
          currencyCode: input.creditAmount.currencyCode,
          expiresAt: input.expiresAt ?? null,
          createdAt: new Date().toISOString(),
        };
        stub.storeCredits.set(owner, [...credits, credit]);
        await stub.beforeCreditAnswer?.();
        return send(200, { data: { storeCreditAccountCredit: { storeCreditAccountTransaction: { id: credit.id }, userErrors: [] } } });
      }
      if (operation === 'LoyaltyStoreCredits') {
        const owner = String(variables.id);
        const credits = [...(stub.storeCredits.get(owner) ?? [])].reverse().slice(0, 50);
        const byCurrency = new Map<string, typeof credits>();
        for (const c of credits) byCurrency.set(c.currencyCode, [...(byCurrency.get(c.currencyCode) ?? []), c]);
        return send(200, {
          data: {
            customer: /^gid:\/\/shopify\/Customer\/\d+$/.test(owner)
              ? {
                  storeCreditAccounts: {
                    nodes: [...byCurrency.values()].map((list) => ({
                      transactions: {
                        nodes: list.map((c) => ({
                          id: c.id,
                          amount: { amount: c.amount, currencyCode: c.currencyCode },
                          expiresAt: c.expiresAt,
                          createdAt: c.createdAt,
                        })),
                      },
                    })),
                  },
                }
              : null,
          },
        });
      }
      if (operation === 'LoyaltyDiscountByCode') {
        const found = stub.discounts.get(String(variables.code));
        return send(200, {
          data: {
            codeDiscountNodeByCode: found
              ? { id: found.id, codeDiscount: { asyncUsageCount: found.usageCount, status: found.active ? 'ACTIVE' : 'EXPIRED' } }
              : null,
          },
        });
      }
      if (operation === 'LoyaltyDiscountDeactivate') {
        const found = [...stub.discounts.values()].find((d) => d.id === variables.id);
        if (found) found.active = false;
        return send(200, {
          data: {
            discountCodeDeactivate: found
              ? { codeDiscountNode: { id: found.id }, userErrors: scripted?.userErrors ?? [] }
              : { codeDiscountNode: null, userErrors: [{ field: ['id'], code: 'INVALID', message: 'Discount does not exist' }] },
          },
        });
      }
      if (operation === 'LoyaltyCollections') return send(200, { data: { collections: { nodes: stub.collections } } });
      if (operation === 'LoyaltyProductCollections') {
        const ids = variables.ids as string[];
        return send(200, {
          data: {
            nodes: ids.map((id) =>
              stub.productCollections.has(id)
                ? { id, collections: { nodes: stub.productCollections.get(id)!.map((c) => ({ id: c })) } }
                : null,
            ),
          },
        });
      }
      if (operation === 'LoyaltyVariantPrice') {
        const price = stub.variantPrices.get(variables.id as string);
        return send(200, { data: { productVariant: price === undefined ? null : { price } } });
      }
      if (operation === 'LoyaltyShop') return send(200, { data: { shop: STUB_SHOP } });
      if (operation === 'LoyaltyShopId') return send(200, { data: { shop: { id: STUB_SHOP.id } } });
      if (operation === 'LoyaltyShopCurrency') return send(200, { data: { shop: { currencyCode: stub.currencyCode } } });
      if (operation === 'LoyaltyShopLocales') return send(200, { data: { shopLocales: stub.locales } });
      // The stub's locales are all published.
      if (operation === 'LoyaltyPublishedLocales') return send(200, { data: { shopLocales: stub.locales } });
      if (operation === 'LoyaltyMainTheme') {
        const theme = stub.mainTheme;
        const files = theme?.settingsData == null ? [] : [{ filename: 'config/settings_data.json', body: { content: theme.settingsData } }];
        return send(200, {
          data: { themes: { nodes: theme ? [{ name: theme.name, files: { nodes: files } }] : [] } },
        });
      }
      if (operation === 'LoyaltyCustomers') {
        const ids = variables.ids;
        if (!Array.isArray(ids) || ids.length > 250)
          return send(200, { errors: [{ message: 'Variable $ids must be a list of at most 250 IDs' }] });
        return send(200, {
          data: { nodes: ids.map((id: string) => (stub.customers.has(id) ? { id, ...stub.customers.get(id) } : null)) },
        });
      }
      // A customer with their tags (stub.tags) as of now, as the exclusions' sweep reads them.
      const tagged = (id: string) => {
        const { numberOfOrders: _count, ...fields } = stub.customers.get(id)!;
        return { id, ...fields, tags: [...(stub.tags.get(id) ?? [])], updatedAt: new Date().toISOString() };
      };
      if (operation === 'LoyaltyTaggedCustomers') {
        // Shopify's search syntax as the app writes a tag: tag:"…", quotes and backslashes escaped.
        const m = /^tag:"((?:[^"\\]|\\.)*)"$/.exec(String(variables.query));
        if (!m) return send(200, { errors: [{ message: `The stub reads only tag:"…" queries, not ${String(variables.query)}` }] });
        const tag = m[1]!.replace(/\\(.)/g, '$1').toLowerCase();
        // Shopify matches tags whatever their case.
        const all = [...stub.customers.keys()].filter((id) => [...(stub.tags.get(id) ?? [])].some((t) => t.toLowerCase() === tag));
        const start = typeof variables.after === 'string' ? Number(variables.after) : 0;
        const page = all.slice(start, start + stub.customersPageSize);
        const end = start + page.length;
        return send(200, {
          data: {
            customers: {
              nodes: page.map(tagged),
              pageInfo: { hasNextPage: end < all.length, endCursor: page.length ? String(end) : null },
            },
          },
        });
      }
      if (operation === 'LoyaltyCustomerTags') {
        const ids = variables.ids;
        if (!Array.isArray(ids) || ids.length > 250)
          return send(200, { errors: [{ message: 'Variable $ids must be a list of at most 250 IDs' }] });
        return send(200, { data: { nodes: ids.map((id: string) => (stub.customers.has(id) ? tagged(id) : null)) } });
      }
      if (operation === 'LoyaltyCustomer') {
        const id = String(variables.id);
        const customer = stub.customers.get(id);
        return send(200, { data: { customer: customer ? { id, ...customer } : null } });
      }
      if (operation === 'LoyaltyCustomerByEmail' || operation === 'LoyaltyCustomerOrders') {
        // Shopify matches the address whatever its case.
        const email = String(variables.email).toLowerCase();
        const found = [...stub.customers].find(([, c]) => c.email?.toLowerCase() === email);
        if (operation === 'LoyaltyCustomerOrders')
          // UnsignedInt64 is a string in Shopify's JSON.
          return send(200, { data: { customerByIdentifier: found ? { numberOfOrders: String(found[1].numberOfOrders ?? 0) } : null } });
        const { numberOfOrders: _count, ...fields } = found?.[1] ?? {};
        return send(200, { data: { customerByIdentifier: found ? { id: found[0], ...fields } : null } });
      }
      if (operation === 'LoyaltyMetafields') {
        const list = variables.metafields as Record<string, unknown>[];
        const invalid = inputErrors(list, METAFIELDS_SET_INPUT, 'MetafieldsSetInput');
        if (invalid.length) return send(200, { errors: invalid.map((message) => ({ message })) });
        const userErrors = metafieldsSetErrors(list);
        if (userErrors.length) return send(200, { data: { metafieldsSet: { metafields: null, userErrors } } });
        for (const m of list) stub.metafields.set(`${m.ownerId}|${m.namespace}|${m.key}`, String(m.value));
        return send(200, {
          data: { metafieldsSet: { metafields: list.map((_, i) => ({ id: `gid://shopify/Metafield/${i + 1}` })), userErrors: [] } },
        });
      }
      if (operation === 'LoyaltyMetafieldsDelete') {
        const list = variables.metafields as Record<string, unknown>[];
        const invalid = inputErrors(list, METAFIELD_IDENTIFIER_INPUT, 'MetafieldIdentifierInput');
        if (invalid.length) return send(200, { errors: invalid.map((message) => ({ message })) });
        // Shopify answers null in place of a metafield that was not there.
        const deleted = list.map((m) => {
          const key = `${m.ownerId}|${m.namespace}|${m.key}`;
          return stub.metafields.delete(key) ? { ownerId: m.ownerId, namespace: m.namespace, key: m.key } : null;
        });
        return send(200, { data: { metafieldsDelete: { deletedMetafields: deleted, userErrors: [] } } });
      }
      if (operation === 'LoyaltyTagsAdd' || operation === 'LoyaltyTagsRemove') {
        const adding = operation === 'LoyaltyTagsAdd';
        const id = String(variables.id);
        const tags = variables.tags;
        if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string'))
          return send(200, { errors: [{ message: 'Variable $tags of type [String!]! was provided invalid value' }] });
        const mutation = adding ? 'tagsAdd' : 'tagsRemove';
        if (!/^gid:\/\/shopify\/Customer\/\d+$/.test(id))
          return send(200, { data: { [mutation]: { node: null, userErrors: [{ field: ['id'], message: 'Resource not found' }] } } });
        const held = stub.tags.get(id) ?? new Set<string>();
        for (const tag of tags) {
          if (adding) held.add(tag.trim());
          else held.delete(tag.trim());
        }
        stub.tags.set(id, held);
        return send(200, { data: { [mutation]: { node: { id }, userErrors: [] } } });
      }
      return send(200, { errors: [{ message: `the stub does not know ${operation}` }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stub, {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
