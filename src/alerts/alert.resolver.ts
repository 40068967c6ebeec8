import { GraphQLUUID } from 'graphql-scalars';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { selectedItemFields } from '../core/lean-selection.js';
import { PageArgs, pageOffset } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { alertStatistics } from './alert-statistics.js';
import { AlertComment, SecurityAlert } from './alert.entity.js';
import { AlertSort } from './alert.enums.js';
import { alertCommentCountLoader, alertCommentPageLoader } from './alert.loaders.js';
import { AlertService } from './alert.service.js';
import {
  AlertCommentInput,
  AlertCommentPage,
  AlertFilter,
  AlertStatistics,
  MAX_COMMENT_LENGTH,
  MAX_COMMENTS_PER_ALERT,
  SecurityAlertPage,
  UpdateAlertInput,
} from './alert.types.js';
import './alert.graphql-enums.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/** Security alerts of SPEC 2.6, 3.1, 4.2 (REST: /api/security/alerts...). */
@Resolver(() => SecurityAlert)
export class AlertResolver {
  @Query(() => SecurityAlertPage, { description: 'Alerts of a tenant, filtered; newest first unless sorted' })
  @RequirePermission(FEATURES.security.read)
  securityAlerts(
    @tenantIdArg() tenantId: string,
    @Arg('filter', () => AlertFilter, { nullable: true }) filter: AlertFilter | null,
    @Arg('sort', () => AlertSort, { nullable: true }) sort: AlertSort | null,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    // Only the columns of the fields asked are read (REST's route document arrives here the same way).
    const fields = selectedItemFields(info);
    return new AlertService(ctx).list(tenantId, filter ?? {}, sort ?? AlertSort.NEWEST, page, fields);
  }

  @Query(() => SecurityAlert, { description: 'One alert with its comments' })
  @RequirePermission(FEATURES.security.read)
  securityAlert(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new AlertService(ctx).get(tenantId, id);
  }

  @Query(() => AlertStatistics, {
    description: 'Counts by severity, category and status, and open alerts past the SPEC 8.3 targets',
  })
  @RequirePermission(FEATURES.security.read)
  securityAlertStatistics(@tenantIdArg() tenantId: string, @Ctx() ctx: RequestContext) {
    return alertStatistics(ctx, tenantId);
  }

  @Mutation(() => SecurityAlert, {
    description:
      'Moves the status (409 {from, to, allowed} for a move the state machine forbids) and/or assigns',
  })
  @RequirePermission(FEATURES.security.write)
  updateSecurityAlert(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => UpdateAlertInput) input: UpdateAlertInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new AlertService(ctx).update(tenantId, id, input);
  }

  @Mutation(() => AlertComment, {
    description: `Adds an investigation note (1 to ${MAX_COMMENT_LENGTH} characters); 409 past ${MAX_COMMENTS_PER_ALERT} per alert`,
  })
  @RequirePermission(FEATURES.security.write)
  addSecurityAlertComment(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => AlertCommentInput) input: AlertCommentInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new AlertService(ctx).addComment(tenantId, id, input);
  }

  @Query(() => AlertCommentPage, {
    description: `A page of an alert's investigation notes, oldest first (an alert holds at most ${MAX_COMMENTS_PER_ALERT})`,
  })
  @RequirePermission(FEATURES.security.read)
  securityAlertComments(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new AlertService(ctx).comments(tenantId, id, page);
  }

  @FieldResolver(() => [AlertComment], {
    description: 'A page of investigation notes, oldest first (commentCount says how many there are)',
  })
  comments(
    @Root() alert: SecurityAlert,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<AlertComment[]> {
    return ctx.loaders
      .get(alertCommentPageLoader)
      .load({ alertId: alert.id, limit: page.limit, offset: pageOffset(page) });
  }

  @FieldResolver(() => Int, {
    description: `Investigation notes on the alert (at most ${MAX_COMMENTS_PER_ALERT})`,
  })
  commentCount(@Root() alert: SecurityAlert, @Ctx() ctx: RequestContext): Promise<number> {
    return ctx.loaders.get(alertCommentCountLoader).load(alert.id);
  }
}
