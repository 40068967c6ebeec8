import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const KEY_BYTES = 32;

/**
 * Secrets the server must read back (webhook signing secrets: an HMAC needs the secret itself, so it
 * cannot be hashed like API keys) are stored sealed with AES-256-GCM under SECRETS_KEY. A stored value
 * without the `enc:v1:` prefix is plaintext from before a key was configured, and is read as is.
 */
export class SecretBox {
  constructor(private readonly key: Buffer | null) {
    if (key && key.length !== KEY_BYTES)
      throw new Error(`A secrets key has ${KEY_BYTES} bytes, not ${key.length}`);
  }

  /** Without a key: no encryption (the server warns at start-up). */
  get encrypts(): boolean {
    return this.key !== null;
  }

  seal(plaintext: string): string {
    if (!this.key) return plaintext;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return PREFIX + [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join(':');
  }

  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    if (!this.key)
      throw new Error('A stored secret is encrypted, but SECRETS_KEY is not set in this process');
    const [iv, tag, sealed] = stored
      .slice(PREFIX.length)
      .split(':')
      .map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(
        'A stored secret cannot be decrypted with this SECRETS_KEY (a different key sealed it)',
      );
    }
  }

  /** Each value of a map sealed (header names stay readable: they say nothing secret). */
  sealValues(values: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, this.seal(value)]));
  }

  openValues(values: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, this.open(value)]));
  }

  static generateKey(): string {
    return randomBytes(KEY_BYTES).toString('base64');
  }
}

/** SECRETS_KEY: 32 bytes, as base64 (44 characters) or hex (64 characters). */
export function parseSecretsKey(value: string): Buffer {
  const trimmed = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES)
    throw new Error(
      `SECRETS_KEY must be ${KEY_BYTES} random bytes as base64 or hex (e.g. \`openssl rand -base64 32\`)`,
    );
  return key;
}
