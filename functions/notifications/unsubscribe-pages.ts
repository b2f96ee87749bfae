/**
 * The unsubscribe link's pages, for a person who clicks it in a mail (a browser asks for `text/html`):
 * what the link stops, with one button that posts RFC 8058's one-click body back to the same URL, and
 * what the post did. Plain HTML, no script and no style: the route's policy allows neither, only the form
 * posting to this origin (`FORM_PAGE_POLICY`). Every value put into a page is escaped, the organisation's
 * name above all (its operators name it; nothing here trusts it).
 */
import type { NotificationCategory } from '#shared/domain/notification-rules';

/** The characters HTML gives meaning to in text and in quoted attributes, escape-html's five. */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escaped = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);

export const HTML_MEDIA_TYPE = 'text/html; charset=utf-8';

interface Named {
  category: NotificationCategory;
  /** The organisation's name, as stored. */
  organisation: string;
}

const page = (title: string, ...body: string[]) =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escaped(title)}</title>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escaped(title)}</h1>`,
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

const about = ({ category, organisation }: Named) =>
  `e-mails about <strong>${escaped(category)}</strong> from <strong>${escaped(organisation)}</strong>`;

/**
 * What the link stops, and the button that stops it (a POST of `List-Unsubscribe=One-Click` to `action`,
 * the link's own path). Nothing changes until the button is pressed: mail scanners follow links.
 */
export const unsubscribePage = (named: Named & { email: boolean; mutable: boolean; action: string }) =>
  !named.mutable
    ? page(
        'These e-mails cannot be stopped',
        `<p>You always receive ${about(named)}: nobody may mute them.</p>`,
      )
    : !named.email
      ? page(
          'You are unsubscribed',
          `<p>You no longer receive ${about(named)}. They still reach your inbox; your notification preferences can turn them back on.</p>`,
        )
      : page(
          'Stop these e-mails?',
          `<p>This stops ${about(named)}. They will still reach your inbox, and other e-mails are not affected.</p>`,
          `<form method="post" action="${escaped(named.action)}">`,
          '<input type="hidden" name="List-Unsubscribe" value="One-Click">',
          '<button type="submit">Stop these e-mails</button>',
          '</form>',
        );

/** What the form's post did. */
export const unsubscribedPage = (named: Named & { mutable: boolean }) =>
  named.mutable
    ? page(
        'You are unsubscribed',
        `<p>You will no longer receive ${about(named)}. They still reach your inbox; your notification preferences can turn them back on.</p>`,
      )
    : page(
        'These e-mails cannot be stopped',
        `<p>You always receive ${about(named)}: nobody may mute them.</p>`,
      );
