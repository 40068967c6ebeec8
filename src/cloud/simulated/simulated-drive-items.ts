import { createHash } from 'node:crypto';
import type { CloudDriveItemRecord } from '../user-management.provider.js';
import { seededRandom, type Random } from './seeded-random.js';

/** The files a simulated user's storage starts with (written on first use: simulated-user-management.ts). */
const FOLDERS = ['/Documents', '/Documents/Projects', '/Documents/Finance', '/Desktop', '/Pictures'];
const FILES = [
  ['Quarterly report', 'xlsx'],
  ['Meeting notes', 'docx'],
  ['Budget', 'xlsx'],
  ['Roadmap', 'pptx'],
  ['Contract draft', 'docx'],
  ['Team photo', 'jpg'],
  ['Invoice', 'pdf'],
  ['Onboarding checklist', 'docx'],
] as const;
const DAY_MS = 86_400_000;

/** A user's files are the same on every run: drawn from a PRNG seeded from the user's id. */
function randomFor(key: string): Random {
  return seededRandom(createHash('sha256').update(key).digest().readUInt32LE(0));
}

/** 3 to 12 files, deterministic per user, modified within the 180 days before `reference`. */
export function generateDriveItems(userExternalId: string, reference: Date): CloudDriveItemRecord[] {
  const random = randomFor(`drive:${userExternalId}`);
  const count = 3 + Math.floor(random() * 10);
  return Array.from({ length: count }, (_, index) => {
    const [base, extension] = FILES[Math.floor(random() * FILES.length)];
    return {
      externalId: `${userExternalId}:file:${index}`,
      ownerExternalId: userExternalId,
      name: `${base} ${index + 1}.${extension}`,
      path: FOLDERS[Math.floor(random() * FOLDERS.length)],
      sizeBytes: 1024 + Math.floor(random() * 5_000_000),
      modifiedAt: new Date(reference.getTime() - Math.floor(random() * 180) * DAY_MS).toISOString(),
    };
  });
}
