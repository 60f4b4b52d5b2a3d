import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './api-key.problems.js';
import { apiKeyRoutes } from './api-key.routes.js';
import { ApiKeyCreate, ApiKeyList, ApiKeyResource } from './api-key.schemas.js';

/** API keys over HTTP, for owners (the keys themselves: src/infrastructure/api-keys/). */
export const apiKeysModule: ServiceModule = {
  name: 'api-keys',
  routes: [apiKeyRoutes],
  schemas: [ApiKeyResource, ApiKeyCreate, ApiKeyList],
};
