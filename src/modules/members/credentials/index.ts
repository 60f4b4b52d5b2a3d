import type { ServiceModule } from '../../../http/vocabulary/service-module.js';
import './credential.events.js';
import './credential.problems.js';
import { credentialRoutes } from './credential.routes.js';
import { Credential, CredentialCreate, CredentialPage } from './credential.schemas.js';

/** A member's cards, QR codes and PINs, which a door presents. */
export const credentialsModule: ServiceModule = {
  name: 'credentials',
  routes: [credentialRoutes],
  schemas: [Credential, CredentialCreate, CredentialPage],
  resourceTypes: ['credential'],
};
