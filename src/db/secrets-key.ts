import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config.js';
import { parseSecretsKey, SecretBox } from '../core/secret-box.js';

export const SECRETS_KEY_FILE = 'secrets.key';

export interface SecretBoxChoice {
  box: SecretBox;
  /** Where the key came from, for the start-up log. */
  source: 'SECRETS_KEY' | 'key file' | 'none';
}

/**
 * The key that seals stored secrets: SECRETS_KEY when set (production: the same value on every instance);
 * with the embedded database and no SECRETS_KEY, a key generated once into the data folder (so local runs
 * exercise encryption too); with DATABASE_URL and no SECRETS_KEY, none: secrets are stored as they are
 * and the server warns, since a key made up by one instance would not open what another sealed.
 */
export function chooseSecretBox(
  config: Pick<AppConfig, 'secretsKey' | 'databaseUrl' | 'dataDir'>,
): SecretBoxChoice {
  if (config.secretsKey) return { box: new SecretBox(config.secretsKey), source: 'SECRETS_KEY' };
  if (config.databaseUrl) return { box: new SecretBox(null), source: 'none' };
  const file = path.join(config.dataDir, SECRETS_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    // 'wx': two processes starting at once cannot both write it; the loser reads the winner's key.
    try {
      writeFileSync(file, `${SecretBox.generateKey()}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, 0o600);
  return { box: new SecretBox(parseSecretsKey(readFileSync(file, 'utf8'))), source: 'key file' };
}
