// The development mailbox: the outbox's latest mail and SMS on a hosted page, so a person trying
// the demo (and the browser tests) can read a code or a link. Served only off production and
// without SMTP_URL or SMS_WEBHOOK_URL (routes/security-factors.ts).
import type { OutboxRow } from '../db/outbox-repository';
import { escapeHtml, hostedPage } from './sign-in-page';

export const MAILBOX_TITLE = 'Development mailbox';

const STYLES = `
main{max-width:56rem}
table{width:100%;border-collapse:collapse;font-size:.875rem}
th,td{text-align:left;vertical-align:top;padding:.5rem;border-bottom:1px solid #e2e8f0}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.8125rem}
`;

export function renderMailboxPage(rows: readonly OutboxRow[]): string {
  const body =
    rows.length === 0
      ? '<p>No messages yet.</p>'
      : `<table>
<caption class="lead">The latest ${rows.length} messages, newest first. Nothing here leaves this machine.</caption>
<thead><tr><th scope="col">When</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Message</th></tr></thead>
<tbody>
${rows
  .map(
    (row) => `<tr data-recipient="${escapeHtml(row.recipient.toLowerCase())}">
<td>${escapeHtml(row.createdAt.toISOString())}</td>
<td>${row.channel === 'sms' ? 'SMS' : 'Email'}</td>
<td>${escapeHtml(row.recipient)}</td>
<td><strong>${escapeHtml(row.subject)}</strong><pre>${escapeHtml(row.body)}</pre></td>
</tr>`,
  )
  .join('\n')}
</tbody>
</table>`;
  return hostedPage({ title: MAILBOX_TITLE, extraStyles: STYLES, body: `<p class="lead">Not available in production.</p>\n${body}` });
}
