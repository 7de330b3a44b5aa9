/**
 * /sms: sender → recipients (pasted or a .txt/.csv file) → message → plan → checks → confirm → send.
 * The same questions in both modes; in the storefront the summary shows the customer's price, and the
 * confirm step is the wallet's (bot/storefront/confirm.ts).
 */
import type { InlineKeyboard } from 'grammy';
import type { ConvContext, MyConversation, Services } from '../context';
import { tryAgainKeyboard } from '../flow/keyboards';
import { failText } from '../flow/pickers';
import { nudge, type Loaded } from '../flow/ui';
import { naira } from '../orders';
import { PRODUCT_TABLE, checkMessage, checkSender, type BotPurchaseRequest } from '../vtu';
import { askTyped, parsed } from '../flow/choices';
import { refusalWords } from '../refusals';
import {
	nonGsmChars,
	recipientsFromCsv,
	recipientsFromText,
	recipientsReport,
	type Recipients,
} from './sms-recipients';
import { t } from '../i18n';
import { productFeature, sentTo, type Purchase, type Questions, type Redo } from './product';

/** "3 numbers", "1 page": a count in the catalogue's words (`sms-numbers`, `sms-pages`…). */
const count = (key: string, n: number) => t(key, { n });

interface PlanView {
	recipients: string[];
	duplicates: number;
	pages: number;
	costKobo: number;
	/** storefront: what this customer pays (the seller's price of the job); the till shows the cost */
	priceKobo?: number;
}

/** The summary shown before the confirm: count, pages, cost, and the Unicode warning. */
export function smsSummary(sender: string, message: string, p: PlanView): string {
	const chars = [...message].length;
	const numbers = count('sms-numbers', p.recipients.length);
	const characters = count('sms-characters', chars);
	const pages = count('sms-pages', p.pages);
	const lines = [
		t('sms-summary-from', { sender }),
		p.duplicates
			? t('sms-summary-recipients-dup', { numbers, duplicates: count('sms-duplicates', p.duplicates) })
			: t('sms-summary-recipients', { numbers }),
		t('sms-summary-message', { characters, pages }),
		p.priceKobo === undefined
			? t('sms-summary-cost', { cost: naira(p.costKobo) })
			: t('sms-summary-price', { price: naira(p.priceKobo) }),
	];
	const odd = nonGsmChars(message);
	if (odd.length) {
		lines.push(t('sms-summary-unicode', { chars: odd.slice(0, 5).join(' '), characters, pages }));
	}
	return lines.join('\n');
}

/** What the customer asked for: the sender, the message and the numbers. */
type SmsJob = { sender: string; message: string; recipients: string[] };

/** The first questions: sender and recipients (typed or a file). */
function smsSteps(s: Services) {
	async function askSender(conversation: MyConversation, ctx: ConvContext): Promise<string> {
		await ctx.reply(t('sms-sender-prompt', { max: PRODUCT_TABLE.sms.limits.senderChars }));
		for (;;) {
			const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, t('sms-sender-as-text')) });
			// The client's rule (client.sms.plan applies it again): the vendor refuses anything else.
			try {
				return checkSender(m.message.text);
			} catch (e) {
				await m.reply(refusalWords(e, t('sms-sender-invalid', { max: PRODUCT_TABLE.sms.limits.senderChars })));
			}
		}
	}

	async function readFile(
		conversation: MyConversation,
		doc: { file_id: string; file_name?: string },
	): Promise<Loaded<Recipients>> {
		const name = doc.file_name ?? 'file';
		return conversation.external(async (): Promise<Loaded<Recipients>> => {
			try {
				const text = (await s.downloadFile(doc.file_id, s.cfg.smsMaxFileBytes)).toString('utf8');
				return { ok: true, value: /\.csv$/i.test(name) ? recipientsFromCsv(text) : recipientsFromText(text) };
			} catch (e) {
				s.logger.warn('recipients file failed', { err: e instanceof Error ? e.message : String(e) });
				return { ok: false, text: t('sms-file-unreadable') };
			}
		});
	}

	async function askRecipients(conversation: MyConversation, ctx: ConvContext): Promise<string[]> {
		await ctx.reply(t('sms-recipients-prompt', { max: s.cfg.smsMaxRecipients }));
		for (;;) {
			const m = await conversation.waitFor(['message:text', 'message:document'], {
				otherwise: (u) => nudge(u, t('sms-recipients-hint')),
			});
			let got: Loaded<Recipients> = { ok: true, value: recipientsFromText(m.message.text ?? '') };
			const doc = m.message.document;
			if (doc) {
				if (!/\.(csv|txt)$/i.test(doc.file_name ?? '')) got = { ok: false, text: t('sms-file-type') };
				else if ((doc.file_size ?? 0) > s.cfg.smsMaxFileBytes)
					got = { ok: false, text: t('sms-file-too-large', { kb: Math.round(s.cfg.smsMaxFileBytes / 1024) }) };
				else got = await readFile(conversation, doc);
			}
			if (!got.ok) await m.reply(got.text);
			else if (got.value.numbers.length === 0)
				await m.reply(`${got.value.bad.length ? `${recipientsReport(got.value)}\n\n` : ''}${t('sms-no-numbers')}`);
			else if (got.value.numbers.length > s.cfg.smsMaxRecipients) {
				// Said before the message is typed: the list is asked for again.
				const n = got.value.numbers.length;
				await m.reply(t('sms-too-many-now', { n, max: s.cfg.smsMaxRecipients }));
			} else {
				await m.reply(recipientsReport(got.value));
				return got.value.numbers;
			}
		}
	}

	return { askSender, askRecipients };
}

/**
 * The client's plan of the job (recipients, duplicates, pages, cost), checked by the client's rules; in
 * the storefront also the seller's price for `userId`, by the same function the order is charged by.
 */
function planJob(s: Services, conversation: MyConversation, userId: number, job: SmsJob) {
	return conversation.external(async (): Promise<Loaded<PlanView>> => {
		try {
			const p = await s.client.sms.plan(job);
			const costKobo = p.cost.kobo;
			const request = { product: 'sms' as const, ...job, recipients: p.recipients }; // as the order sends it
			const priceKobo = await s.storefront?.store.priceOf(String(userId), request, costKobo);
			return {
				ok: true,
				value: { recipients: p.recipients, duplicates: p.duplicates, pages: p.pages, costKobo, priceKobo },
			};
		} catch (e) {
			return { ok: false, text: failText(s, t('sms-cannot-send'), e) };
		}
	});
}

/** The priced job and its summary; nothing when it cannot be sent (said, with `kb` under it). */
function pricing(s: Services) {
	return async function priced(
		conversation: MyConversation,
		ctx: ConvContext,
		job: SmsJob,
		kb?: InlineKeyboard,
	): Promise<Purchase | undefined> {
		const { sender, message } = job;
		const plan = await planJob(s, conversation, ctx.from!.id, job);
		if (!plan.ok) return void (await ctx.reply(plan.text, { reply_markup: kb }));
		const p = plan.value;
		await ctx.reply(smsSummary(sender, message, p));
		const n = p.recipients.length;
		if (n > s.cfg.smsMaxRecipients)
			return void (await ctx.reply(t('sms-too-many', { max: s.cfg.smsMaxRecipients }), { reply_markup: kb }));
		const description = t('sms-description', { sender, pages: count('sms-pages', p.pages) });
		return {
			request: { product: 'sms', sender, message, recipients: p.recipients },
			meta: sentTo(description, count('sms-numbers', n)),
		};
	};
}

/** The list asked again until the job can be priced: the sender and the message kept. */
function listAgain(s: Services, sender: string, message: string) {
	const { askRecipients } = smsSteps(s);
	const priced = pricing(s);
	return async (conversation: MyConversation, ctx: ConvContext): Promise<Purchase> => {
		for (;;) {
			const again = await priced(conversation, ctx, {
				sender,
				message,
				recipients: await askRecipients(conversation, ctx),
			});
			if (again) return again;
		}
	};
}

function smsQuestions(s: Services): Questions {
	const { askSender, askRecipients } = smsSteps(s);
	const priced = pricing(s);

	return async (conversation, ctx) => {
		const sender = await askSender(conversation, ctx);
		const recipients = await askRecipients(conversation, ctx);
		await ctx.reply(t('sms-message-prompt'));
		// the client's rule (client.sms.plan applies it again): asked again until it is a text that can be sent
		const { value: message } = await askTyped(conversation, t('sms-message-as-text'), (text) =>
			parsed(() => checkMessage(text)),
		);
		const first = await priced(conversation, ctx, { sender, message, recipients }, tryAgainKeyboard('sms'));
		if (!first) return;
		return {
			...first,
			// "Try again" after the vendor refused the numbers: the sender and the message are kept, the list asked again
			reask: { fields: ['recipients'], ask: listAgain(s, sender, message) },
		};
	};
}

/** "Try again" after the vendor refused the numbers at the purchase: the order's sender and message, a new list. */
function smsRedo(s: Services): Redo {
	return {
		fields: ['recipients'],
		async ask(conversation, ctx, refused) {
			const { sender, message } = refused.request as Extract<BotPurchaseRequest, { product: 'sms' }>;
			await ctx.reply(t('again-recipients', { what: refused.description }));
			const ask = listAgain(s, sender, message);
			return { ...(await ask(conversation, ctx)), reask: { fields: ['recipients'], ask } };
		},
	};
}

export const sms = productFeature('sms', smsQuestions, {
	command: { name: 'sms', description: 'cmd-sms', help: 'help-sms' },
	menu: { label: 'menu-sms', row: 3 },
	redo: smsRedo,
});
