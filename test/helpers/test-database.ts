import { randomUUID } from 'node:crypto';
import pg from 'pg';

function databaseUrl(database: string): string {
  const url = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A fresh database cloned from the migrated template: a few milliseconds, isolated from other files. */
export async function createTestDatabase(): Promise<string> {
  const name = `t_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${process.env.TEST_TEMPLATE_DATABASE}"`);
  } finally {
    await admin.end();
  }
  return databaseUrl(name);
}
