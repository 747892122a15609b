import { HIDDEN_CONTROL_CHARS } from '../../../src-shared/field-rules.ts';
import { formatCents } from '../../../src-shared/money.ts';
import { alertSummary, alertTitle, days, markWords, type Alert, type AlertEnvelope, type TradeAlert } from './alert.ts';

/**
 * An alert as a Discord webhook message: a short `content` (what a phone's
 * notification shows) and one embed. Text from outside (item names) is made
 * plain: controls and direction marks go, Markdown is escaped, and
 * `allowed_mentions` is empty, so an item named "@everyone" pings no one.
 * Every part is cut to Discord's documented limits (DISCORD_LIMITS): a
 * message over one is refused whole with a 400.
 */

export const DISCORD_LIMITS = {
  content: 2_000,
  title: 256,
  description: 4_096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1_024,
  footer: 2_048,
  /** Every title, description, field, footer and author of the message's embeds together. */
  embedsTotal: 6_000,
} as const;

export interface DiscordEmbed {
  readonly title: string;
  readonly description: string;
  readonly color: number;
  readonly fields: readonly { readonly name: string; readonly value: string; readonly inline: boolean }[];
  readonly footer: { readonly text: string };
  readonly timestamp: string;
}

export interface DiscordMessage {
  readonly content: string;
  readonly embeds: readonly DiscordEmbed[];
  /** Empty: no @everyone, role or user in any text pings anyone. */
  readonly allowed_mentions: { readonly parse: readonly [] };
}

const COLOR = { action: 0xf0a020, danger: 0xd83c3e, ok: 0x2e9e5b, info: 0x5865f2 } as const;
/** Lines of items or trades in a description: a phone shows a few, the desk shows all. */
const MAX_LINES = 20;

const UNSHOWABLE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029${HIDDEN_CONTROL_CHARS}]|\\p{Cs}`, 'gu');
/** Discord's Markdown escapes any punctuation with a backslash; these are the ones that format, link, quote or mention. */
const MARKDOWN = /[\\*_~`|>#<[\]()@:-]/g;

/** Text from outside on one line, without controls or Markdown, cut to `max` characters with an ellipsis. */
export function plainText(text: string, max: number): string {
  const flat = text.slice(0, max * 4).replace(/\s+/g, ' ').replace(UNSHOWABLE, '').trim();
  return fit(flat.replace(MARKDOWN, (c) => `\\${c}`), max);
}

/** `text` cut to `max` characters, an ellipsis marking the cut; never a lone escaping backslash at the end. */
export function fit(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  const trailing = /\\+$/.exec(cut)?.[0].length ?? 0;
  if (trailing % 2 === 1) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Lines joined until `max` characters; what does not fit is counted in a last line. */
function lines(all: readonly string[], max: number): string {
  const kept: string[] = [];
  let size = 0;
  for (const [i, line] of all.entries()) {
    const more = all.length - i;
    const tail = more > 1 ? 20 : 0;
    if (kept.length === MAX_LINES || size + line.length + 1 + tail > max) {
      kept.push(`+${more} more`);
      break;
    }
    kept.push(line);
    size += line.length + 1;
  }
  return kept.join('\n');
}

const itemLine = (i: TradeAlert['items'][number]) => `• ${plainText(i.name, 120)}${i.quantity > 1 ? ` ×${i.quantity}` : ''} · ${formatCents(i.priceCents)}`;
const tradeWhat = (t: TradeAlert) => `${t.tradeType === 'buy_order' ? 'Buy order trade' : 'Market trade'} ${plainText(t.tradeId, 40)}`;
const partnerWords = (t: TradeAlert) => (t.youngPartner ? `⚠ ${days(t.partnerAgeDays)} old: check before trading` : `${days(t.partnerAgeDays)} old`);

function tradeEmbed(trades: readonly TradeAlert[]): Pick<DiscordEmbed, 'description' | 'fields' | 'color'> {
  const young = trades.some((t) => t.youngPartner);
  const color = young ? COLOR.danger : COLOR.action;
  const total = formatCents(trades.reduce((sum, t) => sum + t.totalCents, 0));
  const [only] = trades;
  if (trades.length === 1 && only) {
    const fields = [
      { name: 'Total', value: total, inline: true },
      { name: 'Partner account', value: partnerWords(only), inline: true },
      { name: 'Trade', value: tradeWhat(only), inline: true },
      ...(only.verificationCode ? [{ name: 'Verification code', value: plainText(only.verificationCode, 40), inline: true }] : []),
    ];
    return { description: only.items.length === 0 ? 'No items listed' : lines(only.items.map(itemLine), 3_000), fields, color };
  }
  const tradeLines = trades.map((t) => {
    const names = t.items.slice(0, 2).map((i) => plainText(i.name, 60)).join(', ') || 'no items listed';
    const more = t.items.length > 2 ? ` +${t.items.length - 2}` : '';
    return `• **${plainText(t.action, 60)}**: ${names}${more} · ${formatCents(t.totalCents)}${t.youngPartner ? ' · ⚠ young partner' : ''}`;
  });
  return { description: lines(tradeLines, 3_000), fields: [{ name: 'Total', value: total, inline: true }], color };
}

function bodyOf(alert: Alert): Pick<DiscordEmbed, 'description' | 'fields' | 'color'> {
  const summary = fit(alertSummary(alert, (text) => plainText(text, 200)), 1_000);
  switch (alert.type) {
    case 'trade.needs_action': return tradeEmbed(alert.trades);
    case 'automation.lapsed': {
      // Discord shows <t:…:R> as "5 minutes ago" in the reader's own time zone.
      const last = alert.lastBeatAt === null ? 'none since the desk started' : `<t:${Math.floor(alert.lastBeatAt / 1000)}:R>`;
      return { description: summary, fields: [{ name: 'Last heartbeat', value: last, inline: true }], color: COLOR.danger };
    }
    case 'automation.restored': return { description: summary, fields: [], color: COLOR.ok };
    case 'apply.ended': {
      const n = (x: number) => x.toLocaleString('en-US');
      const fields = [
        { name: 'Done', value: `${n(alert.done)} of ${n(alert.total)}`, inline: true },
        { name: 'Refused', value: n(alert.failed), inline: true },
        { name: 'Outcome unknown', value: n(alert.unknown), inline: true },
      ];
      const bad = alert.state === 'stopped' || alert.unknown > 0;
      return { description: summary, fields, color: bad ? COLOR.danger : alert.failed > 0 ? COLOR.action : COLOR.ok };
    }
    case 'reprice.waiting': {
      const fields = [
        { name: 'Waiting', value: alert.waiting.toLocaleString('en-US'), inline: true },
        { name: 'Why', value: markWords(alert.why), inline: true },
        { name: 'Draft', value: alert.draftName === null ? 'gone' : plainText(alert.draftName, 200), inline: true },
      ];
      return { description: summary, fields, color: COLOR.action };
    }
    case 'test': return { description: summary, fields: [], color: COLOR.info };
  }
}

export function discordMessage(envelope: AlertEnvelope): DiscordMessage {
  const { alert } = envelope;
  // The desk's own words: the trades' actions, counts. Text from outside is in the summary and the body.
  const title = fit(alertTitle(alert), DISCORD_LIMITS.title);
  const body = bodyOf(alert);
  const footer = `Marketplace Desk${envelope.sandbox ? ' · sandbox: simulated, not the live service' : ''}`;
  const embed: DiscordEmbed = {
    title,
    description: fit(body.description, DISCORD_LIMITS.description),
    color: body.color,
    fields: body.fields.slice(0, DISCORD_LIMITS.fields).map((f) => ({
      name: fit(f.name, DISCORD_LIMITS.fieldName),
      value: fit(f.value, DISCORD_LIMITS.fieldValue),
      inline: f.inline,
    })),
    footer: { text: fit(footer, DISCORD_LIMITS.footer) },
    timestamp: new Date(envelope.at).toISOString(),
  };
  const content = fit(`**${title}** · ${alertSummary(alert, (text) => plainText(text, 120))}`, DISCORD_LIMITS.content);
  return { content, embeds: [embed], allowed_mentions: { parse: [] } };
}

/** The text of a message's embeds that counts towards Discord's 6,000 characters. */
export function embedsLength(message: DiscordMessage): number {
  return message.embeds.reduce((sum, e) => sum + e.title.length + e.description.length + e.footer.text.length
    + e.fields.reduce((f, field) => f + field.name.length + field.value.length, 0), 0);
}
