import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { actorLoader } from './actor.loaders.js';
import { Actor, type ActorType } from './actor.types.js';

/**
 * An audit field (`deletedBy`, `invitedBy`, `author`, ...) is declared `@Field(() => Actor)` on a property that
 * holds the stored principal string; the string is then the Actor's root here, and every sub-field reads the
 * one request-wide actorLoader. So no feature writes a resolver of its own for its audit fields, and a list of
 * N rows costs the same statements for any N (the loads of one execution tick form one batch).
 */
@Resolver(() => Actor)
export class ActorResolver {
  private actor(principal: string, ctx: RequestContext): Promise<Actor> {
    return ctx.loaders.get(actorLoader).load(principal);
  }

  @FieldResolver()
  async type(@Root() principal: string, @Ctx() ctx: RequestContext): Promise<ActorType> {
    return (await this.actor(principal, ctx)).type;
  }

  @FieldResolver()
  async id(@Root() principal: string, @Ctx() ctx: RequestContext): Promise<string | null> {
    return (await this.actor(principal, ctx)).id;
  }

  @FieldResolver()
  async name(@Root() principal: string, @Ctx() ctx: RequestContext): Promise<string | null> {
    return (await this.actor(principal, ctx)).name;
  }

  @FieldResolver()
  async email(@Root() principal: string, @Ctx() ctx: RequestContext): Promise<string | null> {
    return (await this.actor(principal, ctx)).email;
  }

  @FieldResolver()
  async oauthClientName(@Root() principal: string, @Ctx() ctx: RequestContext): Promise<string | null> {
    return (await this.actor(principal, ctx)).oauthClientName;
  }
}
