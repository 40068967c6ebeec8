import { GraphQLUUID } from 'graphql-scalars';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { selectedItemFields } from '../core/lean-selection.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { DeviceAction } from './device-action.entity.js';
import { DeviceActionService } from './device-action.service.js';
import { DeviceSecurityService, TIMELINE_LENGTH } from './device-security.service.js';
import { Device } from './device.entity.js';
import { deviceTimelineLoader } from './device.loaders.js';
import {
  DeviceFilter,
  DevicePage,
  DeviceRecommendationPage,
  DeviceTimelineEntry,
  IsolateDeviceInput,
  IsolationStatus,
  ReleaseDeviceInput,
  ScanDeviceInput,
} from './device.types.js';
import { StartsJob } from '../core/job-charges.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/** Device security, isolation and scans of SPEC 2.6, 3.2, 4.2 (REST: /api/security/device-security..., /api/security/devices...). */
@Resolver(() => Device)
export class DeviceResolver {
  @Query(() => DevicePage, { description: 'Devices of a tenant with their security status, riskiest first' })
  @RequirePermission(FEATURES.devices.read)
  securityDevices(
    @tenantIdArg() tenantId: string,
    @Arg('filter', () => DeviceFilter, { nullable: true }) filter: DeviceFilter | null,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    // Only the columns of the fields asked are read (REST's route document arrives here the same way).
    return new DeviceSecurityService(ctx).list(tenantId, filter ?? {}, page, selectedItemFields(info));
  }

  @Query(() => Device, { description: 'One device with its security details and timeline' })
  @RequirePermission(FEATURES.devices.read)
  securityDevice(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new DeviceSecurityService(ctx).get(tenantId, id);
  }

  @Query(() => DeviceRecommendationPage, {
    description:
      'Device security recommendations with the number of devices each concerns, High impact first',
  })
  @RequirePermission(FEATURES.devices.read)
  deviceSecurityRecommendations(
    @tenantIdArg() tenantId: string,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new DeviceSecurityService(ctx).recommendations(tenantId, page);
  }

  @Query(() => IsolationStatus, {
    description: "A device's isolation state and its last isolation or release",
  })
  @RequirePermission(FEATURES.devices.read)
  deviceIsolationStatus(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new DeviceActionService(ctx).isolationStatus(tenantId, id);
  }

  @StartsJob()
  @Mutation(() => DeviceAction, {
    description:
      'Isolates a device (SPEC 3.2: reason and notes required); a job carries it out: Pending → InProgress → Succeeded | Failed',
  })
  @RequirePermission(FEATURES.devices.write)
  isolateDevice(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => IsolateDeviceInput) input: IsolateDeviceInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new DeviceActionService(ctx).isolate(tenantId, id, input);
  }

  @StartsJob()
  @Mutation(() => DeviceAction, { description: 'Releases an isolated device (reason required), as a job' })
  @RequirePermission(FEATURES.devices.write)
  releaseDevice(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => ReleaseDeviceInput) input: ReleaseDeviceInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new DeviceActionService(ctx).release(tenantId, id, input);
  }

  @StartsJob()
  @Mutation(() => DeviceAction, {
    description: 'Runs a quick or full antivirus scan as a job; the result goes to the device timeline',
  })
  @RequirePermission(FEATURES.devices.write)
  scanDevice(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => ScanDeviceInput) input: ScanDeviceInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new DeviceActionService(ctx).scan(tenantId, id, input);
  }

  @FieldResolver(() => [DeviceTimelineEntry], {
    description: `Isolation actions, scans and alerts of the device, newest first (${TIMELINE_LENGTH} at most)`,
  })
  timeline(@Root() device: Device, @Ctx() ctx: RequestContext): Promise<DeviceTimelineEntry[]> {
    return ctx.loaders.get(deviceTimelineLoader).load(device.id);
  }
}
