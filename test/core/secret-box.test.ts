import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseSecretsKey, SecretBox } from '../../src/core/secret-box.js';
import { chooseSecretBox, SECRETS_KEY_FILE } from '../../src/db/secrets-key.js';

const key = () => parseSecretsKey(SecretBox.generateKey());

describe('SecretBox', () => {
  it('seals with a fresh nonce each time and opens what it sealed', () => {
    const box = new SecretBox(key());
    const first = box.seal('whsec_abc');
    const second = box.seal('whsec_abc');
    expect(first).toMatch(/^enc:v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(first).not.toContain('whsec_abc');
    expect(first).not.toBe(second);
    expect(box.open(first)).toBe('whsec_abc');
    expect(box.open(second)).toBe('whsec_abc');
  });

  it('refuses a tampered value and a value sealed under another key, saying why', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('whsec_abc');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow(/cannot be decrypted/);
    expect(() => new SecretBox(key()).open(sealed)).toThrow(/different key/);
    expect(() => new SecretBox(null).open(sealed)).toThrow(/SECRETS_KEY is not set/);
  });

  it('reads plaintext stored before a key was configured, and stores plaintext without a key', () => {
    expect(new SecretBox(key()).open('whsec_legacy')).toBe('whsec_legacy');
    const none = new SecretBox(null);
    expect(none.encrypts).toBe(false);
    expect(none.seal('whsec_abc')).toBe('whsec_abc');
  });
});

describe('SECRETS_KEY', () => {
  it('takes 32 bytes as base64 or hex, and refuses anything else', () => {
    expect(parseSecretsKey(Buffer.alloc(32, 7).toString('base64'))).toHaveLength(32);
    expect(parseSecretsKey('ab'.repeat(32))).toHaveLength(32);
    for (const bad of ['', 'short', Buffer.alloc(16).toString('base64'), 'ab'.repeat(31)])
      expect(() => parseSecretsKey(bad)).toThrow(/SECRETS_KEY must be 32 random bytes/);
  });
});

describe('choosing the key', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(path.join(tmpdir(), 'secrets-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('uses SECRETS_KEY when set, whatever the database', () => {
    const choice = chooseSecretBox({ secretsKey: key(), databaseUrl: 'postgres://x', dataDir });
    expect(choice.source).toBe('SECRETS_KEY');
    expect(choice.box.encrypts).toBe(true);
  });

  it('with DATABASE_URL and no key: none (another instance could not open a key made up here)', () => {
    const choice = chooseSecretBox({ databaseUrl: 'postgres://x', dataDir });
    expect(choice.source).toBe('none');
    expect(choice.box.encrypts).toBe(false);
  });

  it('with the embedded database: a key file made once (owner-only) and reused', () => {
    const first = chooseSecretBox({ dataDir });
    const file = path.join(dataDir, SECRETS_KEY_FILE);
    expect(first.source).toBe('key file');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = readFileSync(file, 'utf8');
    const sealed = first.box.seal('whsec_abc');
    const second = chooseSecretBox({ dataDir });
    expect(readFileSync(file, 'utf8')).toBe(stored);
    expect(second.box.open(sealed)).toBe('whsec_abc');
  });
});
