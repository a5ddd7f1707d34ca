/** The Shopify app's public base URL, where the token route lives; `set-app-url` keeps it equal to application_url. */
export const APP_URL = "https://example.com";
