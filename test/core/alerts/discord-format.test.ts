import { describe, expect, it } from 'vitest';
import type { AlertEnvelope } from '../../../src-main/core/alerts/alert.ts';
import { tradeAlerts } from '../../../src-main/core/alerts/alert-watch.ts';
import { DISCORD_LIMITS, discordMessage, embedsLength, fit, type DiscordMessage } from '../../../src-main/core/alerts/discord-format.ts';
import { item, waitingTrade } from './alert-fixtures.ts';

/**
 * Alerts in Discord's format: the items named, plain (no Markdown, no
 * mentions that ping), and every part within Discord's documented limits
 * whatever the service sent, since a message over one is refused whole.
 */

const envelope = (alert: AlertEnvelope['alert']): AlertEnvelope => ({ id: 'a1', at: Date.UTC(2026, 0, 2, 3, 4, 5), sandbox: false, alert });
const textsOf = (m: DiscordMessage) => [m.content, ...m.embeds.flatMap((e) => [e.title, e.description, e.footer.text, ...e.fields.flatMap((f) => [f.name, f.value])])];

function withinLimits(m: DiscordMessage): void {
  expect(m.content.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
  expect(m.embeds.length).toBeLessThanOrEqual(10);
  for (const e of m.embeds) {
    expect(e.title.length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(e.description.length).toBeLessThanOrEqual(DISCORD_LIMITS.description);
    expect(e.fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    for (const f of e.fields) {
      expect(f.name.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldName);
      expect(f.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
    }
    expect(e.footer.text.length).toBeLessThanOrEqual(DISCORD_LIMITS.footer);
  }
  expect(embedsLength(m)).toBeLessThanOrEqual(DISCORD_LIMITS.embedsTotal);
  expect(m.allowed_mentions).toEqual({ parse: [] });
}

describe('an alert as a Discord message', () => {
  it('names the items of a trade needing action, its total and the partner account’s age', () => {
    const [alert] = tradeAlerts([waitingTrade('61', [item('Strange Team Captain', 1, 2_500), item('Mann Co. Supply Crate Key', 3, 250)], 12)]);
    const message = discordMessage(envelope(alert ?? { type: 'test' }));
    withinLimits(message);
    const [embed] = message.embeds;
    expect(embed?.title).toBe('Accept a trade: you sold an item');
    expect(embed?.description).toBe('• Strange Team Captain · $25.00\n• Mann Co. Supply Crate Key ×3 · $2.50');
    expect(embed?.fields).toEqual(expect.arrayContaining([
      { name: 'Total', value: '$12.50', inline: true },
      { name: 'Partner account', value: '⚠ 12 days old: check before trading', inline: true },
    ]));
    expect(message.content).toContain('Strange Team Captain');
    expect(embed?.timestamp).toBe('2026-01-02T03:04:05.000Z');
  });

  it('makes a name from the service plain: no Markdown, no mention, no control or direction character', () => {
    const hostile = '@everyone **free** [keys](https://evil.example) `x` ||spoiler|| <@123>\u202etxt.exe\u0000\nnext';
    const [alert] = tradeAlerts([waitingTrade('62', [item(hostile)])]);
    const message = discordMessage(envelope(alert ?? { type: 'test' }));
    const description = message.embeds[0]?.description ?? '';
    expect(description).toBe('• \\@everyone \\*\\*free\\*\\* \\[keys\\]\\(https\\://evil.example\\) \\`x\\` \\|\\|spoiler\\|\\| \\<\\@123\\>txt.exe next · $12.34');
    for (const text of textsOf(message)) expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202a-\u202e\u2066-\u2069]/u);
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('keeps every part within Discord’s limits for a flood of trades with the longest names', () => {
    const long = (n: number) => `${'Ünusual Burning Flames Team Captain *_~`|> '.repeat(10)}${n}`.slice(0, 300);
    const trades = Array.from({ length: 200 }, (_, i) => waitingTrade(String(1_000 + i), Array.from({ length: 10 }, (_, j) => item(long(j), 5)), i % 2 === 0 ? 3 : 900));
    const [grouped, ...rest] = tradeAlerts(trades);
    expect(rest).toEqual([]);
    const message = discordMessage(envelope(grouped ?? { type: 'test' }));
    withinLimits(message);
    expect(message.embeds[0]?.title).toBe('200 trades need action');
    expect(message.embeds[0]?.description).toMatch(/\+\d+ more$/);
    // One trade with 500 items of the longest names.
    const [single] = tradeAlerts([waitingTrade('7', Array.from({ length: 500 }, (_, j) => item(long(j))))]);
    withinLimits(discordMessage(envelope(single ?? { type: 'test' })));
  });

  it('folds more than three trades arriving at once into one alert, as the notifications do', () => {
    expect(tradeAlerts([1, 2, 3].map((n) => waitingTrade(String(n), [item('Key')])))).toHaveLength(3);
    expect(tradeAlerts([1, 2, 3, 4].map((n) => waitingTrade(String(n), [item('Key')])))).toHaveLength(1);
  });

  it('says automation lapsed, an apply that ended with unknown outcomes, and a test', () => {
    const lapsed = discordMessage(envelope({ type: 'automation.lapsed', lastBeatAt: Date.UTC(2026, 0, 2, 3), why: 'no answer within 30 s' }));
    expect(lapsed.embeds[0]?.title).toBe('Automation lapsed: listings no longer show as automated');
    expect(lapsed.embeds[0]?.fields[0]?.value).toBe(`<t:${Date.UTC(2026, 0, 2, 3) / 1000}:R>`);
    const apply = discordMessage(envelope({ type: 'apply.ended', draftName: 'Weekend sale', state: 'done', total: 1_000, done: 990, failed: 7, unknown: 3, stopReason: null }));
    expect(apply.embeds[0]?.title).toBe('Apply finished with 3 outcomes unknown');
    expect(apply.embeds[0]?.description).toBe('Weekend sale: 990 of 1,000 changes done, 7 refused, 3 unknown: check them in Drafts');
    for (const m of [lapsed, apply, discordMessage(envelope({ type: 'test' }))]) withinLimits(m);
  });

  it('cuts text with an ellipsis and never leaves an escaping backslash alone at the end', () => {
    expect(fit('abcdef', 4)).toBe('abc…');
    expect(fit('ab\\*cd', 4)).toBe('ab…');
    expect(fit('a\\\\*cd', 4)).toBe('a\\\\…');
  });
});
