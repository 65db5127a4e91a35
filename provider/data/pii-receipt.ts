import type * as pulumi from "@pulumi/pulumi";
import type { InsightsClient } from "../client";
import { buildReceipt, identifierSetDigest, newDigestSalt, verifyDeletion, type DeletionVerification, type IdentifierKind, type PiiOptOutReceipt } from "../pii";
import { dataSource, type DataSourceArgs, type DataSourceOptions, type DataSourceOutputArgs, type DataSourceOutputOptions } from "./define";

/** What {@link getPiiOptOutReceipt} reads: the request and whether to check the deletion. */
export interface PiiOptOutReceiptQuery {
  /** The opt-out request's id (docs/api.md 2.9). */
  id: string;
  /** Check after FINISHED that the viewers' sessions are gone (default true; user ids cannot be checked). */
  verify?: boolean;
}

/** Our choice (docs/api.md 11.3): an identifier starting with `user-` is a user id. */
function kindOf(identifiers: readonly string[]): IdentifierKind {
  return identifiers.length > 0 && identifiers.every((identifier) => identifier.startsWith("user-")) ? "user" : "viewer";
}

/** The receipt of one request made anywhere (console, another tool), as the resource builds its own. */
async function receiptOf(client: InsightsClient, params: PiiOptOutReceiptQuery): Promise<PiiOptOutReceipt> {
  const request = await client.pii.get({ id: params.id });
  const identifiers = [...new Set(request.identifiers.viewer_id)].sort();
  const kind = kindOf(identifiers);
  const salt = newDigestSalt();
  let verification: DeletionVerification | undefined;
  if (params.verify !== false && request.status === "FINISHED") {
    verification = await verifyDeletion(client.sessions, { kind, identifiers, salt }, Date.now);
  }
  return buildReceipt({
    generatedAt: new Date().toISOString(),
    status: request.status,
    requests: [{
      id: request.id,
      status: request.status,
      createdAt: request.created_at,
      ...(request.status === "FINISHED" && request.updated_at !== undefined ? { finishedAt: request.updated_at } : {}),
      identifiers: identifiers.length,
    }],
    identifiers: { kind, count: identifiers.length, created: identifiers.length, previouslySubmitted: 0, digest: identifierSetDigest(kind, identifiers, salt), digestSalt: salt },
    ...(verification === undefined ? {} : { verification }),
  });
}

/** Arguments of {@link getPiiOptOutReceipt}: the request's `id`, and `verify`. */
export type GetPiiOptOutReceiptArgs = DataSourceArgs<PiiOptOutReceiptQuery>;
/** Arguments of {@link getPiiOptOutReceiptOutput}: those of {@link getPiiOptOutReceipt}, each an `Input`. */
export type GetPiiOptOutReceiptOutputArgs = DataSourceOutputArgs<PiiOptOutReceiptQuery>;
/** The answer of {@link getPiiOptOutReceipt}: a receipt in the shape of a PiiOptOutRequest's `receipt` output. */
export interface GetPiiOptOutReceiptResult extends PiiOptOutReceipt {}

const optOutReceipt = dataSource("getPiiOptOutReceipt", (client, params: PiiOptOutReceiptQuery) => receiptOf(client, params));

/**
 * The audit receipt of an opt-out request made outside Pulumi (the console, another tool), in the
 * shape of a PiiOptOutRequest's `receipt` output (provider/pii/receipt.ts): request id, status and
 * times, the identifier count and salted set digest, and, once FINISHED, the deletion check of its
 * viewer ids. It names no identifier, so it is not a secret.
 *
 * @example
 * export const receipt = getPiiOptOutReceiptOutput({ id: "015bs9s0wsbxuj" });
 */
export function getPiiOptOutReceipt(args: GetPiiOptOutReceiptArgs, opts?: DataSourceOptions): Promise<GetPiiOptOutReceiptResult> {
  return optOutReceipt.invoke(args, opts);
}

/** The Output form of {@link getPiiOptOutReceipt}: `Input`s in, an `Output` out. */
export function getPiiOptOutReceiptOutput(args: GetPiiOptOutReceiptOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetPiiOptOutReceiptResult> {
  return optOutReceipt.output(args, opts);
}

/** @deprecated The arguments of {@link getPiiOptOutReceipt} are {@link GetPiiOptOutReceiptArgs}; this name goes in the next release. */
export type PiiOptOutReceiptParams = PiiOptOutReceiptQuery;
