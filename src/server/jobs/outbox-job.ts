// Sends the outbox's unsent mail (db/outbox-repository.ts) through nodemailer when SMTP_URL is set,
// and its SMS to SMS_WEBHOOK_URL when that is set.
// Without it (the default, and tests) rows stay unsent for the development mailbox, and the
// invitation links were written to the server log when they were made. Each run sends every
// unsent row, in batches, so mail left from a failed run (or from before SMTP_URL was set) goes
// with the next one; a row is marked sent in the transaction that holds it.
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { parseConfig } from '../config';
import type { Database } from '../db/database';
import { claimUnsent, markFailed, markSent } from '../db/outbox-repository';
import type { JobHandler } from './job-runner';

/** What sending needs of a nodemailer transport (a test passes jsonTransport or streamTransport). */
export interface MailSender {
  sendMail(mail: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
}

export interface Mailer {
  readonly sender: MailSender;
  readonly from: string;
}

/** Where SMS go: SMS_WEBHOOK_URL receives each as a POST of JSON { to, body }. */
export interface SmsSender {
  send(sms: { to: string; body: string }): Promise<void>;
}

export function webhookSmsSender(url: string, fetchImpl: typeof fetch = fetch): SmsSender {
  return {
    async send(sms) {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sms),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`SMS webhook answered ${response.status}`);
    },
  };
}

export const outboxJobDataSchema = z.object({ outboxId: z.uuid().optional() });

const BATCH = 20;

/**
 * Sends the unsent rows in batches of BATCH, each batch one transaction (its rows locked: another
 * server's run skips them). Answers how many were sent and how many failed (counted on the row).
 */
export async function sendPendingOutbox(
  db: Database,
  mailer: Mailer | null,
  log: FastifyBaseLogger,
  sms: SmsSender | null = null,
): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  // Rows of a channel without a transport stay for the development mailbox.
  const channels = [...(mailer ? ['email'] : []), ...(sms ? ['sms'] : [])];
  if (channels.length === 0) return { sent, failed };
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await claimUnsent(tx, BATCH, channels);
      let batchFailed = 0;
      for (const row of rows) {
        try {
          if (row.channel === 'sms' && sms) await sms.send({ to: row.recipient, body: row.body });
          else if (mailer) await mailer.sender.sendMail({ from: mailer.from, to: row.recipient, subject: row.subject, text: row.body });
          await markSent(tx, row.id);
          sent += 1;
        } catch (error) {
          batchFailed += 1;
          await markFailed(tx, row.id, error instanceof Error ? error.message : String(error));
          log.warn({ outboxId: row.id, err: error }, 'outbox mail not sent');
        }
      }
      return { size: rows.length, failed: batchFailed };
    });
    failed += batch.failed;
    // A batch with failures stops the run: its rows would be claimed again at once.
    if (batch.size < BATCH || batch.failed > 0) return { sent, failed };
  }
}

let configured: Mailer | null | undefined;

/** The server's mailer from SMTP_URL and MAIL_FROM (parsed once), or null without SMTP_URL. */
export function mailerFromEnvironment(): Mailer | null {
  if (configured === undefined) {
    const config = parseConfig();
    configured = config.smtpUrl ? { sender: nodemailer.createTransport(config.smtpUrl), from: config.mailFrom } : null;
  }
  return configured;
}

let configuredSms: SmsSender | null | undefined;

/** The server's SMS sender from SMS_WEBHOOK_URL (parsed once), or null without it. */
export function smsSenderFromEnvironment(): SmsSender | null {
  if (configuredSms === undefined) {
    const url = parseConfig().smsWebhookUrl;
    configuredSms = url ? webhookSmsSender(url) : null;
  }
  return configuredSms;
}

/** The queue's handler over a mailer and an SMS sender (null: that channel stays in the outbox). */
export function outboxHandler(mailer: () => Mailer | null, sms: () => SmsSender | null = () => null): JobHandler {
  return async ({ db, log }, data) => {
    outboxJobDataSchema.parse(data);
    const current = mailer();
    const smsSender = sms();
    if (!current && !smsSender) {
      log.info('Neither SMTP_URL nor SMS_WEBHOOK_URL is set: outbox messages stay for the development mailbox');
      return;
    }
    const { sent, failed } = await sendPendingOutbox(db, current, log, smsSender);
    log.info({ sent, failed }, 'outbox sent');
    // pg-boss retries the job with backoff; the failed rows count their attempts.
    if (failed > 0) throw new Error(`${failed} outbox mail(s) not sent`);
  };
}

export const runSendOutbox = outboxHandler(mailerFromEnvironment, smsSenderFromEnvironment);
