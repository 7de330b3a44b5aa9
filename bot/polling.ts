/**
 * Long polling with @grammyjs/runner: updates of different users are handled concurrently.
 *
 * Why not `bot.start()`: it handles one update at a time, so while one user's confirm waits on
 * the vendor (a purchase, possibly a reconcile: seconds), every other user waits too. Here the
 * runner fetches with getUpdates and hands each update to a concurrent sink; bot.ts installs
 * `sequentialize` (per chat and per user) before the conversations, so one chat's updates still
 * run in order and conversation state is never read while another update of the chat writes it.
 *
 * The runner's own `run()`/`stop()` neither waits for updates still being handled nor confirms the
 * offset to Telegram, so `stop()` here: stops fetching (aborts the long poll), waits for every
 * update already taken to finish, then confirms the offset past the last update handed to the
 * bot (getUpdates offset=last+1, timeout 0), as grammY's `bot.stop()` does. Like any poller it is
 * not exactly-once under a crash: updates being handled when the process dies are fetched again
 * on restart; the update dedupe and the journal's created→sent race keep that from buying twice.
 */
import type { Bot, BotError } from 'grammy';
import type { Update } from 'grammy/types';
import { createConcurrentSink, createRunner, createSource, createUpdateFetcher } from '@grammyjs/runner';
import type { MyContext } from './context';
import type { Logger } from './logger';

export interface PollingOptions {
	allowedUpdates?: readonly string[];
	/** getUpdates long-poll timeout, seconds (default 30). */
	timeoutSeconds?: number;
	/** Most updates handled at once (default 500). */
	concurrency?: number;
	logger?: Logger;
	/** Called once, right before the first getUpdates. */
	onStart?: () => void;
}

export interface Poller {
	isRunning(): boolean;
	/** Updates taken from Telegram and not finished yet. */
	inFlight(): number;
	/** Resolves when polling ends by itself (fatal getUpdates error: 401, 409); rejects with that error. */
	task(): Promise<void> | undefined;
	/** Stop fetching, finish the updates in flight, confirm the offset. Idempotent. */
	stop(): Promise<void>;
}

export async function startPolling(bot: Bot<MyContext>, opts: PollingOptions = {}): Promise<Poller> {
	const logger = opts.logger;
	await bot.init();
	let stopping = false;
	const supplier = updateSupplier(bot, opts, () => stopping);

	const inflight = new Set<Promise<void>>();
	/** Highest update id handed to the bot. Updates are consumed in order, so all below it were too. */
	let lastTaken: number | undefined;
	const consumer = {
		consume: (update: Update): Promise<void> => {
			if (lastTaken === undefined || update.update_id > lastTaken) lastTaken = update.update_id;
			const p: Promise<void> = bot.handleUpdate(update).finally(() => inflight.delete(p));
			inflight.add(p);
			return p;
		},
	};
	const sink = createConcurrentSink(
		consumer,
		async (err) => {
			try {
				await bot.errorHandler(err as BotError<MyContext>);
			} catch (e) {
				logger?.error('error handler failed', { err: e });
			}
		},
		{ concurrency: opts.concurrency ?? 500 },
	);
	const runner = createRunner(createSource(supplier), sink);
	runner.start();

	let stopped: Promise<void> | undefined;
	async function doStop(): Promise<void> {
		stopping = true;
		try {
			await runner.stop();
		} catch (e) {
			logger?.warn('runner stopped with an error', { err: e });
		}
		while (inflight.size > 0) await Promise.allSettled([...inflight]);
		if (lastTaken !== undefined) await confirmOffset(bot, lastTaken + 1, logger);
	}
	return {
		isRunning: () => !stopping && runner.isRunning(),
		inFlight: () => inflight.size,
		task: () => runner.task(),
		stop: () => (stopped ??= doStop()),
	};
}

/** getUpdates for the runner: calls onStart before the first fetch, logs the error that ends polling. */
function updateSupplier(bot: Bot<MyContext>, opts: PollingOptions, stopping: () => boolean) {
	const fetchUpdates = createUpdateFetcher(bot, {
		fetch: {
			timeout: opts.timeoutSeconds ?? 30,
			...(opts.allowedUpdates ? { allowed_updates: [...opts.allowedUpdates] as never } : {}),
		},
		// The fetcher would print retries with console.error; log them as JSON lines instead.
		silent: true,
	});
	let started = false;
	// The runner types its signal with the abort-controller shim, not the global AbortSignal.
	type Signal = Parameters<typeof fetchUpdates>[1];
	return {
		supply: async (batchSize: number, signal: Signal): Promise<Update[]> => {
			if (!started) {
				started = true;
				opts.onStart?.();
			}
			try {
				return await fetchUpdates(batchSize, signal);
			} catch (e) {
				if (!stopping()) opts.logger?.error('getUpdates failed, polling stopped', { err: e });
				throw e;
			}
		},
	};
}

/** Tell Telegram every update below `offset` is handled, so a restart does not fetch them again. */
async function confirmOffset(bot: Bot<MyContext>, offset: number, logger: Logger | undefined): Promise<void> {
	try {
		await bot.api.getUpdates({ offset, limit: 1, timeout: 0 });
	} catch (e) {
		logger?.warn('could not confirm the update offset; some updates may be delivered again (they are deduplicated)', {
			err: e,
		});
	}
}
