import { registerEnumType } from 'type-graphql';

/** OAuth scopes of SPEC 5.2 plus the portal permission of SPEC 5.3. */
export enum Permission {
  READ_TENANTS = 'read:tenants',
  WRITE_TENANTS = 'write:tenants',
  READ_USERS = 'read:users',
  WRITE_USERS = 'write:users',
  READ_LICENSES = 'read:licenses',
  WRITE_LICENSES = 'write:licenses',
  MSP_READ = 'msp:read',
  ADMIN = 'admin',
}

/** API key permission levels (SPEC 5.1). */
export enum PermissionLevel {
  READ = 'Read',
  WRITE = 'Write',
  ADMIN = 'Admin',
}
registerEnumType(PermissionLevel, {
  name: 'PermissionLevel',
  description:
    'Read: view only. Write: create and update. Admin: everything, including deletions and key management.',
});

const READ_PERMISSIONS = [
  Permission.READ_TENANTS,
  Permission.READ_USERS,
  Permission.READ_LICENSES,
  Permission.MSP_READ,
] as const;
const WRITE_PERMISSIONS = [
  Permission.WRITE_TENANTS,
  Permission.WRITE_USERS,
  Permission.WRITE_LICENSES,
] as const;

/** What an API key of each level may do; Admin holds `admin`, which covers everything. */
export function permissionsOfLevel(level: PermissionLevel): Set<Permission> {
  switch (level) {
    case PermissionLevel.READ:
      return new Set(READ_PERMISSIONS);
    case PermissionLevel.WRITE:
      return new Set([...READ_PERMISSIONS, ...WRITE_PERMISSIONS]);
    case PermissionLevel.ADMIN:
      return new Set([...READ_PERMISSIONS, ...WRITE_PERMISSIONS, Permission.ADMIN]);
  }
}

/** A write permission implies the read permission of its family. */
export function impliedPermissions(granted: Iterable<Permission>): Set<Permission> {
  const all = new Set(granted);
  for (const permission of [...all]) {
    if (permission.startsWith('write:')) all.add(permission.replace('write:', 'read:') as Permission);
  }
  return all;
}
