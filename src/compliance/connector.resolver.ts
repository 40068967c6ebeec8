import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { ComplianceConnector, ConnectorUserMapping } from './connector.entity.js';
import { ConnectorService } from './connector.service.js';
import {
  ComplianceConnectorPage,
  ConnectorRunPage,
  ConnectorStatusReport,
  CreateConnectorInput,
  UpdateConnectorInput,
} from './connector.types.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/** Compliance data connectors of SPEC 4.2 (REST: /api/compliance/connectors...), docs/compliance.md. */
@Resolver(() => ComplianceConnector)
export class ConnectorResolver {
  @Query(() => ComplianceConnectorPage, { description: 'Connectors of a tenant, newest first' })
  @RequirePermission(FEATURES.compliance.read)
  complianceConnectors(@tenantIdArg() tenantId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new ConnectorService(ctx).list(tenantId, page);
  }

  @Query(() => ComplianceConnector, { description: 'One connector' })
  @RequirePermission(FEATURES.compliance.read)
  complianceConnector(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new ConnectorService(ctx).get(tenantId, id);
  }

  @Mutation(() => ComplianceConnector, {
    description: 'Creates a connector after a successful test connection; the first import runs at once',
  })
  @RequirePermission(FEATURES.compliance.write)
  createComplianceConnector(
    @tenantIdArg() tenantId: string,
    @Arg('input', () => CreateConnectorInput) input: CreateConnectorInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new ConnectorService(ctx).create(tenantId, input);
  }

  @Mutation(() => ComplianceConnector, {
    description: 'Pause, resume or reconfigure; a reconfiguration or resume must pass a test connection',
  })
  @RequirePermission(FEATURES.compliance.write)
  updateComplianceConnector(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => UpdateConnectorInput) input: UpdateConnectorInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new ConnectorService(ctx).update(tenantId, id, input);
  }

  @Query(() => ConnectorStatusReport, { description: 'Health, last import, next run' })
  @RequirePermission(FEATURES.compliance.read)
  complianceConnectorStatus(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new ConnectorService(ctx).status(tenantId, id);
  }

  @Query(() => ConnectorRunPage, {
    description: 'Import runs, the latest first, with the statistics over every run (as the status report)',
  })
  @RequirePermission(FEATURES.compliance.read)
  complianceConnectorHistory(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new ConnectorService(ctx).history(tenantId, id, page);
  }
}

/** What a user mapping table says besides its pairs. */
@Resolver(() => ConnectorUserMapping)
export class ConnectorUserMappingResolver {
  @FieldResolver(() => Int, { description: 'Pairs in the mapping table (at most 1000)' })
  mappingCount(@Root() mapping: ConnectorUserMapping): number {
    return mapping.mappings.length;
  }
}
