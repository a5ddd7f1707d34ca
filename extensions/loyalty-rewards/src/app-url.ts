/** The Shopify app's public base URL (apps/shopify/shopify.app.toml's application_url), where the token route lives. */
export const APP_URL = 'https://example.com';
