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
} from "@parley/core/webhooks";
import {
  deletedWebhookEndpointOutput,
  webhookDeliveryDetailOutput,
  webhookDeliveryListOutput,
  webhookEndpointListOutput,
  webhookEndpointOutput,
  webhookEndpointWithSecretOutput,
} from "../outputs.ts";
import { createTRPCRouter, protectedProcedure } from "../trpc.ts";

export const webhooksRouter = createTRPCRouter({
  list: protectedProcedure
    .output(webhookEndpointListOutput)
    .query(({ ctx }) => listEndpoints(ctx.app.db, ctx.session.workspaceId, ctx.app.now())),
  get: protectedProcedure
    .input(endpointIdInput)
    .output(webhookEndpointOutput)
    .query(({ ctx, input }) => getEndpoint(ctx.app.db, ctx.session.workspaceId, input.id, ctx.app.now())),
  /** Returns the signing secret: the only time it is shown (with rollSecret). */
  create: protectedProcedure
    .input(createEndpointInput)
    .output(webhookEndpointWithSecretOutput)
    .mutation(({ ctx, input }) =>
      createEndpoint(ctx.app.db, ctx.session, input, { policy: webhookUrlPolicy(ctx.app), now: ctx.app.now() }),
    ),
  update: protectedProcedure
    .input(updateEndpointInput)
    .output(webhookEndpointOutput)
    .mutation(({ ctx, input }) =>
      updateEndpoint(ctx.app.db, ctx.session, input, { policy: webhookUrlPolicy(ctx.app), now: ctx.app.now() }),
    ),
  delete: protectedProcedure
    .input(endpointIdInput)
    .output(deletedWebhookEndpointOutput)
    .mutation(({ ctx, input }) => deleteEndpoint(ctx.app.db, ctx.session, input.id)),
  setEnabled: protectedProcedure
    .input(setEndpointEnabledInput)
    .output(webhookEndpointOutput)
    .mutation(({ ctx, input }) => setEndpointEnabled(ctx.app.db, ctx.session, input, ctx.app.now())),
  rollSecret: protectedProcedure
    .input(endpointIdInput)
    .output(webhookEndpointWithSecretOutput)
    .mutation(({ ctx, input }) => rollEndpointSecret(ctx.app.db, ctx.session, input.id, ctx.app.now())),
  deliveries: protectedProcedure
    .input(listDeliveriesInput)
    .output(webhookDeliveryListOutput)
    .query(({ ctx, input }) => listDeliveries(ctx.app.db, ctx.session.workspaceId, input, ctx.app.now())),
  delivery: protectedProcedure
    .input(deliveryIdInput)
    .output(webhookDeliveryDetailOutput)
    .query(({ ctx, input }) => getDelivery(ctx.app.db, ctx.session.workspaceId, input.id, ctx.app.now())),
  sendTest: protectedProcedure
    .input(endpointIdInput)
    .output(webhookDeliveryDetailOutput)
    .mutation(({ ctx, input }) => sendTestEvent(ctx.app.db, ctx.session.workspaceId, input.id, ctx.app.now())),
  retryDelivery: protectedProcedure
    .input(deliveryIdInput)
    .output(webhookDeliveryDetailOutput)
    .mutation(({ ctx, input }) => retryDelivery(ctx.app.db, ctx.session.workspaceId, input.id, ctx.app.now())),
});
