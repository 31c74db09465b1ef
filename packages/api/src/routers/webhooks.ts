import {
  createEndpoint,
  createEndpointInput,
  deleteEndpoint,
  deliveryIdInput,
  endpointIdInput,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listDeliveriesInput,
  listEndpoints,
  retryDelivery,
  rollEndpointSecret,
  sendTestEvent,
  setEndpointEnabled,
  setEndpointEnabledInput,
  updateEndpoint,
  updateEndpointInput,
  webhookUrlPolicy,
} from "@parley/core/admin";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const webhooksRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => listEndpoints(ctx.app.db, ctx.session.workspaceId, ctx.app.now())),
  get: protectedProcedure
    .input(endpointIdInput)
    .query(({ ctx, input }) => getEndpoint(ctx.app.db, ctx.session.workspaceId, input.id, ctx.app.now())),
  /** Returns the signing secret: the only time it is shown (with rollSecret). */
  create: protectedProcedure
    .input(createEndpointInput)
    .mutation(({ ctx, input }) =>
      createEndpoint(ctx.app.db, ctx.session.workspaceId, input, { policy: webhookUrlPolicy(ctx.app), now: ctx.app.now() }),
    ),
  update: protectedProcedure
    .input(updateEndpointInput)
    .mutation(({ ctx, input }) =>
      updateEndpoint(ctx.app.db, ctx.session.workspaceId, input, { policy: webhookUrlPolicy(ctx.app), now: ctx.app.now() }),
    ),
  delete: protectedProcedure
    .input(endpointIdInput)
    .mutation(({ ctx, input }) => deleteEndpoint(ctx.app.db, ctx.session.workspaceId, input.id)),
  setEnabled: protectedProcedure
    .input(setEndpointEnabledInput)
    .mutation(({ ctx, input }) => setEndpointEnabled(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now())),
  rollSecret: protectedProcedure
    .input(endpointIdInput)
    .mutation(({ ctx, input }) => rollEndpointSecret(ctx.app.db, ctx.session.workspaceId, input.id, ctx.app.now())),
  deliveries: protectedProcedure
    .input(listDeliveriesInput)
    .query(({ ctx, input }) => listDeliveries(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now())),
  delivery: protectedProcedure
    .input(deliveryIdInput)
    .query(({ ctx, input }) => getDelivery(ctx.app.db, ctx.session.workspaceId, input.id, ctx.app.now())),
  sendTest: protectedProcedure
    .input(endpointIdInput)
    .mutation(({ ctx, input }) => sendTestEvent(ctx.app.db, ctx.session.workspaceId, input.id, ctx.app.now())),
  retryDelivery: protectedProcedure
    .input(deliveryIdInput)
    .mutation(({ ctx, input }) => retryDelivery(ctx.app.db, ctx.session.workspaceId, input.id, ctx.app.now())),
});
