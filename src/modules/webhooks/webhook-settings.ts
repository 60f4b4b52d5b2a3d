import { AppError } from '../../core/errors.js';
import type { SecretBox } from '../../infrastructure/secrets/secret-box.js';
import './webhook.problems.js';

export interface WebhookSettings {
  allowHttp: boolean;
  maxEndpoints: number;
  /** Undefined: no secrets key (PostgreSQL without SECRETS_KEY), so no webhooks. */
  secrets: SecretBox | undefined;
}

export function secretsOf(settings: WebhookSettings): SecretBox {
  if (!settings.secrets) {
    throw new AppError(
      'service_unavailable',
      'Webhooks need SECRETS_KEY on PostgreSQL: the operator has not set it',
    );
  }
  return settings.secrets;
}

export function assertWebhookUrl(url: string, settings: WebhookSettings): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('invalid_webhook_url', `"${url}" is not a URL`);
  }
  const allowed = settings.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(parsed.protocol)) {
    throw new AppError(
      'invalid_webhook_url',
      settings.allowHttp
        ? 'A webhook URL must use https or http'
        : 'A webhook URL must use https (http only with WEBHOOK_ALLOW_HTTP=true)',
    );
  }
  if (parsed.username || parsed.password) {
    throw new AppError('invalid_webhook_url', 'A webhook URL must not hold a user name or password');
  }
}
