import { createECDH } from 'node:crypto';
import Joi from 'joi';
import { ConfigError, envSetting, type EnvValues, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/** The installation's VAPID key pair (base64url) and the contact push services see. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** The VAPID pair, checked to be one (a public key of another private key would make every push service refuse). */
function vapidKeys(values: EnvValues): VapidKeys | undefined {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = values;
  if (!publicKey || !privateKey) return undefined;
  const ecdh = createECDH('prime256v1');
  let derived: string;
  try {
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    derived = ecdh.getPublicKey().toString('base64url');
  } catch {
    derived = '';
  }
  if (derived !== publicKey)
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY');
  return { publicKey, privateKey, subject: values.VAPID_SUBJECT ?? 'mailto:push@hotel-pms.invalid' };
}

/**
 * Web Push: the installation's VAPID key pair (generated once and kept: from the environment in production,
 * `.data/vapid-keys.json` in development) and its contact; without keys (allowed outside production) push is off.
 * `caFile`: a PEM certificate also trusted for push services (the tests' fake service).
 */
export const pushEnv = {
  push: envSetting(
    Joi.object({
      // Empty counts as unset (as in a compose file listing the variables).
      VAPID_PUBLIC_KEY: Joi.string()
        .empty('')
        .pattern(/^[A-Za-z0-9_-]{87}$/, 'base64url of an uncompressed P-256 point (65 bytes)')
        .when('NODE_ENV', { is: 'production', then: Joi.required() }),
      VAPID_PRIVATE_KEY: Joi.string()
        .empty('')
        .pattern(/^[A-Za-z0-9_-]{43}$/, 'base64url of a P-256 private key (32 bytes)')
        .when('NODE_ENV', { is: 'production', then: Joi.required() }),
      VAPID_SUBJECT: Joi.string()
        .empty('')
        .max(500)
        .pattern(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s/]+\S*)$/, 'mailto:<address> or https://<host>')
        .when('NODE_ENV', { is: 'production', then: Joi.required() }),
      PUSH_CA_FILE: Joi.string().max(1000),
    }).and('VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'),
    (values): { vapid?: VapidKeys; caFile?: string } => ({ vapid: vapidKeys(values), caFile: values.PUSH_CA_FILE }),
  ),
};

export type PushConfig = ModuleConfig<SectionSettings<typeof pushEnv>>;
