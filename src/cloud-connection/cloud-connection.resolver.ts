import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { FEATURES } from '../core/permissions.js';
import { CloudConnectionService } from './cloud-connection.service.js';
import { CloudConnectionView, ConnectCloudInput } from './cloud-connection.types.js';

/** The live environment's cloud connection: live Admin credentials only (FEATURES.cloudConnection). */
@Resolver(() => CloudConnectionView)
export class CloudConnectionResolver {
  @Query(() => CloudConnectionView, {
    description: "The live environment's cloud connection, its last test and what is available through it",
  })
  @RequirePermission(FEATURES.cloudConnection.read)
  cloudConnection(@Ctx() ctx: RequestContext) {
    return new CloudConnectionService(ctx).get();
  }

  @Mutation(() => CloudConnectionView, {
    description:
      'Connects (or reconnects) the live environment to a cloud. Microsoft 365 credentials are tested first ' +
      '(a token for the partner tenant and GET /organization): a failure is 400 naming what failed, nothing saved',
  })
  @RequirePermission(FEATURES.cloudConnection.admin)
  connectCloud(@Arg('input', () => ConnectCloudInput) input: ConnectCloudInput, @Ctx() ctx: RequestContext) {
    return new CloudConnectionService(ctx).connect(input);
  }

  @Mutation(() => CloudConnectionView, {
    description:
      'Tests the saved connection again and records the outcome as its last test (an expired secret shows ' +
      'there); 409 without a connection',
  })
  @RequirePermission(FEATURES.cloudConnection.write)
  testCloudConnection(@Ctx() ctx: RequestContext) {
    return new CloudConnectionService(ctx).test();
  }

  @Mutation(() => CloudConnectionView, {
    description: 'Removes the cloud connection; without one, answers the same not-connected state',
  })
  @RequirePermission(FEATURES.cloudConnection.admin)
  disconnectCloud(@Ctx() ctx: RequestContext) {
    return new CloudConnectionService(ctx).disconnect();
  }
}
