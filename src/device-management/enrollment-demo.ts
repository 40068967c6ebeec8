import type { ServiceContext } from '../core/service-context.js';
import { EnrollmentPlatform, RestrictionType } from './enrollment.enums.js';
import { EnrollmentPolicyService } from './enrollment-policy.service.js';

/**
 * The device-management area's demo data (issue #33 item 10): every demo tenant gets the device type policy
 * a small business under an MSP typically has, created through the API's service before the tenant's first
 * sync, so that sync decides the simulated cloud's enrollment attempts with it and records the refused ones.
 * With only the built-in default policy (15 devices per user) nothing is ever refused, and the blocked
 * enrollment page stays empty. The rules are common ones: supported OS versions only, no deprecated Android
 * Device Admin, no personally owned Windows PCs, no manufacturers outside the MSP's support contract.
 */
export async function seedEnrollmentDemo(ctx: ServiceContext, tenantId: string): Promise<void> {
  await new EnrollmentPolicyService(ctx).create(tenantId, {
    name: 'Company device standard',
    description:
      'Supported OS versions only; no Android Device Admin, personal Windows PCs or unsupported makers',
    restrictionType: RestrictionType.DEVICE_TYPE,
    assignedToAllUsers: true,
    platformRestrictions: [
      {
        platform: EnrollmentPlatform.WINDOWS,
        allowed: true,
        personalAllowed: false,
        minOsVersion: '10.0.19045',
      },
      { platform: EnrollmentPlatform.MACOS, allowed: true, minOsVersion: '13.0' },
      { platform: EnrollmentPlatform.IOS, allowed: true, minOsVersion: '16.0' },
      { platform: EnrollmentPlatform.ANDROID_ENTERPRISE, allowed: true, blockedManufacturers: ['Huawei'] },
      { platform: EnrollmentPlatform.ANDROID_DEVICE_ADMIN, allowed: false },
    ],
  });
}
