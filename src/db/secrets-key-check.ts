import path from 'node:path';
import type pg from 'pg';
import type { AppConfig } from '../config.js';
import type { SecretBox } from '../core/secret-box.js';
import { SECRETS_KEY_FILE, type SecretBoxChoice } from './secrets-key.js';

const CHECK_TEXT = 'msp-admin-platform secrets key check v1';
const SEALED_PREFIX = 'enc:v1:';

/**
 * Start-up refusal of an instance that could not do its jobs: one that cannot open the stored secrets
 * would take webhook deliveries it cannot sign (failures and stuck deliveries until someone stops it).
 * The first instance with a key stores a check value sealed with it; every later instance opens it, so
 * a missing or different key stops the process here with a message that says what to set.
 */
export async function verifySecretsKey(
  pool: pg.Pool,
  choice: SecretBoxChoice,
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>,
): Promise<void> {
  const where = config.databaseUrl
    ? 'the SECRETS_KEY of the instances already running on this database'
    : `${path.join(config.dataDir, SECRETS_KEY_FILE)} (the key the embedded database's first start generated)`;
  const stored = await checkValue(pool);
  if (!choice.box.encrypts) {
    if (stored !== null || (await anySealedSecret(pool)))
      throw new Error(
        `SECRETS_KEY is not set, but stored secrets (webhook signing secrets) are sealed with a key: this ` +
          `instance could not sign webhook deliveries, so it does not start. Set SECRETS_KEY to ${where}.`,
      );
    return;
  }
  if (stored === null) {
    // Before check values existed: a key that does not open the secrets already sealed is refused too.
    const sample = await anySealedSecret(pool);
    if (sample !== null && !opens(choice.box, sample, null)) throw wrongKey(choice, where);
    await pool.query(
      `insert into secrets_key_checks (id, check_value, created_at) values (1, $1, now())
       on conflict (id) do nothing`,
      [choice.box.seal(CHECK_TEXT)],
    );
  }
  // Read again: of two instances starting at once with different keys, the second finds the first's value.
  const check = await checkValue(pool);
  if (check === null || !opens(choice.box, check, CHECK_TEXT)) throw wrongKey(choice, where);
}

function wrongKey(choice: SecretBoxChoice, where: string): Error {
  const source = choice.source === 'SECRETS_KEY' ? 'SECRETS_KEY' : 'the key file';
  return new Error(
    `The secrets key (from ${source}) is not the key that sealed the stored secrets: this instance could ` +
      `not sign webhook deliveries, so it does not start. Set SECRETS_KEY to ${where}.`,
  );
}

function opens(box: SecretBox, sealed: string, expected: string | null): boolean {
  try {
    const text = box.open(sealed);
    return expected === null || text === expected;
  } catch {
    return false;
  }
}

async function checkValue(pool: pg.Pool): Promise<string | null> {
  const { rows } = await pool.query<{ check_value: string }>(
    'select check_value from secrets_key_checks where id = 1',
  );
  return rows[0]?.check_value ?? null;
}

async function anySealedSecret(pool: pg.Pool): Promise<string | null> {
  const { rows } = await pool.query<{ secret: string }>(
    `select signing_secret as secret from webhooks where signing_secret like $1 limit 1`,
    [`${SEALED_PREFIX}%`],
  );
  return rows[0]?.secret ?? null;
}
