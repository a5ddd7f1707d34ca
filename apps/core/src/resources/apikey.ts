import { generateApiKeyPair } from '../auth/api-keys.js';
import { field } from '../records/fields.js';
import { defineResource } from '../records/resource.js';
import { ADMIN, description, name } from './common.js';

export const apikey = defineResource({
  slug: 'apikey',
  table: 'apikey',
  description: 'API keys for server-to-server calls. The secret is returned once, on create.',
  access: ADMIN,
  fields: {
    name: name(),
    description: description(),
    status: field.status({ required: true, description: 'Only live keys authenticate.' }),
    apiKey: field.string({ readOnly: true, alwaysSet: true, max: 32 }),
    apiSecret: field.string({ readOnly: true, alwaysSet: true, max: 64, sealed: true, revealOnce: true }),
  },
  uniqueErrors: {
    apikey_name_unique: { status: 409, field: 'name', message: 'An API key with this name already exists.' },
  },
  async beforeCreate({ values }) {
    Object.assign(values, generateApiKeyPair());
  },
});
