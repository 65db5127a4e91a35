import { isoUtc as isoDate } from "../text/wire";
import type { PiiStore } from "./store";

/** An account as the e-mails read it: its client id and its PII requests. */
export interface MailingAccount {
  config: { clientId: string };
  pii: PiiStore;
}

/** A notification e-mail as the control plane shows it (`GET /_emulator/emails`). */
export interface NotificationEmail {
  account: string;
  request_id: string;
  to: string[];
  sent_at: string;
  subject: string;
  text: string;
}

/**
 * The notification e-mails "sent" so far by every account (spec 3.1, 6: an e-mail to the addresses
 * in `@notification_email` when a request becomes FINISHED), oldest first. Nothing leaves the
 * machine; tests and demos read them here. Derived from the clock, so they appear the moment a
 * request finishes and vanish again if the clock is set back before that.
 */
export function sentEmails(accounts: readonly MailingAccount[], nowMs: number): NotificationEmail[] {
  return accounts
    .flatMap((account) =>
      account.pii.sentNotifications(nowMs).map(({ request, sentMs }) => ({
        sentMs,
        email: {
          account: account.config.clientId,
          request_id: request.id,
          to: [...(request.notificationEmails ?? [])],
          sent_at: isoDate(sentMs),
          subject: `PII opt-out request ${request.id} finished`,
          text:
            `Your PII opt-out request ${request.id} has finished: the personal data of its ` +
            `${request.identifiers.length} identifier(s) is deleted.`,
        },
      })),
    )
    .sort((left, right) => left.sentMs - right.sentMs)
    .map(({ email }) => email);
}
